"""Issue 25, beliefs the bots can trust: a sampled world deals Jo's hidden cards deck by deck, as his decks are
made (seed 003:20.1 "Shuffle decks 1-4 separately and box 2 random cards of deck 2"; 003:22.2 "Act 1 decks 1 + 2
shuffled; Act 2 the 2 cards left plus deck 3; Act 3 the 2 cards left plus deck 4"). Before, four in five of the
cards a bot imagined in Jo's piles came from another deck."""

from __future__ import annotations

import random
from collections import Counter

from bots.speakeasy_worlds import canonical, world
from engine.core import Choice
from engine.speakeasy import hidden
from engine.speakeasy.game import SpeakeasyGame

GAME = SpeakeasyGame()


def _positions(seed: int, every: int = 9):  # noqa: ANN202
    state = GAME.new(["Anna"], {"difficulty": 2}, seed)
    rng = random.Random(seed)
    k = 0
    while not GAME.is_over(state):
        if k % every == 0 and state.jo is not None and state.jo.deck:
            yield state
        prompt = GAME.prompts(state)[0]
        options = [o for o in prompt.options if o.id != "back"] or list(prompt.options)
        GAME.apply(state, Choice(prompt.seat, prompt.kind, rng.choice(options).id))
        k += 1


def _kinds(cards: list[str]) -> Counter[str]:
    return Counter(c[0] for c in cards)


def test_003_20_1_and_003_22_2_a_sampled_jo_keeps_each_pile_deck_by_deck():
    """In every sampled world, Jo's deck, his waiting decks 3 and 4 and his boxed cards hold as many cards of each
    deck as the real ones; which cards, and their order, vary."""
    checked = varied = 0
    for seed in range(6):
        for state in _positions(seed):
            for k in range(3):
                w = world(state, 0, random.Random(k))
                for real, got in [(state.jo.deck, w.jo.deck), (state.jo.boxed, w.jo.boxed)] + [
                    (state.jo.waiting[d], w.jo.waiting[d]) for d in state.jo.waiting
                ]:
                    assert _kinds(got) == _kinds(real)
                    checked += 1
                varied += w.jo.deck != state.jo.deck
    assert checked > 100 and varied > 20


def test_the_canonical_jo_depends_on_the_decks_counts_only():
    """The bot's starting point for sampling is the same whatever the hidden order of Jo's cards: two states that
    differ only there give one canonical state."""
    for seed in range(3):
        for state in _positions(seed, every=23):
            other = hidden.scramble(state, 0, random.Random(seed))
            a, b = canonical(state, 0), canonical(other, 0)
            assert (a.jo.deck, a.jo.waiting, a.jo.boxed) == (b.jo.deck, b.jo.waiting, b.jo.boxed)
