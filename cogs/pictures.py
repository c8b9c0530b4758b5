"""Which picture and words each game's table shows (render functions run off the event loop)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from render import omerta as omerta_render
from render import omerta_text, speakeasy_final_text, speakeasy_text
from render import speakeasy as speakeasy_render


@dataclass(frozen=True)
class GamePictures:
    """A game's renderers: the table picture, extra pictures per event kind, and the words."""

    table: Callable[[dict[str, Any]], bytes]
    on_event: dict[str, tuple[str, Callable[[dict[str, Any]], bytes], Callable[[dict[str, Any]], str]]]
    headline: Callable[[dict[str, Any]], str]
    summary: Callable[[dict[str, Any]], str]
    private_note: Callable[[dict[str, Any]], str]
    #: the standing private screen (e.g. Speakeasy's safe screen) from a seat's own view; None: no screen
    screen: Callable[[dict[str, Any]], str] | None = None
    #: one player's board on demand, from the asker's view (their own board shows their private things)
    player_board: Callable[[dict[str, Any], int], bytes] | None = None
    #: what each kind of private question is about, in public words (the board shows it instead)
    private_questions: dict[str, str] = field(default_factory=dict)
    #: the public pictures as (file name, PNG), given the marks of the last ones posted (None: none known), posted
    #: instead of ``table`` when set
    pictures: Callable[[dict[str, Any], list[str] | None], list[tuple[str, bytes]]] | None = None
    #: the marks of a public view: kept with the posted message, so the next pictures outline what changed since
    marks: Callable[[dict[str, Any]], list[str]] | None = None


PICTURES: dict[str, GamePictures] = {
    "omerta": GamePictures(
        table=omerta_render.render_table,
        on_event={"reveal": ("reveal.png", omerta_render.render_reveal, omerta_text.reveal_summary)},
        headline=omerta_text.headline,
        summary=omerta_text.summary,
        private_note=omerta_text.private_note,
        private_questions=omerta_text.PRIVATE_QUESTIONS,
    ),
    "speakeasy": GamePictures(
        table=speakeasy_render.render_board,
        # the final message (issue 11): standings, ties and money by source, as a picture and in words
        on_event={"final": ("final.png", speakeasy_render.render_final, speakeasy_final_text.final_message)},
        headline=speakeasy_text.headline,
        summary=speakeasy_text.summary,
        private_note=speakeasy_text.private_note,
        screen=speakeasy_text.private_note,
        player_board=speakeasy_render.render_player_board,
        private_questions=speakeasy_text.PRIVATE_QUESTIONS,
        pictures=speakeasy_render.render_pictures,
        marks=speakeasy_render.marks,
    ),
}


async def render(fn: Callable[..., bytes], view: dict[str, Any], *args: Any) -> bytes:
    """Render in a worker thread: PNG encoding would otherwise stall heartbeats and interaction acks."""
    return await asyncio.to_thread(fn, view, *args)
