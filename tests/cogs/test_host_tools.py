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


async def _offer(server, d, player, substitute) -> dict:  # noqa: ANN001
    """The host offers ``player``'s seat to ``substitute``; the offer message as posted in the game's channel."""
    ask = await server.slash(
        p.ANNA,
        "game substitute",
        {"game": d.gid, "player": p.uid(player), "substitute": p.uid(substitute)},
        channel_id=CHANNEL,
    )
    (reply,) = await ask.wait_followups(1)
    assert "offered" in reply["content"], reply["content"]

    def offers() -> list[dict]:
        return [m for m in server.messages_in(d.where) if any(i.startswith("of|") for i in ids_of(m))]

    seen = len(offers())
    await server.wait_until(lambda: len(offers()) > seen or (seen == 0 and offers()), 5, what="the seat offer")
    return offers()[-1]


async def _press(server, user, offer, action) -> str:  # noqa: ANN001
    """Press one of an offer's buttons; the private answer."""
    cid = next(i for i in ids_of(offer) if i.endswith(f"|{action}"))
    rec = await server.click(user, offer["id"], cid)
    (reply,) = await rec.wait_followups(1)
    return reply["content"]


async def test_a_seat_changes_hands_only_when_both_the_invited_and_its_player_agree(tmp_path):
    """Issue 22 ("A seat changes hands only with its player's consent"): the invited person's Take the seat alone
    changes nothing; the seat's player's Give up my seat completes it (and in the other order too); nobody else
    can answer for them."""
    async with table(tmp_path) as (server, bot, clock):
        d = Driver(server, bot, clock, [p.ANNA, p.BEN, p.CLEO])
        gid = await d.open_and_start()
        offer = await _offer(server, d, p.BEN, p.DAN)
        assert {int(u["id"]) for u in offer["mentions"]} == {p.uid(p.DAN), p.uid(p.BEN)}
        assert "only when both agree" in offer["content"]
        assert "no open offer" in await _press(server, p.CLEO, offer, "take")
        assert "no open offer of your seat" in await _press(server, p.CLEO, offer, "give")
        assert f"as soon as <@{p.uid(p.BEN)}> agrees" in await _press(server, p.DAN, offer, "take")
        assert (await d.load()).seat_of(p.uid(p.BEN)) == 1  # the invited person's consent alone changes nothing
        assert "Dan now plays your seat" in await _press(server, p.BEN, offer, "give")
        t = await d.load()
        assert t.seat_of(p.uid(p.DAN)) == 1 and t.seat_of(p.uid(p.BEN)) is None and t.name_of(1) == "Ben"
        await server.wait_until(
            lambda: any("now plays Ben's seat" in m["content"] for m in server.messages_in(d.where)),
            5,
            what="the seat change on the board",
        )
        # the other order: the seat's player agrees first, the seat changes hands when the invited person takes it
        offer = await _offer(server, d, p.CLEO, p.EVE)
        assert "as soon as they take it" in await _press(server, p.CLEO, offer, "give")
        assert (await d.load()).seat_of(p.uid(p.CLEO)) == 2
        assert "You now play Cleo's seat" in await _press(server, p.EVE, offer, "take")
        assert (await d.load()).seat_of(p.uid(p.EVE)) == 2
        # Keep my seat withdraws an offer, even after the invited person accepted
        offer = await _offer(server, d, p.DAN, p.FINN)
        assert f"You accept Ben's seat in game #{gid}; it is yours as soon as <@{p.uid(p.DAN)}> agrees" in (
            await _press(server, p.FINN, offer, "take")
        )
        assert "withdrawn" in await _press(server, p.DAN, offer, "keep")
        assert "no open offer of your seat" in await _press(server, p.DAN, offer, "give")
        assert (await d.load()).seat_of(p.uid(p.DAN)) == 1 and (await d.load()).seat_of(p.uid(p.FINN)) is None


async def test_a_seat_a_bot_plays_for_its_player_stays_theirs(tmp_path):
    """Issue 22: after the host hands Ben's seat to a bot, the seat cannot be offered to anyone (by naming Ben),
    nobody else can reclaim it, and Ben takes it back."""
    async with table(tmp_path) as (server, bot, clock):
        d = Driver(server, bot, clock, [p.ANNA, p.BEN, p.CLEO])
        gid = await d.open_and_start()
        rec = await server.slash(p.ANNA, "game botseat", {"game": gid, "player": p.BEN}, channel_id=CHANNEL)
        (reply,) = await rec.wait_followups(1)
        assert "plays Ben's seat now" in reply["content"]
        ask = await server.slash(
            p.ANNA, "game substitute", {"game": gid, "player": p.uid(p.BEN), "substitute": p.uid(p.DAN)}
        )
        (refused,) = await ask.wait_followups(1)
        assert refused["content"] == (
            f"A bot plays <@{p.uid(p.BEN)}>'s seat for them: it stays theirs, only they can take it back "
            "(/game reclaim), and it cannot be offered to anyone else meanwhile."
        )
        assert await bot.service.store.get_offer(gid, 1) is None
        other = await server.slash(p.DAN, "game reclaim", {"game": gid}, channel_id=CHANNEL)
        (no,) = await other.wait_followups(1)
        assert "No seat of yours is played by a bot" in no["content"]
        back = await server.slash(p.BEN, "game reclaim", {"game": gid}, channel_id=CHANNEL)
        (yes,) = await back.wait_followups(1)
        assert "You play Ben's seat again" in yes["content"]
        assert (await d.load()).seat_of(p.uid(p.BEN)) == 1


async def test_a_button_with_an_out_of_range_number_is_refused_cleanly(tmp_path):
    """Issue 22 ("Small ones"): a custom id with a 40-digit seat, or a game number past 2^63, is refused politely
    (no OverflowError from the database)."""
    async with table(tmp_path) as (server, bot, clock):
        d = Driver(server, bot, clock, [p.ANNA, p.BEN, p.CLEO])
        gid = await d.open_and_start()
        await d.settle()
        board = await d.board()
        stored = server.messages[int(board["id"])]
        kept = stored["components"]
        for custom_id, answer_text in (
            (f"of|{gid}|{'9' * 40}|take", "This button is no longer valid; use the latest board."),
            (f"lg|{'9' * 40}|0", "This button is no longer valid; use the latest board."),
            (f"lg|{2**63 + 5}|0", f"There is no game #{2**63 + 5}."),
            (f"pm|{2**63}|0", f"There is no game #{2**63}."),
        ):
            button = {"type": p.ComponentType.BUTTON, "style": 2, "label": "x", "custom_id": custom_id}
            stored["components"] = [{"type": p.ComponentType.ACTION_ROW, "components": [button]}]
            rec = await server.click(p.ANNA, board["id"], custom_id)
            await rec.wait_callback()
            reply = (await rec.wait_followups(1))[-1] if rec.callback_type in (5, 6) else rec.message
            assert reply["content"].startswith(answer_text), (custom_id, reply["content"])
        stored["components"] = kept
        assert not server.take_error_logs()
