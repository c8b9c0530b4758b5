"""Versioned schema: an ordered list of SQL scripts applied at open.

The schema version is SQLite's ``PRAGMA user_version``: version N means ``MIGRATIONS[:N]`` were
applied. Rules for adding a migration:

* append a new script at the end; never edit or reorder a script that has shipped;
* a script may contain several statements (triggers with ``BEGIN ... END`` are fine);
* all pending scripts and the version bump run in one ``BEGIN IMMEDIATE`` transaction, so a
  failed upgrade leaves the database untouched and two processes opening the same file at once
  cannot both apply a migration;
* ``PRAGMA foreign_keys`` cannot change inside a transaction, so a table rebuild must keep
  foreign keys consistent on its own.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

import aiosqlite

from .errors import MigrationError, SchemaTooNew

_V1_CORE = """
CREATE TABLE games (
    id           INTEGER PRIMARY KEY,
    game         TEXT    NOT NULL,
    guild_id     INTEGER NOT NULL,
    channel_id   INTEGER NOT NULL,
    host_id      INTEGER NOT NULL,
    status       TEXT    NOT NULL DEFAULT 'lobby'
                 CHECK (status IN ('lobby', 'active', 'finished', 'abandoned')),
    options      TEXT    NOT NULL DEFAULT '{}',
    seed         INTEGER NOT NULL,
    version      INTEGER NOT NULL DEFAULT 0 CHECK (version >= 0),
    created_at   REAL    NOT NULL,
    updated_at   REAL    NOT NULL,
    last_move_at REAL,
    result       TEXT
);
CREATE INDEX games_guild_status ON games (guild_id, status);
CREATE INDEX games_status ON games (status);

CREATE TABLE seats (
    game_id           INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat              INTEGER NOT NULL,
    user_id           INTEGER NOT NULL,
    name              TEXT    NOT NULL,
    dm_blocked        INTEGER NOT NULL DEFAULT 0,
    private_thread_id INTEGER,
    PRIMARY KEY (game_id, seat),
    UNIQUE (game_id, user_id)
);
CREATE INDEX seats_user ON seats (user_id);

-- The choice record is append-only: the triggers forbid any UPDATE or DELETE.
CREATE TABLE choices (
    game_id    INTEGER NOT NULL REFERENCES games (id),
    idx        INTEGER NOT NULL CHECK (idx >= 0),
    choice     TEXT    NOT NULL,
    created_at REAL    NOT NULL,
    actor_id   INTEGER,
    PRIMARY KEY (game_id, idx)
);
CREATE TRIGGER choices_no_update BEFORE UPDATE ON choices
BEGIN
    SELECT RAISE(ABORT, 'choices are append-only');
END;
CREATE TRIGGER choices_no_delete BEFORE DELETE ON choices
BEGIN
    SELECT RAISE(ABORT, 'choices are append-only');
END;

CREATE TABLE snapshots (
    game_id INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    version INTEGER NOT NULL,
    state   TEXT    NOT NULL
);
"""

_V2_BOOKKEEPING = """
CREATE TABLE messages (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind       TEXT    NOT NULL,
    "key"      TEXT    NOT NULL DEFAULT '',
    channel_id INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    PRIMARY KEY (game_id, kind, "key")
);
CREATE INDEX messages_message ON messages (message_id);

CREATE TABLE reminders (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL,
    kind    TEXT    NOT NULL,
    due_at  REAL    NOT NULL,
    count   INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, user_id, kind)
);
CREATE INDEX reminders_due ON reminders (due_at);

CREATE TABLE claims (
    game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    version     INTEGER NOT NULL,
    seat        INTEGER NOT NULL,
    choice      TEXT    NOT NULL,
    ts_ms       INTEGER NOT NULL,
    received_at REAL    NOT NULL,
    PRIMARY KEY (game_id, version, seat)
);

CREATE TABLE races (
    game_id  INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    version  INTEGER NOT NULL,
    deadline REAL    NOT NULL
);

CREATE TABLE guild_settings (
    guild_id INTEGER PRIMARY KEY,
    settings TEXT    NOT NULL DEFAULT '{}'
);
"""

_V3_TRUST = """
-- The log: every event of every choice, committed with it (the log is read, never rebuilt by replay).
-- pos: 0 the set-up, i + 1 the choice at index i (a table event such as a substitution: the version then).
CREATE TABLE events (
    id      INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    pos     INTEGER NOT NULL CHECK (pos >= 0),
    kind    TEXT    NOT NULL,
    seats   TEXT,
    text    TEXT    NOT NULL,
    data    TEXT    NOT NULL DEFAULT '{}'
);
CREATE INDEX events_game ON events (game_id, id);

