"""Solo scoring (seed 003:58.1-60.1, design §15.5): both scored as 2 players, Jo's $1 per City tile, the win,
then the Stretch Goals Solo Achievements and the rank."""

from __future__ import annotations

from engine.msg import Join, M, T
from engine.speakeasy.board import buildings
from engine.speakeasy.components import BOTTLES, ZONES
from engine.speakeasy.jo.data import jo_rules
from engine.speakeasy.loader import rules
from engine.speakeasy.solo import provide
from engine.speakeasy.state import SpeakeasyState
from engine.speakeasy.steps import Log, say


def achievements(state: SpeakeasyState, seat: int) -> list[str]:
    """The achievement ids the player reached (design §15.5)."""
    jo = state.jo
    assert jo is not None
    r = rules(state)
    p = state.player(seat)
    mine = list(buildings(state, seat))
    bottles = {r.helpers.cards[h].bottle for h in p.helpers + p.screen}
    if any(r.docks.crates[c].power == "champagne" for c in p.crates):
        bottles.add("champagne")
    reached = {
        "untouchable": sum(p.lost_buildings.values()) == 0,
        "kingpin": bool(jo.kingpin) and all(jo.kingpin),
        "high_roller": sum(1 for _d, _i, b in mine if b.kind == "casino") >= 3,
        "book_cooker": all(seat in state.zone_books[z] for z in range(len(ZONES))),
        "rum_pirate": p.ambushes >= 3,
        "family_business": sum(1 for _d, _i, b in mine if b.family) >= 6,
        "connoisseur": set(BOTTLES) <= bottles,
        "public_enemy": p.infamy >= 20,
    }
    return [a.id for a in jo_rules().achievements if reached.get(a.id)]


def rank(margin: int, won: bool) -> str:
    """Goon for a loss (or no margin), then the highest rank whose threshold the margin reaches."""
    jr = jo_rules()
    name = jr.loss_rank
    if not won:
        return name
    for start, title in jr.ranks:
        if margin >= start:
            name = title
    return name


def solo_scoring(state: SpeakeasyState, log: Log) -> None:
    """Called after the common final scoring has filled each ``Player.final``."""
    jo = state.jo
    assert jo is not None
    jr = jo_rules()
    human = next(s for s in range(len(state.players)) if s != jo.seat)
    bot = state.player(jo.seat)
    tiles = len(bot.tiles) * jr.numbers["city_tile_money"]
    bot.final["city_tiles"] = tiles
    bot.final["total"] += tiles
    p = state.player(human)
    won = p.final["total"] > bot.final["total"]  # seed 003:58.3: only with more money than Jo
    jo.achievements = achievements(state, human)
    bonus = jr.stretch_bonus * len(jo.achievements)
    p.final["achievements"] = bonus
    p.final["total"] += bonus
    jo.rank = rank(p.final["total"] - bot.final["total"], won)
    reached = [T("speakeasy.jo.achievement", a.name) for a in jr.achievements if a.id in jo.achievements]
    names = Join(reached, "comma") if reached else M("speakeasy.jo.no_achievements", "none")
    say(
        log,
        M(
            "speakeasy.jo.final",
            "Jo: {total} (with ${tiles} for his City tiles).",
            total=bot.final["total"],
            tiles=tiles,
        ),
        kind="final",
    )
    outcome = (
        M(
            "speakeasy.jo.beats",
            "{name} beats Jo. Achievements: {names} (+${bonus}).",
            name=p.name,
            names=names,
            bonus=bonus,
        )
        if won
        else M(
            "speakeasy.jo.not_beaten",
            "{name} does not beat Jo. Achievements: {names} (+${bonus}).",
            name=p.name,
            names=names,
            bonus=bonus,
        )
    )
    say(log, outcome, kind="final")
    say(
        log,
        M("speakeasy.jo.rank_line", "{name}'s rank: {rank}.", name=p.name, rank=T("speakeasy.jo.rank", jo.rank)),
        kind="final",
    )


provide("final_scoring", solo_scoring)
