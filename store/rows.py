"""Frozen dataclasses returned by the store.

Fields named ``options``, ``result``, ``state``, ``choice`` hold opaque JSON strings: the store never
parses them. Field order matches the SELECT column order used in ``store.sqlite``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

#: The deadline of a race window that is not open yet: a move opens it so, and the window's time starts when the
#: board message that shows it has been posted (``Bookkeeping.arm_race``).
UNARMED = math.inf

#: ``ended``: ended early by the agreement of its players (issue 23), with the standings at that position
GAME_STATUSES: tuple[str, ...] = ("lobby", "active", "finished", "abandoned", "ended")


@dataclass(frozen=True, slots=True)
class GameRow:
    """One hosted game."""

    id: int
    game: str
    guild_id: int
    channel_id: int
    host_id: int
    status: str
    options: str
    seed: int
    version: int
    created_at: float
    updated_at: float
    last_move_at: float | None
    result: str | None
    #: the public thread the game is played in (None: in ``channel_id`` itself)
    thread_id: int | None = None
    #: the game this one is the rematch of (issue 26), if any
    rematch_of: int | None = None

    @property
    def table_channel(self) -> int:
        """Where the game's table is posted: its thread, or its channel."""
        return self.thread_id or self.channel_id


@dataclass(frozen=True, slots=True)
class SeatRow:
    """A player's seat; ``seat`` is 0-based join order."""

    game_id: int
    seat: int
    user_id: int
    name: str
    dm_blocked: bool
    private_thread_id: int | None


@dataclass(frozen=True, slots=True)
class ChoiceRow:
    """One entry of the append-only choice record; ``actor_id`` is None for the bot/timer."""

    game_id: int
    idx: int
    choice: str
    created_at: float
    actor_id: int | None
    #: why the table made it (``"deadline"``: the player's time ran out); None for a choice someone made
    cause: str | None = None


@dataclass(frozen=True, slots=True)
class MessageRow:
    """A Discord message owned by a game (board, lobby, per-seat private message...)."""

    game_id: int
    kind: str
    key: str
    channel_id: int
    message_id: int
    #: the game version the message shows (-1: none recorded)
    version: int = -1
    #: the id of the last event the message shows
    upto: int = 0
    #: what else the message showed, as JSON (e.g. who it asked to act)
    data: str = "{}"


@dataclass(frozen=True, slots=True)
class ReminderRow:
    """A pending reminder; ``count`` is how many were already sent, ``since`` the game's version when the wait
    began (the two name the reminder's message)."""

    game_id: int
    user_id: int
    kind: str
    due_at: float
    count: int
    since: int = 0


@dataclass(frozen=True, slots=True)
class ClaimRow:
    """A seat's claim in a real-time race; the earliest ``ts_ms`` wins."""

    game_id: int
    version: int
    seat: int
    choice: str
    ts_ms: int
    received_at: float


@dataclass(frozen=True, slots=True)
class RaceRow:
    """An open real-time race window for a game at ``version``."""

    game_id: int
    version: int
    deadline: float

    @property
    def armed(self) -> bool:
        """Whether the window's time is running (its board has been posted)."""
        return self.deadline != UNARMED


@dataclass(frozen=True, slots=True)
class EventRow:
    """One log event, stored with its move: ``pos`` 0 is the set-up, ``i + 1`` the choice at index ``i``;
    ``seats`` is None for a public event, else a JSON list of the seats that may see it. ``id`` orders every
    event of every game."""

    id: int
    game_id: int
    pos: int
    kind: str
    seats: str | None
    text: str
    data: str


@dataclass(frozen=True, slots=True)
class OutboxRow:
    """Something that must still be said (e.g. a private line), committed with the move that caused it."""

    id: int
    game_id: int
    kind: str
    user_id: int | None
    body: str
    created_at: float
    due_at: float
    attempts: int


@dataclass(frozen=True, slots=True)
class OfferRow:
    """A seat offered to another player (the host's substitution), waiting for their consent."""

    game_id: int
    seat: int
    from_user: int
    to_user: int
    to_name: str
    by_user: int
    expires_at: float
    #: the invited person pressed "Take the seat"
    to_agreed: bool = False
    #: the seat's player pressed "Give up my seat"
    from_agreed: bool = False
    #: from this time on the seat's player's silence counts as consent (issue 23: offered after their timeouts in
    #: a row); None: they must agree
    silent_from: float | None = None


@dataclass(frozen=True, slots=True)
class RatedGameRow:
    """A game that finished by the rules (issue 26): its ladder, each seat's rating identity and place (1 is first;
    equal places are a tie), and whether it counts for the ratings (``why``: a message's JSON when not)."""

    id: int
    game_id: int
    ladder: str
    guild_id: int
    finished_at: float
    places: str
    counted: bool
    why: str | None


@dataclass(frozen=True, slots=True)
class RatingRow:
    """One identity's rating on a ladder in a scope (a server's guild id; 0: all servers)."""

    ladder: str
    scope: int
    identity: str
    mu: float
    sigma: float
    ordinal: float
    games: int
    wins: int
    last_game: int
