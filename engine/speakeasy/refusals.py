"""Why a choice is refused: a specific sentence for the common mistakes, put in front of the generic message
(which lists what is allowed). Nothing here changes the state."""

from __future__ import annotations

from engine.core import Choice, IllegalChoice
from engine.msg import M, Msg, P, T
from engine.speakeasy import crew, money
from engine.speakeasy import economy as eco
from engine.speakeasy.board import KIND_NAMES, TRACK_NAMES, district_name, zone_index
from engine.speakeasy.loader import rules
from engine.speakeasy.state import Player, SpeakeasyState


def explained(state: SpeakeasyState, choice: Choice, exc: IllegalChoice) -> IllegalChoice:
    """``exc`` with a specific reason in front of it when one is known."""
    try:
        reason = explain(state, choice)
    except (ValueError, IndexError, KeyError, TypeError, AttributeError):
        reason = ""  # a malformed option id: the generic message says what is allowed
    if not reason:
        return exc
    generic = exc.args[0] if exc.args and isinstance(exc.args[0], str) else str(exc)
    # the exception's argument is a message: str(exc) stays the English, the table says it in the reader's words
    return IllegalChoice(M("speakeasy.refusals.explained", "{reason} {generic}", reason=reason, generic=generic))


def _name(state: SpeakeasyState, seat: int) -> str | Msg:
    return (
        state.players[seat].name if 0 <= seat < len(state.players) else M("speakeasy.refusals.seat", "seat {n}", n=seat)
    )


def explain(state: SpeakeasyState, choice: Choice) -> str | Msg:
    """A specific reason for a refused choice, or "" when the generic message says enough."""
    if not isinstance(choice, Choice) or not isinstance(choice.option, str) or isinstance(choice.seat, bool):
        return ""
    task = state.tasks[-1] if state.tasks else None
    if task is not None and choice.seat != task.seat:
        return M(
            "speakeasy.refusals.not_your_turn",
            "It is {name}'s decision now, not {other}'s.",
            name=_name(state, task.seat),
            other=_name(state, choice.seat),
        )
    if not 0 <= choice.seat < len(state.players):
        return ""
    p = state.player(choice.seat)
    kind, _, arg = choice.option.partition(":")
    if task is not None and task.kind == choice.kind == "place":
        return _place(state, kind, arg)
    return _by_kind(state, choice, p, kind, arg)


