"""The public board message in words, made from a ``PublicTable`` alone (no Discord import, so the privacy
tests can compare it for every position): headline, what just happened, the summary, and who is asked what."""

from __future__ import annotations

from collections.abc import Sequence

from cogs.pictures import PICTURES
from service import PublicTable

MESSAGE_MAX = 2000
LOG_LINES = 5


def clip_message(text: str) -> str:
    """Keep a message within Discord's 2,000 characters."""
    return text if len(text) <= MESSAGE_MAX else text[: MESSAGE_MAX - 1] + "…"


def question_line(pt: PublicTable) -> str:
    """Who is asked what now. A private question shows only what it is about (its kind), never its words."""
    waiting = pt.waiting()
    if not waiting:
        return ""
    prompt = waiting[0]
    name = pt.name_of(prompt.seat)
    if prompt.secret:
        about = PICTURES[pt.game].private_questions.get(prompt.kind, "decides")
        return f"**{name}** {about} · answer in **My options**"
    return f"**{name}:** {prompt.text}"


def board_text(pt: PublicTable, log_lines: Sequence[str], ping: Sequence[int]) -> str:
    """Headline, the log of what just happened, the compact summary and who must act."""
    pics = PICTURES[pt.game]
    view = pt.view
    head = f"**Game #{pt.id} · {pt.title}" + (f" · {pics.headline(view)}**" if view is not None else "**")
    lines = list(log_lines[-LOG_LINES:])
    if len(log_lines) > LOG_LINES:
        lines.insert(0, f"-# …{len(log_lines) - LOG_LINES} earlier lines: /game log")
    summary = pics.summary(view) if view is not None else ""
    parts = [head, "\n".join(lines), summary, question_line(pt) if pt.status == "active" else ""]
    if ping:
        parts.append("Your move: " + " ".join(f"<@{u}>" for u in ping))
    return clip_message("\n\n".join(p for p in parts if p))


def reminder_text(pt: PublicTable, user_id: int, count: int, idle_hours: float, link: str) -> str:
    """The reminder a waited-for player gets in the channel."""
    again = " again" if count else ""
    where = f" {link}" if link else ""
    return (
        f"<@{user_id}>, game #{pt.id} ({pt.title}) is waiting for you{again}.\n-# Idle for {idle_hours:.0f} h.{where}"
    )
