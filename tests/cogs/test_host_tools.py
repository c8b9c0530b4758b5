"""The host's skip and substitution through the fake Discord (issue "trust" 5 and 9): a skip is confirmed on a
button that carries the board's version and the waited-for player; a seat changes hands only when the invited
player presses "Take the seat"."""

from __future__ import annotations

from tests.cogs.driver import CHANNEL, Driver, answer, ids_of, table
from tests.fakediscord import payloads as p


async def test_a_skip_is_confirmed_and_refused_once_the_player_moved(tmp_path):
    async with table(tmp_path) as (server, bot, clock):
        d = Driver(server, bot, clock, [p.ANNA, p.BEN, p.CLEO])
        gid = await d.open_and_start()
        t = await d.load()
        waiting = [pr for pr in t.prompts() if pr.kind == "peek"]
        ask = await server.slash(p.ANNA, "game skip", {"game": gid}, channel_id=CHANNEL)
        (confirm,) = await ask.wait_followups(1)
        assert confirm["ephemeral"] and "Skip" in confirm["content"]
        skip_id = next(i for i in ids_of(confirm) if i.startswith("sk|"))
        # the waited-for player moves before the host confirms: the old confirmation is refused
        await answer(d, waiting[0].seat, "peek", waiting[0].options[0].id, waiting[0].secret)
        before = await bot.service.store.get_choices(gid)
        late = await server.click(p.ANNA, confirm["id"], skip_id)
        (reply,) = await late.wait_followups(1)
        assert "moved on" in reply["content"] and reply["ephemeral"]
        assert await bot.service.store.get_choices(gid) == before
        # a fresh confirmation skips the next waited-for player's question
        ask = await server.slash(p.ANNA, "game skip", {"game": gid}, channel_id=CHANNEL)
        (confirm,) = await ask.wait_followups(1)
        skip_id = next(i for i in ids_of(confirm) if i.startswith("sk|"))
        done = await server.click(p.ANNA, confirm["id"], skip_id)
        (reply,) = await done.wait_followups(1)
        assert reply["content"].startswith("Skipped")
        await d.settle()
        assert any("skips" in m["content"] for m in server.messages_in(d.where))
        # not the host: refused before any button
        other = await server.slash(p.BEN, "game skip", {"game": gid}, channel_id=CHANNEL)
        (reply,) = await other.wait_followups(1)
        assert "Only the host" in reply["content"]


async def test_a_seat_changes_hands_only_when_the_invited_player_takes_it(tmp_path):
    async with table(tmp_path) as (server, bot, clock):
        d = Driver(server, bot, clock, [p.ANNA, p.BEN, p.CLEO])
        gid = await d.open_and_start()
        ask = await server.slash(
            p.ANNA,
            "game substitute",
            {"game": gid, "player": p.uid(p.BEN), "substitute": p.uid(p.DAN)},
            channel_id=CHANNEL,
        )
        (reply,) = await ask.wait_followups(1)
        assert "offered" in reply["content"]

        def offer_posted() -> bool:
            return any(any(i.startswith("of|") for i in ids_of(m)) for m in server.messages_in(d.where))

        await server.wait_until(offer_posted, 5, what="the seat offer")
        offer = next(m for m in server.messages_in(d.where) if any(i.startswith("of|") for i in ids_of(m)))
        assert {int(u["id"]) for u in offer["mentions"]} == {p.uid(p.DAN), p.uid(p.BEN)}
        assert (await d.load()).seat_of(p.uid(p.BEN)) == 1  # nothing changed yet
        take = next(i for i in ids_of(offer) if i.endswith("|take"))
        wrong = await server.click(p.CLEO, offer["id"], take)
        (refused,) = await wrong.wait_followups(1)
        assert "no open offer" in refused["content"]
        took = await server.click(p.DAN, offer["id"], take)
        (ok,) = await took.wait_followups(1)
        assert "You now play" in ok["content"]
        t = await d.load()
        assert t.seat_of(p.uid(p.DAN)) == 1 and t.seat_of(p.uid(p.BEN)) is None and t.name_of(1) == "Ben"
        await server.wait_until(
            lambda: any("now plays Ben's seat" in m["content"] for m in server.messages_in(d.where)),
            5,
            what="the seat change on the board",
        )