def _by_kind(state: SpeakeasyState, choice: Choice, p: Player, kind: str, arg: str) -> str | Msg:
    """Reasons that hold whether or not that step is pending (e.g. a Goon when the track is full)."""
    task = state.tasks[-1] if state.tasks else None
    if choice.kind in ("build", "setup_build") and kind == "row":
        k, idx = arg.split(":")
        rs = rules(state).buildings.rows[k][int(idx)]
        if not p.rows[k][int(idx)]:
            return _row_empty(k)
        can = p.pocket if choice.kind == "setup_build" else money.spendable(p)
        if rs.cost > can and choice.kind == "setup_build":
            return M(
                "speakeasy.refusals.build_pocket",
                "That {building} costs ${cost}; you can spend at most ${can} from your pocket.",
                building=KIND_NAMES[k],
                cost=rs.cost,
                can=can,
            )
        if rs.cost > can:
            return M(
                "speakeasy.refusals.build_spend",
                "That {building} costs ${cost}; you can spend at most ${can} (pocket plus half of the safe).",
                building=KIND_NAMES[k],
                cost=rs.cost,
                can=can,
            )
        return ""
    if choice.kind == "build_at" and kind == "take":
        dn, _i, _code = arg.split(":")
        d = state.districts[int(dn) - 1]
        best = eco.strength_base(p) + p.goons + crew.associate_strength(state, choice.seat, zone_index(d.number))[0]
        if d.strength > best:
            return M(
                "speakeasy.refusals.take_strength",
                "Taking over in {district} needs Strength {need}; you reach at most {best} (Strength, Goons and "
                "Associate).",
                district=district_name(d.number),
                need=d.strength,
                best=best,
            )
        return ""
    if choice.kind == "upgrade" and kind == "up":
        from engine.speakeasy.buildings import row_space, upgrade_cost

        dn, si, ri = (int(x) for x in arg.split(":"))
        b = state.districts[dn - 1].spaces[si].building
        to = rules(state).buildings.upgrades.get(b.kind) if b is not None and b.owner == choice.seat else None
        if to is None:
            return M("speakeasy.refusals.upgrade_own", "You can only upgrade your own Speakeasy or Nightclub.")
        if not p.rows[to][ri]:
            return _row_empty(to)
        extra = task.m if task is not None and task.kind == "upgrade" else 0
        cost = upgrade_cost(state, choice.seat, row_space(to, ri), extra)
        can = money.spendable(p)
        if cost > can:
            return M(
                "speakeasy.refusals.upgrade_spend",
                "That upgrade costs ${cost}; you can spend at most ${can} (pocket plus half of the safe).",
                cost=cost,
                can=can,
            )
    if choice.kind == "hire_goons" and kind == "hire":
        if p.goons >= len(rules(state).tracks.goon_costs):
            return M(
                "speakeasy.refusals.goons_full",
                "All {n} Goon spaces are full: no more Goons can be hired.",
                n=len(rules(state).tracks.goon_costs),
            )
        if task is not None and task.kind == "hire_goons":
            return M("speakeasy.refusals.goon_pay", "You cannot pay for the next Goon.")
    if kind == "raise":
        if p.levels[arg] >= rules(state).tracks.max_level:
            return M(
                "speakeasy.refusals.track_top",
                "{track} is already at level {level}.",
                track=TRACK_NAMES[arg],
                level=p.levels[arg],
            )
        need = eco.discards_to_raise(p, arg)
        if need > len(p.hand):
            return P(
                "speakeasy.refusals.raise_cards",
                "Raising {track} to {level} needs {n} discarded card; you hold {held}.",
                "Raising {track} to {level} needs {n} discarded cards; you hold {held}.",
                need,
                track=TRACK_NAMES[arg],
                level=p.levels[arg] + 1,
                held=len(p.hand),
            )
    return ""


def _row_empty(kind: str) -> Msg:
    return M(
        "speakeasy.refusals.row_empty",
        "That {building} space of your board is already empty.",
        building=KIND_NAMES[kind],
    )


def _place(state: SpeakeasyState, kind: str, arg: str) -> str | Msg:
    loc = rules(state).locations
    if kind == "person":
        holder = state.persons.get(arg)
        per = next((x for x in loc.persons if x.id == arg), None)
        if per is not None and holder is not None:
            return M(
                "speakeasy.refusals.person_taken",
                "The {person} ({location}) already has {name}'s Capo this Act.",
                person=T("speakeasy.term.person", per.name),
                location=T("speakeasy.term.location", per.location),
                name=_name(state, holder),
            )
    if kind == "booth":
        n = int(arg)
        if n > rules(state).sides[state.side].booths:
            return M("speakeasy.refusals.booth_unused", "Booth {n} is not used on this board side.", n=n)
        if state.booths[n - 1] is not None:
            return M("speakeasy.refusals.booth_taken", "Booth {n} already has a Capo this Act.", n=n)
        cost = loc.booths[n - 1].leverage
        return M(
            "speakeasy.refusals.booth_cost",
            "Booth {n} costs {cost} Leverage; you have {have}.",
            n=n,
            cost=cost,
            have=state.player(state.tasks[-1].seat).leverage,
        )
    if kind == "park" and state.park[int(arg)] is not None:
        return M("speakeasy.refusals.park_taken", "Park space {n} already has a Capo this Act.", n=int(arg) + 1)
    return ""
