"""Why a choice is refused: a specific sentence for the common mistakes, put in front of the generic message
(which lists what is allowed). Nothing here changes the state."""

from __future__ import annotations

from engine.core import Choice, IllegalChoice
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
    return IllegalChoice(f"{reason} {exc}") if reason else exc


def _name(state: SpeakeasyState, seat: int) -> str:
    return state.players[seat].name if 0 <= seat < len(state.players) else f"seat {seat}"


def explain(state: SpeakeasyState, choice: Choice) -> str:
    """A specific reason for a refused choice, or "" when the generic message says enough."""
    if not isinstance(choice, Choice) or not isinstance(choice.option, str) or isinstance(choice.seat, bool):
        return ""
    task = state.tasks[-1] if state.tasks else None
    if task is not None and choice.seat != task.seat:
        return f"It is {_name(state, task.seat)}'s decision now, not {_name(state, choice.seat)}'s."
    if not 0 <= choice.seat < len(state.players):
        return ""
    p = state.player(choice.seat)
    kind, _, arg = choice.option.partition(":")
    if task is not None and task.kind == choice.kind == "place":
        return _place(state, kind, arg)
    return _by_kind(state, choice, p, kind, arg)


def _by_kind(state: SpeakeasyState, choice: Choice, p: Player, kind: str, arg: str) -> str:
    """Reasons that hold whether or not that step is pending (e.g. a Goon when the track is full)."""
    task = state.tasks[-1] if state.tasks else None
    if choice.kind in ("build", "setup_build") and kind == "row":
        k, idx = arg.split(":")
        rs = rules().buildings.rows[k][int(idx)]
        if not p.rows[k][int(idx)]:
            return f"That {KIND_NAMES[k]} space of your board is already empty."
        can = p.pocket if choice.kind == "setup_build" else money.spendable(p)
        if rs.cost > can:
            where = "from your pocket" if choice.kind == "setup_build" else "(pocket plus half of the safe)"
            return f"That {KIND_NAMES[k]} costs ${rs.cost}; you can spend at most ${can} {where}."
        return ""
    if choice.kind == "build_at" and kind == "take":
        dn, _i, _code = arg.split(":")
        d = state.districts[int(dn) - 1]
        best = eco.strength_base(p) + p.goons + crew.associate_strength(state, choice.seat, zone_index(d.number))[0]
        if d.strength > best:
            return (
                f"Taking over in {district_name(d.number)} needs Strength {d.strength}; you reach at most {best} "
                f"(Strength, Goons and Associate)."
            )
        return ""
    if choice.kind == "upgrade" and kind == "up":
        from engine.speakeasy.buildings import row_space, upgrade_cost

        dn, si, ri = (int(x) for x in arg.split(":"))
        b = state.districts[dn - 1].spaces[si].building
        to = rules().buildings.upgrades.get(b.kind) if b is not None and b.owner == choice.seat else None
        if to is None:
            return "You can only upgrade your own Speakeasy or Nightclub."
        if not p.rows[to][ri]:
            return f"That {KIND_NAMES[to]} space of your board is already empty."
        extra = task.m if task is not None and task.kind == "upgrade" else 0
        cost = upgrade_cost(state, choice.seat, row_space(to, ri), extra)
        can = money.spendable(p)
        if cost > can:
            return f"That upgrade costs ${cost}; you can spend at most ${can} (pocket plus half of the safe)."
    if choice.kind == "hire_goons" and kind == "hire":
        if p.goons >= len(rules().tracks.goon_costs):
            return f"All {len(rules().tracks.goon_costs)} Goon spaces are full: no more Goons can be hired."
        if task is not None and task.kind == "hire_goons":
            return "You cannot pay for the next Goon."
    if kind == "raise":
        if p.levels[arg] >= rules().tracks.max_level:
            return f"{TRACK_NAMES[arg]} is already at level {p.levels[arg]}."
        need = eco.discards_to_raise(p, arg)
        if need > len(p.hand):
            cards = f"{need} discarded card{'s' if need > 1 else ''}"
            return f"Raising {TRACK_NAMES[arg]} to {p.levels[arg] + 1} needs {cards}; you hold {len(p.hand)}."
    return ""


def _place(state: SpeakeasyState, kind: str, arg: str) -> str:
    loc = rules().locations
    if kind == "person":
        holder = state.persons.get(arg)
        per = next((x for x in loc.persons if x.id == arg), None)
        if per is not None and holder is not None:
            return f"The {per.name} ({per.location}) already has {_name(state, holder)}'s Capo this Act."
    if kind == "booth":
        n = int(arg)
        if n > rules().sides[state.side].booths:
            return f"Booth {n} is not used on this board side."
        if state.booths[n - 1] is not None:
            return f"Booth {n} already has a Capo this Act."
        cost = loc.booths[n - 1].leverage
        return f"Booth {n} costs {cost} Leverage; you have {state.player(state.tasks[-1].seat).leverage}."
    if kind == "park" and state.park[int(arg)] is not None:
        return f"Park space {int(arg) + 1} already has a Capo this Act."
    return ""
