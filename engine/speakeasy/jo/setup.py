"""Jo's setup (seed 003:14.1-26.3, design §15.3-§15.4): his District deck, his card decks, the start of each Act,
his Setup Round and how he places a building."""

from __future__ import annotations

from engine.msg import M, T
from engine.speakeasy.board import KIND_NAMES, TRACK_NAMES, space_name
from engine.speakeasy.gains import tile_name
from engine.speakeasy.jo.data import jo_rules
from engine.speakeasy.jo.orders import LEVEL_CODES, lowest_level
from engine.speakeasy.loader import rules
from engine.speakeasy.money import book
from engine.speakeasy.solo import provide
from engine.speakeasy.state import Building, District, SpeakeasyState, Task
from engine.speakeasy.steps import Log, register, say

# ---- decks ----


def shuffle_districts(state: SpeakeasyState) -> None:
    """Seed 003:50.5: all 16 District cards shuffled into a new deck."""
    jo = state.jo
    assert jo is not None
    jo.districts = [d.number for d in rules(state).districts]
    jo.drawn = []
    state.rng.shuffle(jo.districts)


def draw_district(state: SpeakeasyState) -> int:
    """The top District card (reshuffling all 16 when the deck is empty)."""
    jo = state.jo
    assert jo is not None
    if not jo.districts:
        shuffle_districts(state)
    card = jo.districts.pop(0)
    jo.drawn.append(card)
    return card


def set_up(state: SpeakeasyState, difficulty: int, log: Log) -> None:
    """Seed 003:14.1-22.2 and design §15.3-§15.4: the District deck, deck 0's setup raise, decks 1-4, the
    difficulty swaps and the Act 1 deck."""
    jr = jo_rules(state)
    jo = state.jo
    assert jo is not None
    shuffle_districts(state)
    by_deck: dict[int, list[str]] = {d: [c.id for c in jr.cards if c.deck == d] for d in range(5)}
    for cards in by_deck.values():
        state.rng.shuffle(cards)
    # Deck 0: reveal until a card raises an Operations level; apply its first + action; box it.
    zero = by_deck[0]
    revealed: list[str] = []
    while zero:
        card = zero.pop(0)
        raise_code = next((a for a in jr.card(card).actions if a in LEVEL_CODES or a == "+low"), None)
        if raise_code is None:
            revealed.append(card)
            continue
        track = LEVEL_CODES.get(raise_code) or lowest_level(state, jo.seat)
        state.player(jo.seat).levels[track] += 1  # the setup raise moves no Infamy (design §15.1)
        jo.boxed.append(card)
        say(
            log,
            M(
                "speakeasy.jo.setup_raise",
                "Jo's setup card raises his {track} to {level}.",
                track=TRACK_NAMES[track],
                level=state.player(jo.seat).levels[track],
            ),
        )
        break
    zero += revealed
    state.rng.shuffle(zero)
    # Box 2 random cards of deck 2 (seed 003:20.1).
    for _ in range(jr.numbers["deck2_boxed"]):
        jo.boxed.append(by_deck[2].pop(state.rng.below(len(by_deck[2]))))
    # Difficulty: random cards of the named decks out, random strong or weak deck-0 cards in.
    level = jr.difficulties[difficulty]
    pool = [c for c in zero if jr.card(c).strong == level.strong]
    for deck, n in level.swaps:
        outs = [by_deck[deck].pop(state.rng.below(len(by_deck[deck]))) for _ in range(n)]
        jo.boxed += outs
        by_deck[deck] += [pool.pop(state.rng.below(len(pool))) for _ in range(n)]
        state.rng.shuffle(by_deck[deck])
    jo.boxed += [c for c in zero if c not in {x for d in (1, 2, 3, 4) for x in by_deck[d]}]
    jo.waiting = {str(d): by_deck[d] for d in (3, 4)}
    jo.deck = []
    for d in jr.act_decks[0]:
        jo.deck += by_deck[d]
    state.rng.shuffle(jo.deck)
    say(
        log,
        M(
            "speakeasy.jo.difficulty",
            "Jo plays at difficulty {level} ({name}).",
            level=level.level,
            name=T("speakeasy.term.jo_level", level.name),
        ),
    )
    if level.head_start:  # rules version 2 on (docs/house-rules.md): a higher difficulty starts Jo ahead
        book(state.player(jo.seat), "start", level.head_start)
        state.player(jo.seat).pocket += level.head_start
        say(
            log,
            M(
                "speakeasy.jo.head_start",
                "At this difficulty Jo starts with ${n}.",
                n=level.head_start,
            ),
        )


def start_act(state: SpeakeasyState, log: Log) -> None:
    """Seed 003:22.2, 003:50.5: the leftover cards shuffled with the Act's new deck; the District deck reshuffled."""
    jo = state.jo
    assert jo is not None
    for d in jo_rules().act_decks[state.act - 1]:
        jo.deck += jo.waiting.pop(str(d), [])
    state.rng.shuffle(jo.deck)
    if state.act <= 3:
        shuffle_districts(state)


# ---- Setup Round (seed 003:26.2-3) ----


def _setup(state: SpeakeasyState, task: Task, log: Log) -> None:
    jo = state.jo
    assert jo is not None
    while True:
        number = draw_district(state)
        d = state.districts[number - 1]
        free = [i for i, sp in enumerate(d.spaces) if sp.building is None and not sp.mobster]
        if free:
            break
    place_building(state, jo.seat, d, free[0], "stills", log)
    shuffle_districts(state)


register("jo_setup", M("speakeasy.jo.setup_step", "Jo's Setup Round"), auto=_setup, skip=None)
provide("set_up", set_up)


def place_building(state: SpeakeasyState, seat: int, d: District, i: int, kind: str, log: Log) -> None:
    """Jo's building from his row onto a space; he takes the City tile without its benefit (seed 003:50.2)."""
    p = state.player(seat)
    row = p.rows[kind]
    row[row.index(True)] = False
    sp = d.spaces[i]
    took = sp.mobster
    sp.mobster = False
    sp.building = Building(seat, kind)
    tile = None
    if sp.tile is not None:
        p.tiles.append(sp.tile)
        tile = tile_name(sp.tile)
        sp.tile = None
    what = {"space": space_name(d.number, i), "building": KIND_NAMES[kind]}
    if took and tile is not None:
        text = M(
            "speakeasy.jo.take_over_tile",
            "Jo takes over the Mobster Speakeasy in {space} with a {building} and takes the City tile {tile}.",
            tile=tile,
            **what,
        )
    elif took:
        text = M("speakeasy.jo.take_over", "Jo takes over the Mobster Speakeasy in {space} with a {building}.", **what)
    elif tile is not None:
        text = M(
            "speakeasy.jo.opens_tile",
            "Jo opens a {building} in {space} and takes the City tile {tile}.",
            tile=tile,
            **what,
        )
    else:
        text = M("speakeasy.jo.opens", "Jo opens a {building} in {space}.", **what)
    say(log, text)
