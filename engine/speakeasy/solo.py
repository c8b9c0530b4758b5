"""Where the rules hand over to Jo, the solo bot (issue 27: Jo is a layer above the rules).

The rules never import Jo's code: at the few moments the seeds give Jo something to do inside a rule (his
setup, an Infamy reward, his Mob War defence, the solo scoring), they call the hook of that
name, which Jo's modules provide when they are imported (``engine.speakeasy.flow`` imports them, as it imports
every step module to register its steps). Jo calls the rules freely; the rules reach him only here."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

#: Jo's hooks by name, filled once at import time by Jo's modules (as ``steps.STEPS`` is by the step modules).
HOOKS: dict[str, Callable[..., Any]] = {}
#: Every hook the rules call, so that a missing one is found at once.
NAMES = ("set_up", "take_helper", "defence_order", "final_scoring")


def provide(name: str, fn: Callable[..., Any]) -> None:
    """Jo's module gives the rules the hook ``name`` (at import time only)."""
    if name not in NAMES:
        raise ValueError(f"unknown solo hook {name!r}; hooks: {', '.join(NAMES)}")
    if name in HOOKS:
        raise ValueError(f"solo hook {name!r} provided twice")
    HOOKS[name] = fn


def jo(name: str) -> Callable[..., Any]:
    """The hook ``name`` Jo provides (a rule of a solo game calls it)."""
    try:
        return HOOKS[name]
    except KeyError:
        raise RuntimeError(f"solo hook {name!r} is not provided: Jo's modules were not imported") from None
