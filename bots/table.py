"""Bots at a table: who is a bot (its seat's user id), its name, and the loop that plays the bot seats' turns.

A bot seat has no Discord user. Its seat row keeps a negative user id that says its level (``bot_user_id``), so
the store needs nothing new: the service's existing rule (a seat with no positive user gets no DMs, pings or
reminders) already fits. The service calls ``TableBots.run`` off the event loop after a human move that left a
bot seat a question to answer, or a bot wanting to change its standing snap orders (``optional_due``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bots.common import LEVELS, check_level, seat_salt
from bots.omerta import Memory, OmertaBot, remember, remember_all
from bots.speakeasy import Budget, SpeakeasyBot
from engine.core import TABLE, Choice, Event, Game, Option, Prompt
from engine.msg import load

#: The bots' first names, in the order a table takes them (the project's own list).
NAMES = ("Nora", "Vito", "Ada", "Sal", "Iris", "Leo", "Mae")
#: Bot user ids are negative: ``-(SLOTS * k + level + 1)`` for the table's ``k``-th bot.
SLOTS = 10
#: A bound on the bots' steps after one human move (a guard against a loop in the rules).
MAX_BOT_STEPS = 20_000
#: The games that have a seat bot.
BOT_GAMES = ("speakeasy", "omerta")


def bot_user_id(k: int, level: str) -> int:
    """The seat row's user id for the table's ``k``-th bot at ``level``."""
    return -(SLOTS * k + LEVELS.index(check_level(level)) + 1)


def bot_level(user_id: int) -> str | None:
    """The level of a bot seat's user id, ``None`` for a person (or the table's old placeholder, 0)."""
    if user_id >= 0:
        return None
    code = (-user_id - 1) % SLOTS
    return LEVELS[code] if code < len(LEVELS) else None


def bot_name(k: int, level: str) -> str:
    """The seat's name, which shows its level: "Bot Nora (standard)"."""
    return f"Bot {NAMES[k % len(NAMES)]} ({check_level(level)})"


@dataclass
class BotTable:
    """What the bots of one table need: its record so far (the Omerta bots' memory is rebuilt from it, through
    their own seat's eyes) and which seats they play at which level."""

    game: Game
    names: Sequence[str]
    options: Mapping[str, Any]
    seed: int
    levels: Mapping[int, str]
    record: list[Choice] = field(default_factory=list)


