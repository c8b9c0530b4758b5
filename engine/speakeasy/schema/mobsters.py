"""``mobsters.toml``: the Mobster tiles (deck A, then B, C, D), the decks' attack ranges, the Associates."""

from __future__ import annotations

from engine.data import at, fail, unique
from engine.schema import Table, keyed
from engine.speakeasy.components import Mobster
from engine.speakeasy.schema.fields import MOBSTER_DECKS, MobsterDeck, Positive, Text, Whole, some

NAME = "mobsters.toml"
ATTACKING = MOBSTER_DECKS[1:]  # deck A (the Setup Mobsters) never attacks

AttackRanges = keyed("AttackRanges", ATTACKING, tuple[Whole, Whole], "a Mobster deck that attacks")


class MobsterRow(Table):
    deck: MobsterDeck
    name: Text
    strength: Positive
    modifier: Whole


class Associates(Table):  # documentation only
    fee: Text
    zone_bonus: Text


class MobstersFile(Table):
    mobsters: some(MobsterRow)
    attack_ranges: AttackRanges
    associates: Associates


def mobsters(f: MobstersFile) -> tuple[Mobster, ...]:
    """The Mobsters, numbered 0, 1, 2 ... in file order; each attacks within its deck's range."""
    unique(NAME, at("mobsters", (row.name for row in f.mobsters), "name"))
    decks = [MOBSTER_DECKS.index(row.deck) for row in f.mobsters]
    for i in range(1, len(decks)):
        if decks[i] < decks[i - 1]:
            fail(
                NAME,
                f"mobsters[{i}].deck",
                f"{f.mobsters[i].deck!r} comes after deck {f.mobsters[i - 1].deck!r}: list deck A, then B, C, D",
            )
    mobsters = tuple(Mobster(i, row.deck, row.name, row.strength, row.modifier) for i, row in enumerate(f.mobsters))
    for deck in ATTACKING:
        low, high = getattr(f.attack_ranges, deck)
        if low > high:
            fail(NAME, f"attack_ranges.{deck}", f"must be [lowest, highest], got [{low}, {high}]")
        for mobster in mobsters:
            if mobster.deck == deck and not low <= mobster.strength + mobster.modifier <= high:
                fail(
                    NAME,
                    f"mobsters[{mobster.id}]",
                    f"{mobster.name} attacks at {mobster.strength + mobster.modifier}, "
                    f"outside deck {deck}'s attack range {low}-{high}",
                )
    return mobsters
