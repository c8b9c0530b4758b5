"""The Omerta seat bot: it decides from its seat's view and memory only, snaps only what it knows, and plays
whole games (decisions, rule 002 snaps)."""

from __future__ import annotations

import random

import pytest

from bots.omerta import Memory, OmertaBot, remember
from engine.core import TABLE, Choice
from engine.omerta.game import OmertaGame

GAME = OmertaGame()


def play(levels: list[str | None], seed: int, check=None):
    """A complete game: bots at ``levels`` (``None``: a random player who snaps at random now and then).
    ``check(state, prompt, bot, memory)`` is called before each bot decision. Returns (state, record, snaps)."""
    bots = {i: OmertaBot(lv, salt=seed + i) for i, lv in enumerate(levels) if lv}
    state, _ = GAME.start([f"P{i}" for i in range(len(levels))], {}, seed)
    memories = {i: Memory(i) for i in bots}
    views = {i: GAME.view(state, i) for i in bots}
    rng = random.Random(seed)
    record: list[Choice] = []
    snaps: list[tuple[int, str]] = []
    while not GAME.is_over(state):
        prompts = GAME.prompts(state)
        choice = None
        for p in prompts:
            if p.seat == TABLE:
                continue
            if p.seat in bots:
                if check is not None:
                    check(state, p, bots[p.seat], memories[p.seat])
                choice = bots[p.seat].choose(GAME, state, p, memories[p.seat])
            elif p.race is None or rng.random() < 0.2:
                choice = Choice(p.seat, p.kind, rng.choice(p.options).id)
            if choice is not None:
                break
        if choice is None:
            timer = next(p for p in prompts if p.seat == TABLE)
            choice = Choice(TABLE, timer.kind, timer.default_option())
        events = GAME.apply(state, choice)
        record.append(choice)
        snaps += [(choice.seat, e.text) for e in events if e.kind == "snap" and choice.seat != TABLE]
        for i in bots:
            after = GAME.view(state, i)
            memories[i].observe(views[i], choice, after, events)
            views[i] = after
    play.memories = memories  # the bots' memories at the end, for the record test
    return state, record, snaps


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_standard_and_hard_snap_only_a_known_match(seed):
    _state, _record, snaps = play(["standard", "hard", None, "standard"], seed)
    mine = [text for seat, text in snaps if seat != 2]
    assert all("wrong" not in text for text in mine), mine


def test_decisions_ignore_what_the_seat_cannot_see():
    """Same memory, the real state or one with every card the seat cannot see redrawn: the same answer."""
    rng = random.Random(5)
    checked = []

    def check(state, prompt, bot, memory):
        want = bot.choose(GAME, state, prompt, memory)
        for _ in range(2):
            assert bot.choose(GAME, GAME.scramble(state, prompt.seat, rng), prompt, memory) == want
        checked.append(prompt.kind)

    for seed in (4, 5):
        play(["easy", "hard", "standard", None, "standard"], seed, check)
    assert len(checked) > 100 and {"turn", "place", "snap"} <= set(checked)


def test_memory_from_the_record_is_the_memory_of_the_game():
    """The table rebuilds a bot's memory by replaying the record: it knows what it learnt while playing."""
    for seed in (9, 10):
        state, record, _ = play(["standard", "hard", "easy"], seed)
        live = play.memories
        for seat in range(3):
            rebuilt = remember(GAME, [f"P{i}" for i in range(3)], {}, seed, record, seat)
            assert rebuilt.known == live[seat].known and rebuilt.seen_ids == live[seat].seen_ids


def test_memory_learns_from_the_peek():
    state, _ = GAME.start(["a", "b", "c"], {}, 3)
    memory = Memory(0)
    prompt = next(p for p in GAME.prompts(state) if p.seat == 0)
    before = GAME.view(state, 0)
    choice = OmertaBot("standard").choose(GAME, state, prompt, memory)
    events = GAME.apply(state, choice)
    memory.observe(before, choice, GAME.view(state, 0), events)
    slots = [int(x) for x in choice.option.split(",")]
    assert sorted(memory.known) == slots


def test_bots_beat_a_random_player():
    wins = {"bot": 0, "random": 0}
    for seed in range(12):
        state, _record, _snaps = play(["standard", None, "hard"], 100 + seed)
        result = GAME.result(state)
        for w in result.winners:
            wins["random" if w == 1 else "bot"] += 1
    assert wins["bot"] > 3 * wins["random"], wins
