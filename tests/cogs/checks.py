"""Checks of the story a finished game left in its thread (issue "The channel tells the story")."""

from __future__ import annotations

import json
from typing import Any

from cogs.publish.story import END_KINDS
from tests.cogs.driver import Driver, appears, channel_texts, ids_of, told

LIMITS = {"content": 2000, "rows": 5, "label": 80, "custom_id": 100, "options": 25}


def posts(d: Driver, method: str) -> list[Any]:
    """The requests of ``method`` to the messages of the game's channel (posts or edits), as sent."""
    return [
        r
        for r in d.server.requests
        if r.method == method and r.path.startswith(f"/channels/{d.where}/messages") and isinstance(r.json, dict)
    ]


async def check_story(d: Driver) -> dict[str, int]:
    """Every public event reached the thread; every finished turn's message is a summary without buttons;
    whoever had to act was mentioned in a newly posted message, nobody else, and no edit pings; nothing over
    Discord's limits. Returns a few counts for the caller's own assertions."""
    store = d.bot.service.store
    table = await d.load()
    events = await store.get_events(d.gid)
    names = [p["name"] for p in (table.view(None) or {}).get("players", [])] or [s.name for s in table.seats]
    shown = "\n".join(channel_texts(d.server, d.where))
    # the end's own lines (from the first "final", "over" or "ended" event) are told by the final message's
    # standings, not line by line (issue 24)
    cut = next((i for i, e in enumerate(events) if e.kind in END_KINDS), len(events))
    missing = [e.text for e in told(events[:cut]) if not appears(e.text, names, shown)]
    assert not missing, f"{len(missing)} public lines never reached the thread, e.g. {missing[:3]}"
    board = await store.get_message(d.gid, "board")
    for m in d.server.messages_in(d.where):
        live = [i for i in ids_of(m) if not i.startswith(("of|", "lb|"))]
        if board is None or int(m["id"]) != board.message_id:
            assert not live, f"an old message still has buttons: {m['content'][:120]!r}"
    players = {s.user_id for s in table.seats if s.user_id > 0}
    mentioned: dict[int, int] = {}
    for r in posts(d, "POST"):
        users = [int(u) for u in (r.json.get("allowed_mentions") or {}).get("users", [])]
        assert set(users) <= players, f"someone not playing was mentioned: {users}"
        for u in users:
            assert f"<@{u}>" in r.json.get("content", ""), "a mention was cut from its message"
            mentioned[u] = mentioned.get(u, 0) + 1
        assert len(r.json.get("content") or "") <= LIMITS["content"]
    for r in posts(d, "PATCH"):
        assert not (r.json.get("allowed_mentions") or {}).get("users"), "an edit may not ping"
        assert len(r.json.get("content") or "") <= LIMITS["content"]
    turns: dict[int, int] = {}
    for e in events:
        if e.kind == "turn" and e.seats is None:
            seat = json.loads(e.data).get("seat")
            user = table.user_of(seat) if isinstance(seat, int) else None
            if user is not None and user > 0:
                turns[user] = turns.get(user, 0) + 1
    for user, count in turns.items():
        assert mentioned.get(user, 0) >= count, f"user {user} had {count} turns but {mentioned.get(user, 0)} pings"
    return {"turns": sum(turns.values()), "pings": sum(mentioned.values()), "posts": len(posts(d, "POST"))}


async def check_end_pings_everyone(d: Driver) -> dict[str, Any]:
    """The game's end pings every player in a newly posted message (issue 11): the last board message was posted
    after the final event and mentions each player; returns that message."""
    table = await d.load()
    assert table.row.status == "finished"
    store = d.bot.service.store
    board = await store.get_message(d.gid, "board")
    assert board is not None and board.upto >= await store.last_event_id(d.gid), "no message after the end"
    message = d.server.message(board.message_id)
    players = {s.user_id for s in table.seats if s.user_id > 0}
    assert {int(u["id"]) for u in message["mentions"]} == players, "the end must ping every player"
    assert all(f"<@{u}>" in message["content"] for u in players)
    posted = [r for r in posts(d, "POST") if set(map(int, (r.json.get("allowed_mentions") or {}).get("users", [])))]
    assert set(map(int, posted[-1].json["allowed_mentions"]["users"])) == players, "pinged by a new message"
    return message


def opening_messages(d: Driver, name: str) -> list[str]:
    """The contents of the messages that opened ``name``'s turns, as posted."""
    return [
        str(r.json.get("content"))
        for r in posts(d, "POST")
        if f"· {name}'s turn**" in str(r.json.get("content", "")).split("\n")[0]
    ]
