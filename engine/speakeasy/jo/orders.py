"""Jo's orders of preference (seed 003, design §15.1) and the card codes his setup and turn both read.

Every order the seed leaves open is design §15.1's: building value Casino > Nightclub > Speakeasy > Stills, then
the lowest district number, then the lowest space index.
"""

from __future__ import annotations

from engine.speakeasy.components import BUILDING_KINDS
from engine.speakeasy.jo.data import jo_rules
from engine.speakeasy.state import Building, District, SpeakeasyState

VALUE = {kind: i for i, kind in enumerate(BUILDING_KINDS)}  # seed 003:42.1
#: His card codes that raise a named Operations level (``+low`` raises his lowest one).
LEVEL_CODES = {"+V": "vip", "+P": "party", "+S": "stills", "+F": "fleet"}


def value_key(d: District, i: int, b: Building) -> tuple[int, int, int]:
    """Most valuable first, then the lowest district, then the lowest space (seed 003:42.1-2)."""
    return (-VALUE[b.kind], d.number, i)


def lowest_level(state: SpeakeasyState, seat: int) -> str:
    """His lowest Operations level; ties in the order VIP, Party, Stills, Fleet (design §15.1)."""
    p = state.player(seat)
    order = jo_rules().lowest_level
    return min(order, key=lambda t: (p.levels[t], order.index(t)))
