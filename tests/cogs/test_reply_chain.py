"""Issue 24, the question is where the thumb is (through the fake Discord): after a click, the clicker's reply carries
their next question when it is theirs again, a click in that reply turns it into the next answer (one chain, no
scrolling up to the board), and a used reply keeps no buttons."""

from __future__ import annotations

from typing import Any

import pytest

from cogs.dynamic_items import DYNAMIC_ITEMS
from engine.core import Prompt
from tests.cogs.driver import Driver, ids_of, table, target
from tests.fakediscord import payloads as p

#: option ids a scripted player takes only when nothing else is offered (so that turns have several steps)
LAST_RESORT = ("skip", "done", "end", "lose", "back")


def _newest_seen(d: Driver, user: dict[str, Any]) -> dict[str, Any]:
    """The newest message ``user`` sees in the game's thread: a public one or one of their own replies."""
    uid = str(user["id"])
    seen = [
        m
        for _, m in sorted(d.server.messages.items())
        if m["channel_id"] == str(d.where)
        and (not m["ephemeral"] or (m["interaction_user"] and m["interaction_user"]["id"] == uid))
    ]
    return seen[-1]


def _answers(message: dict[str, Any], prompt: Prompt, option: str) -> bool:
    return target(message, prompt.kind, option, "")[0] != ""


def _reachable(message: dict[str, Any], prompt: Prompt, option: str, gid: int) -> bool:
    """Whether a message answers the question, or (a private one, after a new board opened a phase, such as a Mob
    War defence after the turn's last step) holds the "My options" that opens it."""
    mine = prompt.secret and any(i.startswith(f"pm|{gid}|") for i in ids_of(message))
    return _answers(message, prompt, option) or mine


def _choose(prompt: Prompt, steps_in_turn: int) -> str:
    """Play on for a few steps (so a turn has several), then decline what may be declined."""
    plain = [o.id for o in prompt.options if o.id not in LAST_RESORT]
    if steps_in_turn < 4 and plain:
        return plain[0]
    declines = [o.id for o in prompt.options if o.id in LAST_RESORT and o.id != "lose"]
    return declines[0] if declines else prompt.options[0].id


def _action_ids(message: dict[str, Any]) -> list[str]:
    return [i for i in ids_of(message) if i.startswith(("pl|", "ps|", "un|"))]


@pytest.mark.slow
async def test_a_turn_of_several_steps_is_played_in_the_newest_message(tmp_path):
    async with table(tmp_path) as (server, bot, clock):
        d = Driver(server, bot, clock, [p.ANNA, p.BEN])
        await d.open_and_start(game="speakeasy")
        last_seat, steps_in_turn, chained, longest = None, 0, 0, 0
        for _ in range(80):
            await d.settle()
            t = await d.load()
            if t.row.status != "active":
                break
            prompt = next(pr for pr in t.prompts() if pr.race is None)
            seat, user = prompt.seat, d.user_of_seat(prompt.seat)
            steps_in_turn = steps_in_turn + 1 if seat == last_seat else 1
            longest = max(longest, steps_in_turn)
            option = _choose(prompt, steps_in_turn)
            newest = _newest_seen(d, user)
            if steps_in_turn > 1:
                # the acceptance: within a turn, the button needed is in the newest message the player sees
                assert _reachable(newest, prompt, option, d.gid), (
                    f"step {steps_in_turn} of {user['username']}'s turn ({prompt.kind}) is not in their newest message"
                )
            if _answers(newest, prompt, option):
                cid, values = target(newest, prompt.kind, option)
                rec = await server.click(user, newest["id"], cid, values=values, ts_ms=d.next_ts())
                chained += newest["ephemeral"]
            else:  # a turn's first step: its board mentions the player (a private question: My options)
                board = await d.board()
                mine = next(i for i in ids_of(board) if i.startswith(f"pm|{d.gid}|"))
                opened = await server.click(user, board["id"], mine, ts_ms=d.next_ts())
                reply = (await opened.wait_followups(1))[-1]
                cid, values = target(reply, prompt.kind, option)
                rec = await server.click(user, reply["id"], cid, values=values, ts_ms=d.next_ts())
            await rec.wait_callback()
            if any(i.endswith("|!") for i in ids_of(rec.message)):  # a risky step: confirmed where it was asked
                assert rec.message["ephemeral"]
                rec = await d.confirm(rec, seat)
            await d.done(rec, t.version)
            if rec.ephemeral and rec.callback_type == 6:
                await rec.wait_edits(1)
            elif any(pr.seat == seat and not pr.race and not pr.optional for pr in (await d.load()).prompts()):
                await rec.wait_followups(1)  # the answer to a board click: the reply with the player's next question
            await d.settle()
            # a used reply keeps no buttons: only the newest of the player's replies may still be pressed
            older = server.ephemeral_for(user)[:-1]
            assert not [i for m in older for i in _action_ids(m)], "a used reply still has buttons"
            last_seat = seat
        assert longest >= 3, "the scripted turns had several steps"
        assert chained > 10, "steps were taken in the replies"
        # a reply edited into the next question never unregisters the bot's buttons (discord.py's view store)
        registered = set(bot._connection._view_store._dynamic_items)
        assert {item.__discord_ui_compiled_template__ for item in DYNAMIC_ITEMS} <= registered
