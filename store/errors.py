"""Exceptions raised by the persistence layer."""

from __future__ import annotations


class StoreError(Exception):
    """Base class of every error the store raises on purpose."""


class StoreClosed(StoreError):
    """The store was used after ``close()``."""


class StoreBusy(StoreError):
    """Another connection held the write lock for longer than the busy timeout."""


class MigrationError(StoreError):
    """A migration script is malformed or failed to apply."""


class SchemaTooNew(StoreError):
    """The database was written by newer code than this one; refusing to open it."""

    def __init__(self, found: int, supported: int) -> None:
        super().__init__(
            f"database schema version {found} is newer than this code supports ({supported}); "
            "run a newer version of the bot or use another database file"
        )
        self.found = found
        self.supported = supported


class GameNotFound(StoreError):
    """No game has the given id."""

    def __init__(self, game_id: int) -> None:
        super().__init__(f"no game with id {game_id}")
        self.game_id = game_id


class InvalidStatus(StoreError, ValueError):
    """A status outside ``GAME_STATUSES`` was given."""

    def __init__(self, status: str) -> None:
        super().__init__(f"invalid game status {status!r}")
        self.status = status


class NotInLobby(StoreError):
    """The operation is only allowed while the game is in the lobby."""

    def __init__(self, game_id: int) -> None:
        super().__init__(f"game {game_id} is not in the lobby")
        self.game_id = game_id


class AlreadySeated(StoreError):
    """The user already holds a seat in this game."""

    def __init__(self, game_id: int, user_id: int) -> None:
        super().__init__(f"user {user_id} is already seated in game {game_id}")
        self.game_id = game_id
        self.user_id = user_id


class SeatNotFound(StoreError):
    """No such seat (or no seat held by that user) in the game."""

    def __init__(self, game_id: int, who: str) -> None:
        super().__init__(f"game {game_id} has no seat for {who}")
        self.game_id = game_id


class TooManyOpen(StoreError):
    """A new lobby was refused: its channel already has ``max_in_channel`` open games (``what == "channel"``) or
    its host already hosts ``max_hosted`` lobbies in the server (``what == "host"``); ``game_ids`` are those games,
    oldest first. Nothing was written."""

    def __init__(self, what: str, game_ids: list[int]) -> None:
        super().__init__(f"too many open games ({what}): {game_ids}")
        self.what = what
        self.game_ids = game_ids


class Conflict(StoreError):
    """A write broke a uniqueness or integrity rule of the schema (the database refused it; nothing changed)."""


class BadValue(StoreError, ValueError):
    """A value the database cannot hold (e.g. a number outside its column's range): the statement was refused
    and nothing of its transaction was written. The caller's mistake, not the database failing."""


class StoreUnavailable(StoreError):
    """The connection to the database server was lost (or the server refused work); the store reconnects on
    the next call. A write that raises this (and not ``OutcomeUnknown``) failed before its commit: it changed
    nothing."""


class OutcomeUnknown(StoreUnavailable):
    """The database failed while a write was being committed (e.g. the connection broke before the COMMIT's
    answer came): it may or may not have been committed. ``Store.settle`` waits until it has ended either way;
    then what the database holds tells (e.g. the game's version and the choices at those indexes)."""
