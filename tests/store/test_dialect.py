"""What the PostgreSQL backend translates, without a server: placeholders, targets, passwords in messages."""

from __future__ import annotations

import pytest

from store.postgres import _returns_rows, _rowcount, describe, is_postgres, split_target, to_dollars


def test_placeholders_are_numbered_outside_quotes() -> None:
    sql = "SELECT 1 FROM t WHERE a = ? AND b = '?' AND \"c?\" = ? AND d IN (?, ?)"
    assert to_dollars(sql) == "SELECT 1 FROM t WHERE a = $1 AND b = '?' AND \"c?\" = $2 AND d IN ($3, $4)"
    assert to_dollars("UPDATE t SET a = ''?'' WHERE b = ?") == "UPDATE t SET a = ''$1'' WHERE b = $2"


def test_which_statements_return_rows_and_how_many_changed() -> None:
    assert _returns_rows("  select 1") and _returns_rows("INSERT INTO g (a) VALUES (?) RETURNING id")
    assert not _returns_rows("UPDATE games SET version = ? WHERE id = ?")
    assert [_rowcount(t) for t in ("UPDATE 1", "INSERT 0 3", "DELETE 0", "BEGIN")] == [1, 3, 0, 0]


def test_a_target_names_its_schema_and_keeps_the_rest_of_its_query() -> None:
    assert is_postgres("postgresql://u@h/db") and is_postgres("postgres://u@h/db")
    assert not is_postgres("speakeasy.sqlite3") and not is_postgres(":memory:")
    dsn, schema = split_target("postgresql://u@h:5/db?sslmode=disable&schema=bot_1")
    assert (dsn, schema) == ("postgresql://u@h:5/db?sslmode=disable", "bot_1")
    assert split_target("postgresql://u@h/db") == ("postgresql://u@h/db", None)
    with pytest.raises(ValueError, match="schema must be a plain SQL name"):
        split_target('postgresql://u@h/db?schema=x"; DROP TABLE games; --')


def test_messages_never_show_the_password() -> None:
    assert (
        describe("postgresql://bot:s3cret@db.example.org:5432/games")
        == "postgresql://bot:***@db.example.org:5432/games"
    )
    assert describe("postgresql://bot@h/db") == "postgresql://bot@h/db"
    assert describe("speakeasy.sqlite3") == "speakeasy.sqlite3"
