"""The game's log: read from the events stored with each move (never rebuilt by replaying the game), in pages,
and written once for games recorded before events were kept."""

from __future__ import annotations

import asyncio
import json

from engine.core import Choice, load_choice, replay
from engine.msg import M
from service.core import Core, status_word
from service.notice import ServiceError, Table
from service.records import UNDO_KIND, effective_choices, event_row, table_row
from words import words

#: A page of ``/game log`` holds as many lines as fit ``LOG_CHARS`` characters, at most ``LOG_PAGE`` lines, each
#: at most ``LOG_LINE`` characters: one message with its heading (issue 24: pages of 12 lines made 24 pages of a
#: solo game, the latest with 3 lines). Pages are filled from the latest line back, so the page shown first is
#: full and the oldest holds what is left.
LOG_PAGE = 40
LOG_LINE = 150
LOG_CHARS = 1700


def pack_pages(lines: list[str], size: int = LOG_PAGE, chars: int = LOG_CHARS) -> list[list[str]]:
    """The log's lines in pages, oldest first, each at most ``size`` lines and ``chars`` characters, filled from
    the latest line back (at least one page, empty for no lines)."""
    pages: list[list[str]] = []
    page: list[str] = []
    used = 0
    for line in reversed(lines):
        if page and (len(page) >= size or used + len(line) + 1 > chars):
            pages.append(page[::-1])
            page, used = [], 0
        page.append(line)
        used += len(line) + 1
    pages.append(page[::-1])
    return pages[::-1]


class Log(Core):
    """The public log."""

    async def public_log(self, table: Table) -> list[str]:
        """Every public log line of a game, in order (an undo is logged where it happened; the steps it took
        back stay in the log)."""
        if table.row.status == "lobby":
            return []
        return [e.text for e in await self.store.get_events(table.id, public_only=True)]

    async def log_page(
        self, table: Table, page: int | None = None, size: int = LOG_PAGE, lang: str | None = None
    ) -> tuple[list[str], int, int]:
        """One page of the public log in ``lang`` (``None``: English): ``(lines, page, pages)``, pages counted
        from 0; ``None`` is the last page (the latest moves)."""
        w = words(lang)
        rows = [] if table.row.status == "lobby" else await self.store.get_events(table.id, public_only=True)
        texts = [w.stored(json.loads(e.data or "{}"), e.text) for e in rows]
        chunks = pack_pages([t if len(t) <= LOG_LINE else t[: LOG_LINE - 1] + "…" for t in texts], size)
        pages = len(chunks)
        page = pages - 1 if page is None else max(0, min(page, pages - 1))
        return chunks[page], page, pages

    async def export(self, table: Table) -> dict[str, object]:
        """The game's record as a file people can keep and replay (``python -m engine.replay``): only once the
        game is over (finished, abandoned or ended by agreement), since its seed and choices reveal every hidden
        card."""
        if table.row.status not in ("finished", "abandoned", "ended"):
            raise ServiceError(
                M(
                    "table.err.export",
                    "Game #{game} is {status}: a record can be exported once the game is over (its seed and choices "
                    "reveal every hidden card).",
                    game=table.id,
                    status=status_word(table.row.status),
                )
            )
        raw = await self.store.get_choices(table.id)
        causes = {str(r.idx): r.cause for r in await self.store.get_choice_rows(table.id) if r.cause is not None}
        return {
            "format": 1,
            "game": table.game.name,
            "id": table.id,
            "status": table.row.status,
            "seed": table.row.seed,
            "options": json.loads(table.row.options),
            "seats": [s.name for s in table.seats],
            "choices": [{"seat": c.seat, "kind": c.kind, "option": c.option} for c in effective_choices(raw)],
            "record": [json.loads(r) for r in raw],  # with the undo records, as it was played
            # why the table made a record entry (issue 23: "deadline"), by its index; the others were made by someone
            "causes": causes,
            "result": json.loads(table.row.result) if table.row.result else None,
        }

    async def backfill_events(self) -> int:
        """Store the log of every started game recorded before events were kept (a replay per game, off the
        event loop); returns how many games were filled in."""
        done = 0
        for game_id in await self.store.games_without_events():
            table = await self.load(game_id)
            raw = await self.store.get_choices(game_id)
            rows = await asyncio.to_thread(self._events_of_record, table, raw)
            await self.store.put_events(game_id, rows)
            done += 1
        return done

    def _events_of_record(self, table: Table, raw: list[str]) -> list[tuple[int, str, str | None, str, str]]:
        """Every event of a game, rebuilt once from its record (each undo replays once, here only)."""
        names = [s.name for s in table.seats]
        options = json.loads(table.row.options)
        state, events = table.game.start(names, options, table.row.seed)
        rows = [event_row(0, e) for e in events]
        done: list[Choice] = []
        for i, item in enumerate(raw):
            choice = load_choice(item)
            if choice.kind == UNDO_KIND:
                if done:
                    done.pop()
                    state = replay(table.game, names, options, table.row.seed, done)
                line = M("table.log.undo", "↩ {name} takes back a step.", name=table.name_of(choice.seat))
                rows.append(table_row(i + 1, line, "undo"))
                continue
            done.append(choice)
            rows += [event_row(i + 1, e) for e in table.game.apply(state, choice)]
        assert [c for c in done] == effective_choices(raw)
        return rows
