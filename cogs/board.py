"""The public messages in words, made from a ``PublicTable`` and the stored events alone (no Discord import, so
the privacy and limit tests can build them for every position).

One builder with priorities: the headline, the question and the mention are never cut; "since your last turn"
is shortened first, then the oldest steps of this message, each time with a pointer to ``/game log``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from bots.table import Hint
from cogs.pictures import PICTURES
from engine.core import Option
from engine.msg import Join, M, Msg, P
from service import PublicTable
from service.plans import Plan
from words import Words, words

MESSAGE_MAX = 2000
#: Discord's limit for a picture's description (its alt text, which screen readers read).
ALT_MAX = 1024


def clip_message(text: str) -> str:
    """Keep a message within Discord's 2,000 characters."""
    return text if len(text) <= MESSAGE_MAX else text[: MESSAGE_MAX - 1] + "…"


def message_link(guild_id: int, channel_id: int, message_id: int | None = None) -> str:
    """A link to a message of a server (the board, for a reminder or a status asked in a DM); without a message,
    to the channel."""
    channel = f"https://discord.com/channels/{guild_id}/{channel_id}"
    return channel if message_id is None else f"{channel}/{message_id}"


def question_line(pt: PublicTable) -> str:
    """Who is asked what now. A private question shows only what it is about (its kind), never its words. An
    open race window (a snap) shows when it closes, as a Discord relative timestamp (nobody is pinged for it)."""
    w = words(pt.lang)
    waiting = pt.waiting()
    if not waiting:
        if pt.race_closes is not None and any(p.race for p in pt.prompts):
            return w(
                M(
                    "table.board.snap",
                    "**Snap window** open: claim on the buttons below · closes <t:{at}:R>",
                    at=math.ceil(pt.race_closes),
                )
            )
        return ""
    prompt = waiting[0]
    name = pt.name_of(prompt.seat)
    if prompt.secret:
        about = PICTURES[pt.game].private_questions.get(prompt.kind) or M("table.board.decides", "decides")
        line = w(M("table.board.private", "**{name}** {about} · answer in **My options**", name=name, about=about))
        return line + time_left(pt, w)
    head = w(M("table.board.question", "**{name}:** {text}", name=name, text=w.field(prompt, "text")))
    return "\n".join([head, *legend(prompt.options, w)]) + time_left(pt, w, line=True)


def time_left(pt: PublicTable, w: Words, *, line: bool = False) -> str:
    """When the waited-for players' time runs out (issue 23), as Discord relative times: `` · time runs out
    <t:…:R>`` (the earliest, when several are waited for), or a line of its own under a question's legend."""
    times = [at for p in pt.waiting() if (at := pt.deadline_of(p.seat)) is not None]
    if not times:
        return ""
    text = w(M("table.board.deadline", "time runs out <t:{at}:R>", at=math.ceil(min(times))))
    return f"\n-# {text}" if line else f" · {text}"


#: A legend line's length (a button cannot show its option's description, so the line under them does).
LEGEND_LINE = 120


def legend(options: Sequence[Option], w: Words | None = None) -> list[str]:
    """What each button does, in small print under the question, for options shown as buttons (a select menu
    shows each option's description itself), in the words of ``w`` (default English)."""
    if not buttons_for(options):
        return []
    w = w or words()
    out = []
    for o in options:
        if o.detail:
            line = f"-# {w.field(o, 'label')}: {w.field(o, 'detail')}"
            out.append(line if len(line) <= LEGEND_LINE else line[: LEGEND_LINE - 1] + "…")
    return out


def buttons_for(options: Sequence[Option]) -> bool:
    """Whether a question's options show as buttons: a few (one row of five), or many without descriptions
    (up to 20); otherwise as select menus, which show each description."""
    if len(options) <= 5:
        return True
    return len(options) <= 20 and not any(o.detail for o in options)


