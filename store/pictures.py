"""What the table drew, and a cache of a replay's pictures (issue 26).

``pictures_drawn`` remembers, for each board picture the table posted, the version of the view it drew and the
version of the picture its outline compared with, so a replay draws a step's picture exactly as the table posted
it. ``replay_pictures`` keeps the pictures of the replay steps used most recently, within a bound: derived from
the record and dropped freely (it is not copied by ``store.copy``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from .base import Base


def pack(pngs: Sequence[tuple[str, bytes]]) -> tuple[str, bytes]:
    """A step's pictures as one row: their names and lengths (JSON), and their bytes one after the other."""
    return json.dumps([[name, len(png)] for name, png in pngs]), b"".join(png for _, png in pngs)


def unpack(names: str, blob: bytes) -> list[tuple[str, bytes]]:
    """The pictures ``pack`` made."""
    out: list[tuple[str, bytes]] = []
    at = 0
    for name, size in json.loads(names):
        out.append((name, bytes(blob[at : at + size])))
        at += size
    return out


class Pictures(Base):
    """The table's drawings and the replay's picture cache."""

    async def picture_drawn(self, game_id: int, version: int, base: int | None) -> None:
        """The table posted a board picture of the view at ``version``, outlined against the picture of the view
        at ``base`` (None: nothing outlined). The first drawing of a version is the one kept."""
        sql = "INSERT INTO pictures_drawn (game_id, version, base) VALUES (?, ?, ?) ON CONFLICT DO NOTHING"
        await self._execute(sql, (game_id, version, base))

    async def drawn_bases(self, game_id: int) -> dict[int, int | None]:
        """Each version the table drew a board picture of, with the version its outline compared with."""
        rows = await self._fetchall("SELECT version, base FROM pictures_drawn WHERE game_id = ?", (game_id,))
        return {int(v): (None if b is None else int(b)) for v, b in rows}

    async def replay_pictures(self, game_id: int, step: int, lang: str, now: float) -> list[tuple[str, bytes]] | None:
        """A replay step's cached pictures (marked used at ``now``), or None."""
        sql = "SELECT names, pngs FROM replay_pictures WHERE game_id = ? AND step = ? AND lang = ?"
        row = await self._fetchone(sql, (game_id, step, lang))
        if row is None:
            return None
        sql = "UPDATE replay_pictures SET used = ? WHERE game_id = ? AND step = ? AND lang = ?"
        await self._execute(sql, (now, game_id, step, lang))
        return unpack(str(row[0]), bytes(row[1]))

    async def keep_replay_pictures(
        self, game_id: int, step: int, lang: str, pngs: Sequence[tuple[str, bytes]], now: float, bound: int
    ) -> None:
        """Cache a replay step's pictures; only the ``bound`` steps used most recently stay."""
        names, blob = pack(pngs)
        async with self._write() as conn:
            await conn.execute(
                "INSERT INTO replay_pictures (game_id, step, lang, names, pngs, used) VALUES (?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (game_id, step, lang) DO UPDATE SET names = excluded.names, pngs = excluded.pngs,"
                " used = excluded.used",
                (game_id, step, lang, names, blob, now),
            )
            await conn.execute(
                "DELETE FROM replay_pictures WHERE used < (SELECT MIN(used) FROM"
                " (SELECT used FROM replay_pictures ORDER BY used DESC LIMIT ?) AS newest)",
                (bound,),
            )
