"""Issue 23, "Games that keep going for weeks": ``/me`` and ``/away`` through the fake Discord, privately, in a
server and in the bot's DM; a bad value changes nothing and says what is allowed; the board says who is away."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from cogs.board import status_text
from store import PersonRow
from tests.cogs.driver import Driver, answer, table
from tests.cogs.test_dm_access import said
from tests.fakediscord import payloads as p


async def test_me_shows_and_changes_settings_privately_in_a_server_and_a_dm(tmp_path):
    """Issue 23: /me without options shows the settings (the defaults, the language as Discord told it); with
    options it changes them (time zone, quiet hours, how one is told, the digest), in a server or the bot's DM;
    a bad time zone or time of day is refused with what is allowed, and changes nothing."""
    async with table(tmp_path) as (server, bot, clock):
        anna = p.ANNA
        shown = await said(await server.slash(anna, "me", {}, channel_id=p.GENERAL_CHANNEL_ID))
        assert shown["ephemeral"]
        assert "Time zone: UTC" in shown["content"] and "Quiet hours: none" in shown["content"]
        assert "Language: English" in shown["content"] and "Away: no" in shown["content"]
        opts = {"time_zone": "Europe/Berlin", "quiet_start": "22:00", "quiet_end": "8:00", "told_by": "both"}
        changed = await said(await server.slash(anna, "me", {**opts, "digest": True}, channel_id=p.GENERAL_CHANNEL_ID))
        assert "Time zone: Europe/Berlin" in changed["content"] and "Quiet hours: 22:00 to 08:00" in changed["content"]
        assert "a ping in the game's channel and a DM" in changed["content"] and ": on" in changed["content"]
        stored = await bot.service.store.get_person(p.uid(anna))
        assert (stored.tz, stored.quiet_start, stored.quiet_end, stored.notify, stored.digest) == (
            "Europe/Berlin",
            1320,
            480,
            "both",
            True,
        )
        dm = server.dm_channel_id(anna)
        for bad, why in (
            ({"time_zone": "Berlin", "digest": False}, "IANA"),
            ({"quiet_start": "25:00"}, "time of day"),
            ({"quiet_start": "8:00"}, "another time"),
        ):
            refused = await said(await server.slash(anna, "me", bad, channel_id=dm))
            assert refused["ephemeral"] and why in refused["content"], refused["content"]
            assert await bot.service.store.get_person(p.uid(anna)) == stored
        off = await said(await server.slash(anna, "me", {"quiet_start": "off"}, channel_id=dm))
        assert "Quiet hours: none" in off["content"]
        ac = await server.autocomplete(anna, "me", {"time_zone": "berl"}, focused="time_zone", channel_id=dm)
        assert "Europe/Berlin" in [c["value"] for c in ac]


async def test_away_is_set_refused_shown_on_the_board_and_ended(tmp_path):
    """Issue 23: /away until:3d or a date in one's time zone, at most 14 days ahead; the board of the next move
    shows "away until"; /away off ends it; a bad value changes nothing and says what is allowed."""
    async with table(tmp_path) as (server, bot, clock):
        clock.now = datetime(2026, 6, 1, 12, tzinfo=ZoneInfo("UTC")).timestamp()
        d = Driver(server, bot, clock, [p.ANNA, p.BEN, p.CLEO])
        await d.open_and_start(options="on_timeout=remind")
        ben = p.uid(p.BEN)
        for bad in ("15d", "2026-06-20", "soon"):
            refused = await said(await server.slash(p.BEN, "away", {"until": bad}, channel_id=d.where))
            assert refused["ephemeral"] and "2026-06-15" in refused["content"], refused["content"]
            assert await bot.service.store.get_person(ben) == PersonRow(ben)
        ok = await said(
            await server.slash(p.BEN, "away", {"until": "2026-06-03"}, channel_id=server.dm_channel_id(p.BEN))
        )
        back = datetime(2026, 6, 4, tzinfo=ZoneInfo("UTC")).timestamp()
        assert ok["ephemeral"] and f"<t:{int(back)}:f>" in ok["content"]
        pt = await bot.service.public(await d.load())
        assert pt.away == ((1, back),)
        assert f"Away: Ben until <t:{int(back)}:f>" in status_text(pt).replace("**", "")
        await said(await server.slash(p.BEN, "away", {"until": "off"}, channel_id=d.where))
        assert (await bot.service.public(await d.load())).away == ()


async def test_told_by_dm_is_named_on_the_board_without_a_ping_and_gets_a_dm_and_a_daily_digest(tmp_path):
    """Issue 23: /me told_by:dm: the board names the player without a ping and a DM links it ("It is your move");
    told_by:both: a ping and the DM; the daily digest (digest:true) is a DM listing the games waiting for them, at
    most once a day, none in their quiet hours."""
    async with table(tmp_path) as (server, bot, clock):
        clock.now = datetime(2026, 6, 1, 12, tzinfo=ZoneInfo("UTC")).timestamp()
        await said(await server.slash(p.BEN, "me", {"told_by": "dm", "digest": True}, channel_id=p.GENERAL_CHANNEL_ID))
        await said(await server.slash(p.CLEO, "me", {"told_by": "both"}, channel_id=p.GENERAL_CHANNEL_ID))
        d = Driver(server, bot, clock, [p.ANNA, p.BEN, p.CLEO])
        await d.open_and_start()
        await d.settle()
        board = await d.board()
        ben, cleo = p.uid(p.BEN), p.uid(p.CLEO)
        assert f"<@{ben}>" in board["content"] and f"<@{cleo}>" in board["content"]
        assert {int(u["id"]) for u in board["mentions"]} == {p.uid(p.ANNA), cleo}
        for user in (p.BEN, p.CLEO):
            told = [m["content"] for m in server.messages_in(server.dm_channel_id(user))]
            assert any("It is your move: https://discord.com/channels/" in t for t in told), told
        assert not any("It is your move" in m["content"] for m in server.messages_in(server.dm_channel_id(p.ANNA)))

        # the half-way reminders (Omerta's 24h deadline): Ben's by DM only, Cleo's in the channel and by DM
        clock.now += 12 * 3600
        dms = {p.uid(u): len(server.messages_in(server.dm_channel_id(u))) for u in (p.BEN, p.CLEO)}
        channel = len(server.messages_in(d.where))
        assert await bot.get_cog("Play").send_reminders() == 3
        pinged = [int(u["id"]) for m in server.messages_in(d.where)[channel:] for u in m["mentions"]]
        assert sorted(pinged) == sorted([p.uid(p.ANNA), cleo])
        for user in (p.BEN, p.CLEO):
            (dm,) = server.messages_in(server.dm_channel_id(user))[dms[p.uid(user)] :]
            assert "The game is waiting for you: https://" in dm["content"] and "Your time runs out" in dm["content"]
        clock.now -= 12 * 3600

        people = bot.get_cog("People")
        before = len(server.messages_in(server.dm_channel_id(p.BEN)))
        assert await people.send_digests() == 1
        (digest,) = server.messages_in(server.dm_channel_id(p.BEN))[before:]
        assert digest["embeds"][0]["title"] == "Your games waiting for you"
        assert f"Game #{d.gid} · Omerta" in digest["embeds"][0]["description"]
        clock.now += 23 * 3600
        assert await people.send_digests() == 0  # once a day
        await said(
            await server.slash(
                p.BEN, "me", {"quiet_start": "11:00", "quiet_end": "13:00"}, channel_id=p.GENERAL_CHANNEL_ID
            )
        )
        clock.now += 3600  # 12:00 UTC the next day: in his quiet hours
        assert await people.send_digests() == 0
        clock.now += 3600
        assert await people.send_digests() == 1


async def test_heads_up_tells_the_next_player_when_the_one_before_begins_their_turn(tmp_path):
    """Issue 23, "tell me when the player before me starts": everyone asked for a heads-up; when the first turn
    begins, the player after it in Omerta's turn order (and only they) gets a DM naming whose turn began, with the
    board's link."""
    async with table(tmp_path) as (server, bot, clock):
        clock.now = datetime(2026, 6, 1, 12, tzinfo=ZoneInfo("UTC")).timestamp()
        users = [p.ANNA, p.BEN, p.CLEO]
        for user in users:
            await said(await server.slash(user, "me", {"heads_up": True}, channel_id=p.GENERAL_CHANNEL_ID))
        d = Driver(server, bot, clock, users)
        await d.open_and_start()
        for seat in range(3):  # everyone's opening peek: then the first turn begins
            t = await d.load()
            prompt = t.prompts_for(seat)[0]
            await answer(d, seat, prompt.kind, prompt.options[0].id, prompt.secret)
            await d.settle()
        t = await d.load()
        first = t.state.active
        assert t.prompts_for(first)
        after = (first + 1) % 3
        for seat, user in enumerate(users):
            heads = [
                m["content"] for m in server.messages_in(server.dm_channel_id(user)) if "comes next" in m["content"]
            ]
            if seat == after:
                assert len(heads) == 1 and f"{t.name_of(first)} has begun their turn" in heads[0]
                assert "https://discord.com/channels/" in heads[0]
            else:
                assert heads == []
        shown = await said(await server.slash(p.BEN, "me", {}, channel_id=p.GENERAL_CHANNEL_ID))
        assert "begins their turn: on" in shown["content"]


async def test_a_seat_offer_names_a_player_in_their_quiet_hours_without_a_ping(tmp_path):
    """Issue 23: no message pings a player in their quiet hours: a seat offer names Ben (quiet now) and Dan, and
    pings only Dan."""
    from tests.cogs.test_host_tools import _offer

    async with table(tmp_path) as (server, bot, clock):
        clock.now = datetime(2026, 6, 1, 23, tzinfo=ZoneInfo("UTC")).timestamp()
        opts = {"time_zone": "UTC", "quiet_start": "22:00", "quiet_end": "07:00"}
        await said(await server.slash(p.BEN, "me", opts, channel_id=p.GENERAL_CHANNEL_ID))
        d = Driver(server, bot, clock, [p.ANNA, p.BEN, p.CLEO])
        await d.open_and_start()
        offer = await _offer(server, d, p.BEN, p.DAN)
        assert f"<@{p.uid(p.BEN)}>" in offer["content"]
        assert {int(u["id"]) for u in offer["mentions"]} == {p.uid(p.DAN)}