-- What must still be said (private lines), committed with the move; deleted once delivered.
CREATE TABLE outbox (
    -- AUTOINCREMENT: an id is never reused, since it names the message (its nonce) on Discord
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind       TEXT    NOT NULL,
    user_id    INTEGER,
    body       TEXT    NOT NULL,
    created_at REAL    NOT NULL,
    due_at     REAL    NOT NULL,
    attempts   INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX outbox_due ON outbox (due_at);

-- The version an owned message shows and the last event it shows (upto), so a restart posts what is
-- missing and an older board never overwrites a newer one.
ALTER TABLE messages ADD COLUMN version INTEGER NOT NULL DEFAULT -1;
ALTER TABLE messages ADD COLUMN upto INTEGER NOT NULL DEFAULT 0;
ALTER TABLE messages ADD COLUMN data TEXT NOT NULL DEFAULT '{}';

-- The public thread a game is played in (NULL: in its channel).
ALTER TABLE games ADD COLUMN thread_id INTEGER;
CREATE INDEX games_thread ON games (thread_id);

-- A seat the host offered to someone, waiting for their consent.
CREATE TABLE offers (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat       INTEGER NOT NULL,
    from_user  INTEGER NOT NULL,
    to_user    INTEGER NOT NULL,
    to_name    TEXT    NOT NULL,
    by_user    INTEGER NOT NULL,
    expires_at REAL    NOT NULL,
    PRIMARY KEY (game_id, seat)
);
"""

MIGRATIONS: tuple[str, ...] = (
    _V1_CORE,  # 1: games, seats, the append-only choice record, snapshots
    _V2_BOOKKEEPING,  # 2: owned messages, reminders, real-time claims and races, guild settings
    _V3_TRUST,  # 3: the log's events, the outbox, the version each message shows, seat offers
)
"""Ordered migration scripts; ``MIGRATIONS[i]`` upgrades schema version i to i + 1."""

SCHEMA_VERSION: int = len(MIGRATIONS)


def split_statements(script: str) -> list[str]:
    """Split an SQL script into complete statements (semicolons inside triggers/strings are kept)."""
    statements: list[str] = []
    buffer = ""
    for piece in script.split(";"):
        buffer += piece + ";"
        if sqlite3.complete_statement(buffer):
            if buffer.strip(" \t\r\n;"):
                statements.append(buffer.strip())
            buffer = ""
    if buffer.strip(" \t\r\n;"):
        raise MigrationError(f"incomplete SQL statement in migration: {buffer.strip()[:80]!r}")
    return statements


async def user_version(conn: aiosqlite.Connection) -> int:
    """Return the schema version recorded in the database (0 for a new database)."""
    async with conn.execute("PRAGMA user_version") as cursor:
        row = await cursor.fetchone()
    return int(row[0]) if row else 0


async def apply_migrations(conn: aiosqlite.Connection, migrations: Sequence[str] = MIGRATIONS) -> int:
    """Bring the database up to ``len(migrations)`` atomically and return that version.

    ``conn`` must be in autocommit mode (``isolation_level=None``). Raises ``SchemaTooNew`` if the
    database is newer than ``migrations`` and ``MigrationError`` if a script fails.
    """
    target = len(migrations)
    scripts = [split_statements(script) for script in migrations]
    await conn.execute("BEGIN IMMEDIATE")
    try:
        current = await user_version(conn)
        if current > target:
            raise SchemaTooNew(current, target)
        for number in range(current, target):
            await _run_script(conn, number + 1, scripts[number])
        if current != target:
            # PRAGMA takes no bound parameters; target is an int we computed.
            await conn.execute(f"PRAGMA user_version = {int(target)}")
    except BaseException:
        await conn.rollback()
        raise
    await conn.commit()
    return target


async def _run_script(conn: aiosqlite.Connection, number: int, statements: list[str]) -> None:
    """Execute one migration's statements, wrapping SQLite errors in ``MigrationError``."""
    for statement in statements:
        try:
            await conn.execute(statement)
        except sqlite3.Error as exc:
            raise MigrationError(f"migration {number} failed: {exc}") from exc