def headline(pt: PublicTable) -> str:
    """``**Game #3 · Speakeasy · 1924 · Act 1, round 4 · Anna's turn**``."""
    pics = PICTURES[pt.game]
    w = words(pt.lang)
    if pt.view is None:
        return w(M("table.board.head", "**Game #{game} · {title}**", game=pt.id, title=pt.title))
    if pt.status == "ended":  # the view still tells the position's turn: nobody is waited for any more
        return w(
            M("table.board.head_ended", "**Game #{game} · {title} · ended by agreement**", game=pt.id, title=pt.title)
        )
    return w(
        M(
            "table.board.headline",
            "**Game #{game} · {title} · {head}**",
            game=pt.id,
            title=pt.title,
            head=pics.headline(pt.view),
        )
    )


def thread_name(title: str, game_id: int, names: Sequence[str], lang: str | None = None) -> str:
    """A game's thread, named for the game and its players (Discord allows 100 characters)."""
    name = words(lang)(M("table.thread.name", "{title} #{game} · ", title=title, game=game_id)) + ", ".join(names)
    return name if len(name) <= 100 else name[:99] + "…"


@dataclass
class Section:
    """Lines that may be shortened, oldest first, with a title line kept while any line is left."""

    title: str
    lines: list[str]


def _pointer(gone: int, lang: str | None = None) -> str:
    return words(lang)(
        P("table.board.pointer", "-# …{n} earlier line: /game log", "-# …{n} earlier lines: /game log", gone)
    )


def compose(
    head: Sequence[str],
    sections: Sequence[Section],
    tail: Sequence[str],
    limit: int = MESSAGE_MAX,
    lang: str | None = None,
) -> tuple[str, int]:
    """``head`` and ``tail`` whole; the sections (the first is shortened first) fit in between: their oldest
    lines give way to a pointer to /game log (in ``lang``). Returns the text and how many section lines were
    left out."""
    fixed = [p for p in [*head, *tail] if p]
    if len("\n\n".join(fixed)) > limit:
        raise ValueError("the headline, question and mention alone do not fit in a message")
    kept = [list(s.lines) for s in sections]
    dropped = [0] * len(sections)

    def block(i: int) -> str | None:
        if not kept[i] and not dropped[i]:
            return None
        lines = [sections[i].title] if sections[i].title else []
        lines += [_pointer(dropped[i], lang)] if dropped[i] else []
        return "\n".join(lines + kept[i])

    def size() -> int:
        parts = [*fixed, *(b for i in range(len(sections)) if (b := block(i)) is not None)]
        return sum(len(p) for p in parts) + 2 * (len(parts) - 1)

    total = size()
    for i in range(len(sections)):
        while total > limit and kept[i]:
            # drop whole lines cheaply, then settle the pointer's own length exactly
            over = total - limit
            while kept[i] and over > 0:
                over -= len(kept[i].pop(0)) + 1
                dropped[i] += 1
            total = size()
    parts = [p for p in head if p]
    parts += [b for i in range(len(sections)) if (b := block(i)) is not None]
    parts += [p for p in tail if p]
    text = "\n\n".join(parts)
    if len(text) > limit:  # even the pointers do not fit: keep only the fixed parts
        text = "\n\n".join(fixed)
    return text, sum(dropped)


def away_line(pt: PublicTable) -> str:
    """Who is away until when (issue 23, ``/away``: public, as its player chose), in small print: ``-# Away: Anna
    until <t:…:f>``; empty when nobody is."""
    if not pt.away or pt.status != "active":
        return ""
    w = words(pt.lang)
    who = [
        M("table.board.away_one", "{name} until <t:{at}:f>", name=pt.name_of(s), at=math.ceil(at)) for s, at in pt.away
    ]
    return "-# " + w(M("table.board.away", "Away: {who}", who=Join(who)))


def mention_line(ping: Sequence[int], lang: str | None = None) -> str:
    """``Your move: <@1> <@2>`` (only a newly posted message pings)."""
    if not ping:
        return ""
    return words(lang)(M("table.board.your_move", "Your move: {who}", who=" ".join(f"<@{u}>" for u in ping)))


