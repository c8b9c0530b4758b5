"""The Omerta game state: plain structs of card ids, serialisable to JSON without loss."""

from __future__ import annotations

from typing import Any

import msgspec

from engine.core import Rng


class Player(msgspec.Struct):
    """One seat. ``slots`` keep their numbers for the whole round; ``None`` is a slot emptied by a snap."""

    name: str
    gangster: int
    slots: list[int | None] = []
    total: int = 0
    round_scores: list[int] = []
    #: turns this seat still skips (La Mamma)
    skips: int = 0
    peeked: bool = False


class Block(msgspec.Struct):
    """A Police Check: the card in ``seat``'s ``slot`` is held until ``by`` has begun ``turns`` more turns."""

    seat: int
    slot: int
    by: int
    turns: int


class Order(msgspec.Struct):
    """A standing snap order (``pace=post``): ``seat`` snaps its ``slot`` when a Bottle ``value`` lands. ``seq``
    orders the orders by when they were set (earliest first)."""

    seat: int
    slot: int
    value: int
    seq: int


class Reveal(msgspec.Struct):
    """The end of a round: everyone's cards face up, their points and the round's scores."""

    round: int
    caller: int | None
    cards: list[list[int]]
    points: list[int]
    scores: list[int]
    caller_made_it: bool


class OmertaState(msgspec.Struct):
    """Everything about one game of Omerta."""

    names: list[str]
    options: dict[str, Any]
    rng: Rng
    players: list[Player]
    rounds: int
    round: int = 1
    #: peek | turn | drawn | taken | snap | power | safe | safe_slot | over
    phase: str = "peek"
    active: int = 0
    start_seat: int = 0
    draw: list[int] = []
    discard: list[int] = []
    safe: list[int] = []
    box: list[int] = []
    held: int | None = None
    blocks: list[Block] = []
    power: str = ""
    safe_pick: int = -1
    snap_value: int = 0
    turn: int = 0
    history: list[Reveal] = []
    #: cards the last choice showed to everyone before they went back or under another card (a snap, the
    #: Chauffeur): the view keeps them until the next choice, so the picture shows what the log says
    shown: list[int] = []
    #: version 2: reshuffles of the discard pile this round (at most ``max_reshuffles``)
    reshuffles: int = 0
    #: version 2: seats whose claim in the open snap window was judged wrong (a seat claims once a window)
    claimed: list[int] = []
    #: ``pace=post``: the standing snap orders, and the number the next one gets
    orders: list[Order] = []
    order_seq: int = 0
    #: version 3: per seat, per slot, the turn in which the slot's card was last replaced this round (0: as dealt;
    #: a swap, a power, a snap); public (the log says each), so the picture can outline a slot whose card changed.
    #: Kept last, and left out of ``dumps`` while empty, so a table of rules 1-2 is written as it always was.
    stamps: list[list[int]] = []


_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(OmertaState)
#: how an empty ``stamps`` ends the JSON (the field is the last one)
_NO_STAMPS = b',"stamps":[]}'


def dumps(state: OmertaState) -> bytes:
    """The state as JSON (without ``stamps`` while it is empty: the bytes of a version 1-2 table's state are
    those it had before the field existed, and its recorded replays must give them)."""
    raw = _encoder.encode(state)
    return raw[: -len(_NO_STAMPS)] + b"}" if raw.endswith(_NO_STAMPS) else raw


def loads(data: bytes | str) -> OmertaState:
    """A state from ``dumps``."""
    return _decoder.decode(data)
