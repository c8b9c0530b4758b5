"""``tracks.toml``: the Operations and Strength tracks, Infamy, barrel prices, money, Goons, supplies, Capos."""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta

from engine.data import at, fail, length, levels_complete, ordered
from engine.schema import Table, distinct
from engine.speakeasy.components import TRACKS, Track, Tracks
from engine.speakeasy.schema.fields import (
    ACTS,
    Effects,
    NumberTable,
    PerAct,
    Positive,
    Positives,
    SomeWholes,
    Whole,
    WholePerAct,
    Wholes,
    effects,
)

NAME = "tracks.toml"
SALE_KINDS = ("speakeasy", "nightclub", "casino")  # the buildings that sell barrels


class TrackValues(Table):
    values: Wholes


class Operations(Table):
    max_level: Annotated[int, Meta(ge=2)]
    trucks_by_fleet: Positives
    discards: NumberTable  # level reached -> cards to discard, every level 2..max_level
    vip: TrackValues
    party: TrackValues
    stills: TrackValues
    fleet: TrackValues


class Strength(Table):
    values: Wholes
    discards: NumberTable


class Infamy(Table):
    per_step: Whole
    max: Positive
    start: Whole
    family_on: distinct(Positive)
    rewards: dict[int, Effects]  # space -> reward: every space 1..max, [] for none


class Prices(Table):
    bands: SomeWholes
    speakeasy: Wholes
    nightclub: Wholes
    casino: Wholes


class Heat(Table):
    infamy: Whole
    leverage: Whole


class Leverage(Table):
    start: Whole
    cop_protect: Whole


class Money(Table):
    safe_ratio: Positive
    pocket: Whole
    safe: Whole


class Goons(Table):
    costs: SomeWholes
    start: Whole


class Supply(Table):
    supply: Whole


class Capos(Table):
    count: Positive
    per_act: PerAct
    returned: WholePerAct
    boxed: WholePerAct


class TracksFile(Table):
    operations: Operations
    strength: Strength
    infamy: Infamy
    prices: Prices
    heat: Heat
    leverage: Leverage
    money: Money
    goons: Goons
    family: Supply
    books: Supply
    capos: Capos


def tracks(f: TracksFile) -> Tracks:
    """The tracks; every list as long as the track, every level of a level table named."""
    ops, strength, infamy, prices = f.operations, f.strength, f.infamy, f.prices
    top = ops.max_level
    length(NAME, "operations.trucks_by_fleet", ops.trucks_by_fleet, top, "whole numbers")
    ordered(NAME, "operations.trucks_by_fleet", ops.trucks_by_fleet)
    for name in TRACKS:
        length(NAME, f"operations.{name}.values", getattr(ops, name).values, top, "whole numbers")
    length(NAME, "strength.values", strength.values, top, "whole numbers")
    levels_complete(NAME, "operations.discards", ops.discards, range(2, top + 1))
    levels_complete(NAME, "strength.discards", strength.discards, range(2, top + 1))

    if infamy.start > infamy.max:
        fail(NAME, "infamy.start", f"must be at most max ({infamy.max}), got {infamy.start}")
    # the track's every space is named, so that a space left out is refused (a reward on 0 is never reached)
    levels_complete(NAME, "infamy.rewards", infamy.rewards, range(1, infamy.max + 1), what="space", empty="[]")
    rewards = {space: effects(row) for space, row in sorted(infamy.rewards.items()) if row}
    for path, space in at("infamy.family_on", infamy.family_on):
        if not any(e.kind == "family" for e in rewards.get(space, ())):
            fail(NAME, path, f"space {space} has no family reward in infamy.rewards")

    if prices.bands[0] != 0 or prices.bands[-1] > infamy.max:
        fail(
            NAME,
            "prices.bands",
            f"must start at 0 and stay within the Infamy track (0..{infamy.max}), got {list(prices.bands)}",
        )
    ordered(NAME, "prices.bands", prices.bands, strict=True)
    for kind in SALE_KINDS:
        length(NAME, f"prices.{kind}", getattr(prices, kind), len(prices.bands), "whole numbers")
    if f.heat.infamy > infamy.max:
        fail(NAME, "heat.infamy", f"must be at most the Infamy track's max ({infamy.max}), got {f.heat.infamy}")
    ordered(NAME, "goons.costs", f.goons.costs)
    if f.goons.start > len(f.goons.costs):
        fail(NAME, "goons.start", f"is {f.goons.start}, but there are only {len(f.goons.costs)} Goon spaces")
    _check_capos(f.capos)

    return Tracks(
        ops={name: Track(name, getattr(ops, name).values) for name in TRACKS},
        max_level=top,
        trucks_by_fleet=ops.trucks_by_fleet,
        strength_values=strength.values,
        ops_discards=_asked(ops.discards),
        strength_discards=_asked(strength.discards),
        infamy_per_step=infamy.per_step,
        infamy_max=infamy.max,
        infamy_start=infamy.start,
        infamy_rewards=rewards,
        family_on_infamy=infamy.family_on,
        price_bands=prices.bands,
        prices={kind: getattr(prices, kind) for kind in SALE_KINDS},
        heat_infamy=f.heat.infamy,
        heat_leverage=f.heat.leverage,
        cop_protect_leverage=f.leverage.cop_protect,
        safe_ratio=f.money.safe_ratio,
        goon_costs=f.goons.costs,
        start_goons=f.goons.start,
        start_pocket=f.money.pocket,
        start_safe=f.money.safe,
        start_leverage=f.leverage.start,
        start_books=f.books.supply,
        start_family_supply=f.family.supply,
        capos=f.capos.count,
        capos_per_act=f.capos.per_act,
        capos_returned=f.capos.returned,
        capos_boxed=f.capos.boxed,
    )


def _asked(discards: dict[int, int]) -> dict[int, int]:
    """The levels that ask for a discard: the file names every level, the rules read a missing one as none."""
    return {level: n for level, n in sorted(discards.items()) if n}


def _check_capos(capos: Capos) -> None:
    per_act, returned, boxed = capos.per_act, capos.returned, capos.boxed
    if per_act[0] != capos.count:
        fail(NAME, "capos.per_act[0]", f"must be count ({capos.count}): Act 1 places every Capo, got {per_act[0]}")
    if returned[0] or boxed[0]:
        fail(NAME, "capos.returned[0]", "and boxed[0] must be 0: nothing is returned or boxed before Act 1")
    for act in range(1, ACTS):
        if returned[act] + boxed[act] != per_act[act - 1]:
            fail(
                NAME,
                f"capos.returned[{act}]",
                f"+ boxed[{act}] must be the {per_act[act - 1]} Capos placed in Act {act}, "
                f"got {returned[act]} + {boxed[act]}",
            )
        if returned[act] != per_act[act]:
            fail(
                NAME,
                f"capos.per_act[{act}]",
                f"must be {returned[act]}, the Capos returned at the start of Act {act + 1}, got {per_act[act]}",
            )