def ended_line(ping: Sequence[int], lang: str | None = None) -> str:
    """``Game over by agreement: <@1> <@2>``: the players told of the end of a game they ended by agreement."""
    if not ping:
        return ""
    who = " ".join(f"<@{u}>" for u in ping)
    return words(lang)(M("table.board.ended_ping", "Game over by agreement: {who}", who=who))


def chunks(lines: Sequence[str], title: str, limit: int = MESSAGE_MAX) -> list[str]:
    """Lines as few messages as they fit in (a long Lucky Luciano phase is posted whole, never cut)."""
    out: list[str] = []
    current = title
    for line in lines:
        line = line if len(line) <= limit - len(title) - 2 else line[: limit - len(title) - 3] + "…"
        if len(current) + 1 + len(line) > limit:
            out.append(current)
            current = title
        current += "\n" + line
    if current != title:
        out.append(current)
    return out


def alt_text(pt: PublicTable) -> str:
    """The board in words, as the picture's description (what a screen reader reads)."""
    if pt.view is None:
        return ""
    text = PICTURES[pt.game].summary(pt.view)
    return text if len(text) <= ALT_MAX else text[: ALT_MAX - 1] + "…"


def picture_description(pt: PublicTable, index: int) -> str:
    """The description of the board message's picture ``index``: the board in words on the first; the others
    say they are described there (a screen reader would otherwise read the whole board once per picture)."""
    if index == 0:
        return alt_text(pt)
    return words(pt.lang)(
        M(
            "table.board.other_picture",
            "Another part of the board: the first picture's description tells the whole board in words",
        )
    )


def status_text(pt: PublicTable) -> str:
    """The whole board in words (``/game status``): headline, summary and the question."""
    summary = PICTURES[pt.game].summary(pt.view) if pt.view is not None else ""
    tail = [question_line(pt), away_line(pt)]
    text, _ = compose([headline(pt)], [Section("", summary.splitlines())], tail, lang=pt.lang)
    return text


SINCE = M("table.board.since", "-# Since your last turn:")


def turn_message(
    pt: PublicTable, since: Sequence[str], lines: Sequence[str], ping: Sequence[int]
) -> tuple[str, int, int]:
    """The message of the turn (or question) now: headline; what happened since the player's last turn (cut
    first); the steps so far (cut next, oldest first); the question and the mention, never cut. Returns the
    text and how many lines of "since" and of the steps were left out."""
    mention = mention_line(ping, pt.lang) if pt.status != "ended" else ended_line(ping, pt.lang)
    tail = [question_line(pt) if pt.status == "active" else "", away_line(pt), mention]
    sections = [Section(words(pt.lang)(SINCE), list(since)), Section("", list(lines))]
    text, _ = compose([headline(pt)], sections, tail, lang=pt.lang)
    shown_since = sum(1 for line in since if line in text)
    shown_steps = sum(1 for line in lines if line in text)
    return text, len(since) - shown_since, len(lines) - shown_steps


def board_text(pt: PublicTable, log_lines: Sequence[str], ping: Sequence[int]) -> str:
    """A board message: headline, the lines of what just happened, the question and who must act."""
    tail = [question_line(pt) if pt.status == "active" else "", away_line(pt), mention_line(ping, pt.lang)]
    text, _ = compose([headline(pt)], [Section("", list(log_lines))], tail, lang=pt.lang)
    return text


def reminder_text(pt: PublicTable, user_id: int, count: int, idle_hours: float, link: str) -> str:
    """The reminder a waited-for player gets in the channel."""
    w = words(pt.lang)
    args = {"user": user_id, "game": pt.id, "title": pt.title}
    if count:
        first = w(M("table.remind.again", "<@{user}>, game #{game} ({title}) is waiting for you again.", **args))
    else:
        first = w(M("table.remind.first", "<@{user}>, game #{game} ({title}) is waiting for you.", **args))
    at = pt.deadline_of(seat) if (seat := pt.seat_of(user_id)) is not None else None
    if at is not None:  # issue 23: the table's deadline, not how long it has waited
        idle = w(M("table.remind.deadline", "-# Your time runs out <t:{at}:R>.", at=math.ceil(at)))
    else:
        hours = f"{idle_hours:.0f}"
        idle = w(M("table.remind.idle", "-# Idle for {hours} h.", hours=hours))
    return f"{first}\n{idle}" + (f" {link}" if link else "")


