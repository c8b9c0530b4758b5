"""Issue 24, the story's slips in the Speakeasy engine's own lines: what the table answers for a player (a forced
answer at ``settle=auto``) or a player's decline is a sentence about who chose what, not a button's label."""

from __future__ import annotations

import random
import re

from engine.core import TABLE, Choice
from engine.speakeasy.steps import SKIP
from tests.engine.speakeasy import kit

SENTENCE = re.compile(r"^P\d chooses “[^”]+”( \(.+\))?\.$")


def test_settled_and_declined_answers_are_sentences_naming_the_player():
    seen = {"settled": 0, "declined": 0}
    for seed in (1, 2):
        rng = random.Random(seed)
        state, events = kit.GAME.start(["P1", "P2"], {"settle": "auto"}, seed)
        while not kit.GAME.is_over(state) and min(seen.values()) < 3:
            prompt = next(p for p in kit.GAME.prompts(state) if p.seat != TABLE)
            skip = [o for o in prompt.options if o.id == SKIP]
            option = skip[0] if skip and rng.random() < 0.3 else rng.choice(prompt.options)
            events = kit.GAME.apply(state, Choice(prompt.seat, prompt.kind, option.id))
            for e in events:
                m = e.data.get("msg", {}).get("m")
                if m in ("speakeasy.flow.settled", "speakeasy.flow.declined"):
                    seen[m.rsplit(".", 1)[1]] += 1
                    assert SENTENCE.match(e.text), e.text
    assert min(seen.values()) >= 3, seen
