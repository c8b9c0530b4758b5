"""What the service hands back to the Discord layer: who to tell what, and the table to show."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from engine.core import TABLE, Game, Prompt, Result
from store import GameRow, SeatRow
from words import DEFAULT, LANGS


class ServiceError(Exception):
    """A request the table refuses; the message is one sentence for the person who asked, saying what to do.
    It is given as a message (``engine.msg.M``, ids ``table.*``), so the cog shows it in the reader's language;
    ``str()`` is its English."""

    @property
    def msg(self) -> Any:
        """The refusal as given (a ``Msg``, or plain text), for ``words(lang)(...)``."""
        return self.args[0] if self.args else ""


class StaleClick(ServiceError):
    """A click on a board that has moved on."""


class NotTaken(ServiceError):
    """The database failed while the request was being written, and a look at it afterwards found the request
    was not recorded: nothing changed, and it may be made again."""


class MaybeTaken(ServiceError):
    """The database failed while the request was being written, and could not be asked afterwards whether it
    was recorded: the outcome is not known yet (the board shows it once the database answers again)."""


@dataclass(frozen=True)
class User:
    """A person asking the service for something."""

    id: int
    name: str
    admin: bool = False
    #: the server the request came from: admin rights count only for games of that server, and a game of
    #: another server is refused (``None``: a DM, or a caller inside the bot, which names no server)
    guild_id: int | None = None
    #: the request came from a direct message with the bot: it may act only on games where the user holds a
    #: seat, and never do what only the game's own server may (issue 22, ``Core.load_for``)
    dm: bool = False


@dataclass
class Table:
    """A loaded game: its row, seats and (once started) engine state. Read it through ``view``."""

    row: GameRow
    seats: list[SeatRow]
    game: Game
    state: Any | None = None

    @property
    def id(self) -> int:
        """The game id."""
        return self.row.id

    @property
    def version(self) -> int:
        """How many choices have been applied."""
        return self.row.version

    @property
    def private_lang(self) -> str:
        """Whose language private replies are in (its option ``private_lang``, issue 24): ``reader`` (each
        reader's own; a table made before the option) or ``table`` (the table's, for everyone)."""
        return "table" if json.loads(self.row.options).get("private_lang") == "table" else "reader"

    @property
    def lang(self) -> str:
        """The language of the table's public messages and pictures (its option ``lang``; a table made before
        the option existed: English)."""
        lang = json.loads(self.row.options).get("lang", DEFAULT)
        return lang if lang in LANGS else DEFAULT

    def seat_of(self, user_id: int) -> int | None:
        """The seat of a user, or ``None``."""
        return next((s.seat for s in self.seats if s.user_id == user_id), None)

    def user_of(self, seat: int) -> int | None:
        """The user in a seat (``None`` for the table's own timer seat)."""
        if seat == TABLE:
            return None
        return next((s.user_id for s in self.seats if s.seat == seat), None)

    def name_of(self, seat: int) -> str:
        """A seat's display name (a seat the game adds itself, such as Jo, is named by the game)."""
        name = next((s.name for s in self.seats if s.seat == seat), None)
        if name is None and self.state is not None:
            players = (self.game.view(self.state, None) or {}).get("players", [])
            name = next((p.get("name") for p in players if p.get("seat") == seat), None)
        return name or f"seat {seat + 1}"

    def view(self, seat: int | None = None) -> dict[str, Any] | None:
        """The engine's view for a seat (``None``: spectator); ``None`` before the game starts."""
        return None if self.state is None else self.game.view(self.state, seat)

    def prompts(self) -> list[Prompt]:
        """The open prompts (none before the start or after the end, nor in a game its players ended by agreement,
        whose state stays at the position it ended at)."""
        return [] if self.state is None or self.row.status == "ended" else self.game.prompts(self.state)

    def prompts_for(self, seat: int | None) -> list[Prompt]:
        """The prompts of one seat."""
        return [p for p in self.prompts() if seat is not None and p.seat == seat]

    def result(self) -> Result | None:
        """The final result, once over."""
        return None if self.state is None else self.game.result(self.state)


@dataclass
class Notice:
    """The outcome of a request for the one who asked: what happened in public, private lines per user, who
    must act now. What the channel is told is derived from the store, not from this."""

    table: Table
    #: public lines (each a ``Msg`` or plain text)
    public: list[str] = field(default_factory=list)
    #: private lines per user (each a ``Msg`` or plain text: the reader's language is chosen when it is shown)
    private: dict[int, list[str]] = field(default_factory=dict)
    #: the people who must act now and did not before (the channel mentions them)
    ping: list[int] = field(default_factory=list)
    reply: str = ""
    new_turn: bool = False
    finished: bool = False
    #: the kinds of the events that happened (e.g. ``reveal``), so the table can add the right pictures
    kinds: set[str] = field(default_factory=set)

    def tell(self, user_id: int, line: str) -> None:
        """Add a private line for one user."""
        self.private.setdefault(user_id, []).append(line)
