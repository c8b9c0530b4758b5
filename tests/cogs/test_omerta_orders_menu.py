"""Omerta's standing orders asked in two steps (issue "the table reads right"): the menu of up to 40 flat entries
(slot x Bottle) becomes "which of your slots", then "on which Bottle", through the fake Discord with the real bot.
The first step changes nothing; "Back" returns to it; the order set is the one the flat menu's entry gave (the
same option id, so records, bots and replays are unchanged); no menu has more than Discord's 25 entries."""

from __future__ import annotations

from typing import Any

from engine.core import Choice
from engine.omerta.game import OmertaGame
from tests.cogs.driver import Driver, _walk, answer, ids_of, step_menu, table
from tests.fakediscord import payloads as p


def _menus(message: dict[str, Any]) -> dict[str, list[str]]:
    """Each select menu of a message: its custom id and the values it offers."""
    return {
        c["custom_id"]: [o["value"] for o in c["options"]] for c in _walk(message["components"]) if c.get("options")
    }


async def _open_mine(d: Driver, seat: int) -> dict[str, Any]:
    """The player's "My options" reply, opened from the board once it shows the game's current version (the bot
    edits the board after it answers a click: under load the click on the older board found no such button)."""
    await d.settle()
    board = await d.board()
    version = (await d.load()).version
    rec = await d.server.click(d.user_of_seat(seat), board["id"], f"pm|{d.gid}|{version}", ts_ms=d.next_ts())
    return (await rec.wait_followups(1))[-1]


async def _click(d: Driver, seat: int, message: dict[str, Any], cid: str, values: list[str] | None = None):  # noqa: ANN202
    rec = await d.server.click(d.user_of_seat(seat), message["id"], cid, values=values, ts_ms=d.next_ts())
    return await d.reply_of(rec)


async def test_standing_orders_are_chosen_slot_first_then_bottle_and_give_the_flat_menus_order(tmp_path):
    async with table(tmp_path) as (server, bot, clock):
        d = Driver(server, bot, clock, [p.ANNA, p.BEN, p.CLEO])
        await d.open_and_start("pace=post")
        await d.settle()
        t = await d.load()
        for pr in [pr for pr in t.prompts() if pr.kind == "peek"]:
            await answer(d, pr.seat, "peek", pr.options[0].id, pr.secret)
        await d.settle()
        before = await d.load()
        seat = 1
        flat = next(pr for pr in before.prompts_for(seat) if pr.kind == "order")
        assert len(flat.options) == 40  # 4 slots x 10 Bottle values: too many for one menu

        reply = await _open_mine(d, seat)
        first = step_menu(reply, "order")
        assert first is not None and not any(i.startswith("ps|") and "|order|" in i for i in ids_of(reply))
        assert _menus(reply)[first] == ["slot:0", "slot:1", "slot:2", "slot:3"]  # the first menu: the slots

        second = await _click(d, seat, reply, first, ["slot:1"])
        assert second["id"] == reply["id"]  # the same reply shows the second step in place of the first
        menus = _menus(second)
        (bottles,) = [cid for cid in menus if cid.startswith(f"ps|{d.gid}|") and "|order|" in cid]
        # only that slot's Bottles, as the flat menu had them
        assert (
            menus[bottles]
            == [o.id for o in flat.options if o.id.startswith("set:1:")]
            == ["set:1:1", *menus[bottles][1:]]
        )
        assert step_menu(second, "order") is None and f"pk|{d.gid}|{before.version}|order" in ids_of(second)
        assert (await d.load()).version == before.version  # the first step changed nothing

        back = await _click(d, seat, second, f"pk|{d.gid}|{before.version}|order")
        assert step_menu(back, "order") is not None and (await d.load()).version == before.version

        again = await _click(d, seat, back, step_menu(back, "order"), ["slot:1"])
        rec = await d.server.click(d.user_of_seat(seat), again["id"], bottles, values=["set:1:7"], ts_ms=d.next_ts())
        await d.done(rec, before.version)
        after = await d.load()
        # the order the flat menu's entry "Snap slot 2 on a Bottle 7" gave, applied to the state before
        game = OmertaGame()
        expected = game.loads(game.dumps(before.state))
        game.apply(expected, Choice(seat, "order", "set:1:7"))
        assert game.dumps(after.state) == game.dumps(expected)
        assert [(o.seat, o.slot, o.value) for o in after.state.orders] == [(seat, 1, 7)]

        # the slot now says its order; its second step offers to cancel it and every other Bottle
        reply = await _open_mine(d, seat)
        first = step_menu(reply, "order")
        entry = next(c for c in _walk(reply["components"]) if c.get("custom_id") == first)
        described = {o["value"]: o.get("description") for o in entry["options"]}
        assert described["slot:1"] == "Now: snap it on a Bottle 7" and not described["slot:0"]
        second = await _click(d, seat, reply, first, ["slot:1"])
        offered = next(v for cid, v in _menus(second).items() if "|order|" in cid)
        assert offered[0] == "cancel:1" and "set:1:7" not in offered and len(offered) == 10
        for message in server.ephemeral_for(d.user_of_seat(seat)):  # Discord's limit on every menu
            assert all(len(v) <= 25 for v in _menus(message).values())