def reminder_dm(pt: PublicTable, user_id: int, count: int, link: str) -> Msg:
    """The reminder by DM (issue 23, ``/me`` told by dm or both): the game waits for the reader; their deadline."""
    at = pt.deadline_of(seat) if (seat := pt.seat_of(user_id)) is not None else None
    if count:
        first = M("table.remind.dm_again", "The game is waiting for you again: {link}", link=link)
    else:
        first = M("table.remind.dm", "The game is waiting for you: {link}", link=link)
    if at is None:
        return first
    return M("table.remind.dm_deadline", "{first} Your time runs out <t:{at}:R>.", first=first, at=math.ceil(at))


def plan_menu(plans: Sequence[Plan], lang: str | None = None) -> tuple[str, list[Option], str] | None:
    """The menu that decides a group of questions at once (a Mob War district: every building of the owner),
    each plan as one entry: which buildings it saves, how, and how many it loses (in ``lang``)."""
    if not plans:
        return None
    w = words(lang)
    options = []
    # a plan may answer fewer questions than the longest: what it leaves cannot be saved and is settled at once
    total = max(len(p.answers) for p in plans)
    for plan in plans:
        saved = [a for a in plan.answers if a.style != "danger"]
        lost = total - len(saved)
        if saved:
            # the answer's detail names its building first ("Speakeasy, Chelsea"), its label ends with how
            things = [M("table.plan.the", "the {thing}", thing=w.field(a, "detail").split(",")[0]) for a in saved]
            label = w(M("table.plan.save", "Save {things}", things=Join(things)))
        else:
            label = w(M("table.plan.nothing", "Defend nothing: lose all {n}", n=total))
        labels = [w.field(a, "label") for a in saved]
        hows = [lb.split(": ", 1)[1] for lb in labels if ": " in lb]
        loses = [w(M("table.plan.lose", "lose {lost} of {n}", lost=lost, n=total))] if lost and saved else []
        detail = "; ".join(hows + loses)
        options.append(Option(plan.id, label, detail, "danger" if lost else "primary", plan.cost))
    return plans[0].choices[0].kind, options, w(M("table.plan.all", "Decide all {n} at once…", n=total))


def hint_text(hint: Hint, lang: str | None = None, *, board_lang: str | None = None) -> str:
    """``/hint``'s one line in ``lang``: the standard bot's choice and the value it expects. The choice is quoted
    as the board's button says it (``board_lang``, the table's language) and, when the reader reads another
    language, in theirs too (issue 24: a hint named buttons that were not on the board)."""
    w = words(lang)
    label = w(hint.label)
    if hint.label and board_lang is not None and words(board_lang).lang != w.lang:
        on_board = words(board_lang)(hint.label)
        if on_board != label:
            label = w(M("table.hint.label_both", "{board} ({yours})", board=on_board, yours=label))
    if hint.unit == "margin":
        sign = "+" if hint.value >= 0 else "-"
        amount = f"{abs(hint.value):.0f}"
        return w(
            M(
                "table.hint.margin",
                "Hint: **{label}**. After it and the rest of your turn, the standard bot reckons your position at "
                "{sign}${amount} against the best rival's.",
                label=label,
                sign=sign,
                amount=amount,
            )
        )
    points = f"{hint.value:.1f}" if w.lang == "en" else f"{hint.value:.1f}".replace(".", ",")
    if not hint.label:
        return w(
            M(
                "table.hint.let_go",
                "Hint: let it go: you know no matching Bottle. Your cards are worth about {points} points.",
                points=points,
            )
        )
    return w(
        M(
            "table.hint.points",
            "Hint: **{label}**. By what you have seen, your cards are worth about {points} points.",
            label=label,
            points=points,
        )
    )