class TableBots:
    """Plays every bot seat of a table until a person must decide (the service's ``SeatBot``)."""

    def __init__(self, budget: Budget | None = None) -> None:
        self.budget = budget or Budget()

    def plays(self, game_name: str) -> bool:
        """Whether this game has a seat bot."""
        return game_name in BOT_GAMES

    def run(
        self, table: BotTable, state: Any, stop: Callable[[list[Event]], bool] | None = None
    ) -> list[tuple[Choice, list[Event]]]:
        """Answer the bot seats' prompts (changing ``state``) until a person or the timer must act; returns
        the choices applied with their events. In a race (a snap) a bot that knows a match answers at once;
        the others let it go, and the timer closes it as for anyone. An optional question (Omerta's standing
        snap orders at ``pace=post``) is answered first, whenever a bot's wanted orders differ from its
        standing ones, and never waited for. ``stop``: also stop after a choice whose events it accepts (a bot
        covering one wait of an absent player stops where that wait ends)."""
        game = table.game
        seats = dict(table.levels)
        memories = self._memories(table) if game.name == "omerta" else {}
        out: list[tuple[Choice, list[Event]]] = []
        passed: set[tuple[str, int]] = set()
        for _ in range(MAX_BOT_STEPS):
            if game.is_over(state):
                break
            choices = self._optional(table, state, memories)
            if not choices:
                choice = None
                for prompt in game.prompts(state):
                    if prompt.seat not in seats or prompt.optional or (prompt.race or "", prompt.seat) in passed:
                        continue
                    choice = self._answer(table, state, prompt, memories)
                    if choice is not None:
                        break
                    passed.add((prompt.race or "", prompt.seat))  # only a race may be let go
                if choice is None:
                    break
                choices = self._before(table, state, choice, memories) + [choice]
            for choice in choices:
                before = {s: game.view(state, s) for s in memories}
                events = game.apply(state, choice)
                for s, memory in memories.items():
                    memory.observe(before[s], choice, game.view(state, s), events)
                out.append((choice, events))
                if stop is not None and stop(events):
                    return out
        return out

    def optional_due(self, table: BotTable, state: Any) -> bool:
        """Whether a bot seat would answer an optional question now (an Omerta bot whose standing orders are
        not the ones its memory wants). Nothing is changed; the service asks this after a person's move, so
        that a bot gets a move of its own only when it has something to do."""
        if table.game.name != "omerta":
            return False
        return bool(self._optional(table, state, self._memories(table)))

    def _optional(self, table: BotTable, state: Any, memories: dict[int, Memory]) -> list[Choice]:
        """The first bot seat's answer to its optional question (``[]``: no bot wants to change anything)."""
        if not memories:  # only the Omerta bots answer optional questions
            return []
        for prompt in table.game.prompts(state):
            if prompt.optional and prompt.seat in table.levels and prompt.seat in memories:
                choice = self._answer(table, state, prompt, memories)
                if choice is not None:
                    return [choice]
        return []

    def _before(self, table: BotTable, state: Any, choice: Choice, memories: dict[int, Memory]) -> list[Choice]:
        """What a bot does just before its ``choice`` (an Omerta bot puts a slot's standing order right before
        swapping a card into it)."""
        if table.game.name != "omerta":
            return []
        bot = OmertaBot(table.levels[choice.seat], seat_salt(table.seed, choice.seat))
        return bot.orders_before(table.game, state, choice, memories[choice.seat])

    def _answer(self, table: BotTable, state: Any, prompt: Prompt, memories: dict[int, Memory]) -> Choice | None:
        level = table.levels[prompt.seat]
        salt = seat_salt(table.seed, prompt.seat)
        if table.game.name == "speakeasy":
            return SpeakeasyBot(level, salt, self.budget).choose(state, prompt)
        choice = OmertaBot(level, salt).choose(table.game, state, prompt, memories[prompt.seat])
        if choice is None and prompt.race is None and not prompt.optional:  # never leave a turn unanswered
            return Choice(prompt.seat, prompt.kind, prompt.default_option())
        return choice

    def _memories(self, table: BotTable) -> dict[int, Memory]:
        return remember_all(table.game, table.names, dict(table.options), table.seed, table.record, table.levels)

    def hint(self, table: BotTable, state: Any, prompt: Prompt) -> Hint:
        """What the ``standard`` bot would choose in the place of the player asked ``prompt`` (from what their
        seat has seen only), with the value it expects."""
        if prompt.seat == TABLE:
            raise ValueError("The table's timer takes no hints.")
        salt = seat_salt(table.seed, prompt.seat)
        if table.game.name == "speakeasy":
            decision = SpeakeasyBot("standard", salt).decide(state, prompt)
            return Hint(_label(prompt.option(decision.choice.option)), decision.expected, "margin")
        memory = remember(table.game, table.names, dict(table.options), table.seed, table.record, prompt.seat)
        bot = OmertaBot("standard", salt)
        choice = bot.choose(table.game, state, prompt, memory)
        points = bot.estimate(table.game.view(state, prompt.seat), prompt.seat, memory)
        option = prompt.option(choice.option) if choice is not None else None
        return Hint(_label(option), points, "points")


def _label(option: Option | None) -> str:
    """An option's label as its message when it has one (so /hint names it in the reader's language)."""
    if option is None:
        return ""
    kept = option.words.get("label") if option.words else None
    return load(kept) if kept is not None else option.label


@dataclass(frozen=True)
class Hint:
    """The standard bot's advice: the option's label ("": let the race go) and the value it expects, as a
    margin in dollars over the best rival (Speakeasy) or its estimate of the player's points (Omerta)."""

    label: str
    value: float
    unit: str
