"""Speakeasy in words: the headline, a compact summary of the board (phones, screen readers), a seat's safe screen
and the final scoring. Also the printed words the pictures share (``render.speakeasy`` reads them from here).

Reads engine views only (``SpeakeasyGame().view(state, seat)``): the public texts take the spectator view, which
never holds safe money, hands or the Helpers behind a Safe screen, and they never look for them elsewhere.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

View = dict[str, Any]

ZONE_NAMES = ("Downtown", "Midtown", "Uptown")
KIND_NAMES = {"stills": "Stills", "speakeasy": "Speakeasy", "nightclub": "Nightclub", "casino": "Casino"}
TRACK_NAMES = {"vip": "VIP", "party": "Party", "stills": "Stills", "fleet": "Fleet", "strength": "Strength"}
DECK_NAMES = {"vip": "VIP Room", "party": "Party", "stills": "Stills", "fleet": "Fleet"}

#: The Persons of Interest as printed (id, location, name), location by location, left Person first.
#: The view gives only the ids of the Persons holding a Capo; these are the printed words for every Person.
PERSONS: tuple[tuple[str, str, str], ...] = (
    ("harbour_master", "Docks", "Harbour Master"),
    ("rum_runner", "Docks", "Rum-runner"),
    ("mechanic", "Garage", "Mechanic"),
    ("dispatcher", "Garage", "Dispatcher"),
    ("alderman", "City Hall", "Alderman"),
    ("police_captain", "City Hall", "Police Captain"),
    ("consigliere", "Commission", "Consigliere"),
    ("caporegime", "Commission", "Caporegime"),
    ("foreman", "Contractor office", "Foreman"),
    ("fixer", "Contractor office", "Fixer"),
    ("zoning_clerk", "City Planning office", "Zoning Clerk"),
    ("permit_officer", "City Planning office", "Permit Officer"),
)
PERSON_NAMES = {pid: name for pid, _loc, name in PERSONS}

#: Restaurant booths (Leverage paid, reward) and Park spaces (reward), as printed.
BOOTHS: tuple[tuple[int, str], ...] = ((0, "2 Leverage"), (1, "Helper"), (2, "+1 level"), (3, "City tile, Book"))
PARK_SPACES: tuple[str, ...] = ("$5", "2 Leverage", "Book, card")
#: The same rewards whole (the engine's words), for the pictures that have room to say them.
BOOTH_GIVES: tuple[str, ...] = ("2 Leverage", "1 Helper card", "+1 level of your choice", "1 City tile, 1 Book")
PARK_GIVES: tuple[str, ...] = ("$5", "2 Leverage", "1 Book, 1 Operations card")
#: Open booths on the 1-2 player side (the 3-4 side opens all).
SMALL_SIDE_BOOTHS = 3

#: Central Park Goal tiles: what you must have (the view names the tile only).
PARK_GOALS: dict[str, str] = {
    "A1": "3 Operating Speakeasies",
    "A2": "Operating buildings in 3 Zones",
    "A3": "3 Goons",
    "A4": "3 barrels beside your buildings",
    "A5": "2 Family Members at the Docks",
    "A6": "4 City tiles",
    "B1": "a Nightclub and a Casino",
    "B2": "3 Protected buildings",
    "B3": "2 Operations levels at 3+",
    "B4": "Strength level 3+",
    "B5": "3 Helper cards",
    "C1": "2 Casinos",
    "C2": "Operating buildings in 6 districts",
    "C3": "an Operations level at 5",
    "C4": "5 Protected buildings",
}

#: What each City tile gives when taken (data/speakeasy/city_tiles.toml, in the engine's words; the view names the
#: kind only). The pictures print these so a tile says what it is worth, not just its name.
CITY_TILE_GIVES: dict[str, str] = {
    "Cash": "$3",
    "Favours": "2 Leverage",
    "Ledger": "1 Book",
    "Muscle": "1 free Goon",
    "Contacts": "1 Operations card",
    "Cousin": "1 Family Member",
    "Cellar": "1 barrel (cellar)",
    "Permit": "+1 level of your choice",
    "Regular": "1 Helper card",
    "Nest egg": "$5 to the safe",
}

#: Each Helper card's halves (data/speakeasy/helpers.toml): what it gives when taken, and later (its lower half,
#: used at the start of a later turn).
HELPER_GIVES: dict[str, tuple[str, str]] = {
    "Driver": ("1 Leverage", "Deliver up to 2 barrels"),
    "Chemist": ("1 barrel on the Stills area", "Produce barrels"),
    "Dock Worker": ("1 Family Member to the Docks", "buy up to 2 Ship barrels at $1"),
    "Runner": ("$2", "deliver 1 Ship barrel free"),
    "Bartender": ("$2", "Sell up to 2 barrels"),
    "Architect": ("1 Operations card", "Upgrade one building, $2 less"),
    "Informant": ("1 Leverage", "move a face-down Cop tile"),
    "Tailor": ("1 Leverage", "1 Family Member"),
    "Bouncer": ("1 free Goon", "2 free Goons"),
    "Bagman": ("$3", "move up to $6 from safe to pocket"),
    "Enforcer": ("1 free Goon", "+1 Strength"),
    "Cabbie": ("1 Operations card", "1 City tile"),
    "Bookkeeper": ("1 Book", "Cook the Books with 1 Book"),
    "Croupier": ("1 Leverage", "$3 per Operating Casino"),
    "Ward Boss": ("1 Book", "+1 Operations level"),
    "Go-between": ("2 Leverage", "hire an Associate"),
    "Lawyer": ("2 Leverage", "protect 1 building free"),
    "Singer": ("$2", "Sell with Party value +2"),
    "Showgirl": ("$3", "2 Leverage, 1 Operations card"),
    "Accountant": ("1 Book", "1 Book, $3 to the safe"),
}


#: The same, short, for a small tile on the picture (the legend and the summary keep the long words).
CITY_TILE_SHORT: dict[str, str] = {
    "Cash": "$3",
    "Favours": "2 Leverage",
    "Ledger": "1 Book",
    "Muscle": "1 Goon",
    "Contacts": "1 card",
    "Cousin": "1 Family",
    "Cellar": "1 barrel",
    "Permit": "+1 level",
    "Regular": "1 Helper",
    "Nest egg": "$5 safe",
}


def tile_gives(kind: str, short: bool = False) -> str:
    """What a City tile of ``kind`` gives (``""`` for a kind the pictures do not know); ``short``: in a word or
    two."""
    return (CITY_TILE_SHORT if short else CITY_TILE_GIVES).get(kind, "")


def helper_later(name: str) -> str:
    """A Helper's lower half: what it does on a later turn (``""`` if unknown)."""
    return HELPER_GIVES.get(name, ("", ""))[1]


#: Infamy spaces with a Cook-the-Books target (the view lists only the spaces that hold a Book).
INFAMY_BOOK_SPACES = (7, 11, 15, 19, 23)


# --- shared words -------------------------------------------------------------------------------------------


def names(view: View) -> list[str]:
    """The players' names by seat."""
    return [str(p["name"]) for p in view["players"]]


def and_list(items: Sequence[str]) -> str:
    """``a, b and c``."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def jo_seat(view: View) -> int | None:
    """Jo's seat in a solo game, else ``None`` (``view["jo"]``, or a player marked ``bot``)."""
    jo = view.get("jo")
    if isinstance(jo, dict) and jo.get("seat") is not None:
        return int(jo["seat"])
    return next((int(p["seat"]) for p in view["players"] if p.get("bot")), None)


def achievement_name(aid: str) -> str:
    """``high_roller`` -> ``High Roller`` (the Stretch Goals' printed names)."""
    return aid.replace("_", " ").title()


def jo_words(view: View) -> str:
    """Jo's public side in a few words: ``Jo (Standard): 5 cards left in his deck, 7 done``; ``""`` if no Jo."""
    jo = view.get("jo")
    if not isinstance(jo, dict):
        return ""
    level = jo.get("difficulty_name") or f"difficulty {jo.get('difficulty', '?')}"
    seat = jo_seat(view)
    name = view["players"][seat]["name"] if seat is not None else "Jo"
    return f"{name} ({level}): {jo.get('deck_count', 0)} cards left in his deck, {len(jo.get('done', []))} done"


def person_name(pid: str) -> str:
    """A Person of Interest by id: ``Harbour Master``."""
    return PERSON_NAMES.get(pid, pid.replace("_", " ").title())


def zone_goal_text(goal: dict[str, Any]) -> str:
    """``3 buildings``: what a Zone goal asks for (Operating buildings only)."""
    n = goal.get("number", 0)
    kind = goal.get("type", "")
    if kind == "districts":
        return f"buildings in {n} districts"
    if kind == "buildings":
        return f"{n} buildings"
    if kind == "barrels":
        return f"{n} barrels"
    if kind == "protected":
        return f"{n} Protected buildings"
    return f"{n} {kind}"


def park_goal_text(goal: dict[str, Any]) -> str:
    """What a Central Park Goal tile asks for."""
    return str(goal.get("text") or PARK_GOALS.get(str(goal.get("tile")), str(goal.get("tile"))))


def stage(view: View) -> str:
    """``Act 1, round 4``, ``Setup Round``, ``Lucky Luciano phase``, ``Final scoring``."""
    phase = view["phase"]
    if phase == "setup":
        return "Setup Round"
    if phase == "luciano":
        return f"Lucky Luciano phase after Act {view['act']}"
    if phase == "over":
        return "Final scoring"
    return f"Act {view['act']}, round {view['round']}"


def winners(view: View) -> list[int]:
    """The winning seats once ``final`` parts are in the view (design §14 tie-breakers; solo: seed 003:58.3)."""
    players = view["players"]
    if view["phase"] != "over" or not all(isinstance(p.get("final"), dict) for p in players):
        return []
    table = view.get("standings")
    if isinstance(table, dict) and table.get("places"):  # the engine's standings: one source of truth
        return [int(pl["seat"]) for pl in table["places"] if pl["place"] == 1]
    jo = jo_seat(view)
    if jo is not None:
        human = 1 - jo
        mine, bot = players[human]["final"], players[jo]["final"]
        won = mine.get("total", 0) - mine.get("achievements", 0) > bot.get("total", 0)
        return [human if won else jo]
    track = list(view.get("track", []))

    def key(p: dict[str, Any]) -> tuple[int, int, int, int]:
        operating = sum(
            1
            for d in view["districts"]
            for sp in d["spaces"]
            if sp["building"] and sp["building"]["owner"] == p["seat"] and sp["building"]["operating"]
        )
        late = track.index(p["seat"]) if p["seat"] in track else 0
        return (p["final"].get("total", 0), p["final"].get("safe", 0), operating, late)

    best = max(key(p) for p in players)
    return [p["seat"] for p in players if key(p) == best]


def war_district(view: View) -> int | None:
    """The district of the Mob War being fought now, when the view says (``view["war"]["district"]``)."""
    war = view.get("war")
    if view["phase"] == "luciano" and isinstance(war, dict) and war.get("district") is not None:
        return int(war["district"])
    return None


def status(view: View) -> str:
    """Whose turn, or what the table is doing: ``Anna's turn``, ``Mob War · Ben defends``, ``Anna wins``."""
    who = names(view)
    current = view.get("current")
    phase = view["phase"]
    if phase == "over":
        won = winners(view)
        if not won:
            return "Prohibition ends"
        total = view["players"][won[0]]["final"].get("total", 0)
        verb = "wins" if len(won) == 1 else "win"
        return f"{and_list([who[s] for s in won])} {verb} with ${total}"
    if current is None or not 0 <= current < len(who):
        return "Mob War, Cops and payout" if phase == "luciano" else "waiting"
    if phase == "luciano":
        number = war_district(view)
        where = next((f" in {d['name']}" for d in view["districts"] if d["number"] == number), "")
        return f"Mob War{where} · {who[current]} defends"
    return f"{who[current]}'s turn"


def headline(view: View) -> str:
    """``1924 · Act 1, round 4 · Anna's turn`` (also ``… · Mob War · Ben defends``, ``… · Final scoring · …``).

    Plain text: the board message sets it in bold after the game's number and title (``cogs/publish.py``).
    """
    return f"{view['year']} · {stage(view)} · {status(view)}"


# --- the summary --------------------------------------------------------------------------------------------


def _space_words(space: dict[str, Any], who: list[str]) -> str | None:
    b = space.get("building")
    if b is None:
        return None
    marks = []
    if b.get("barrel"):
        marks.append("barrel")
    if b.get("family"):
        marks.append("Family")
    if not b.get("operating", True):
        marks.append("not Operating")
    extra = f" ({', '.join(marks)})" if marks else ""
    return f"{who[b['owner']]} {KIND_NAMES.get(b['kind'], b['kind'])}{extra}"


def district_words(d: dict[str, Any], who: list[str]) -> str | None:
    """``Little Italy: Ben Nightclub (barrel), 2 Mobster, Cop``; ``None`` for a district with nothing on it or one
    closed on this board side."""
    if not d.get("open", True) or not d["spaces"]:
        return None
    parts = [w for w in (_space_words(sp, who) for sp in d["spaces"]) if w]
    mob = sum(1 for sp in d["spaces"] if sp.get("mobster") and not sp.get("building"))
    if mob:
        parts.append(f"{mob} Mobster")
    if d.get("cop"):
        parts.append("Cop")
    elif d.get("cop_tile"):
        parts.append("Cop next")
    if d.get("war_tile"):
        parts.append("next war")
    if not parts:
        return None
    return f"{d['name']}: {', '.join(parts)}"


def _player_words(view: View, p: dict[str, Any]) -> str:
    lv = p.get("levels", {})
    levels = " ".join(f"{TRACK_NAMES[k][0] if k != 'strength' else 'Str'}{lv[k]}" for k in TRACK_NAMES if k in lv)
    bits = [
        f"${p['pocket']} pocket",
        f"{p['leverage']} Leverage",
        f"Infamy {p['infamy']}",
        f"{p['hand_count']} cards",
        f"{p['capos']} Capos",
        f"{p['goons']} Goons",
        levels,
    ]
    if p.get("helpers"):
        bits.append("Helpers " + ", ".join(h["name"] for h in p["helpers"]))
    marker = "▶ " if view.get("current") == p["seat"] and view["phase"] != "over" else ""
    return f"{marker}{p['name']}: " + " · ".join(bits)


def capo_places(view: View) -> dict[int, list[str]]:
    """Where each seat's Capos are this Act: ``{seat: ["Alderman", "booth 1", "Lucky's table", "Park 2"]}``."""
    out: dict[int, list[str]] = {}
    for pid, s in view.get("persons", {}).items():
        out.setdefault(s, []).append(person_name(pid))
    for k, s in enumerate(view.get("booths", [])):
        if s is not None:
            out.setdefault(s, []).append(f"booth {k + 1}")
    for s in view.get("first_place", []):
        out.setdefault(s, []).append("Lucky's table")
    for k, s in enumerate(view.get("park", [])):
        if s is not None:
            out.setdefault(s, []).append(f"Park {k + 1}")
    return dict(sorted(out.items()))


def summary(view: View) -> str:
    """The board in a few short lines (under ~1,500 characters): enough to play without the picture.

    Public information only: give it the spectator view.
    """
    who = names(view)
    order = view.get("order") or view.get("track") or []
    lines = ["Turn order: " + ", ".join(who[s] for s in order)]
    for zone in ZONE_NAMES:
        ds = [w for d in view["districts"] if d["zone"] == zone for w in [district_words(d, who)] if w]
        goal = next((g for g in view.get("zone_goals", []) if g["zone"] == zone), None)
        head = f"**{zone}**"
        if goal:
            head += f" (goal {zone_goal_text(goal)})"
        lines.append(f"{head}: " + ("; ".join(ds) if ds else "empty"))
    capos = capo_places(view)
    if capos:
        lines.append("Capos: " + "; ".join(f"{who[s]} at {', '.join(places)}" for s, places in capos.items()))
    ships = [
        f"{s['number']} {s['port_name']} {s['barrels']} barrels" + (f", {s['crate']}" if s.get("crate") else "")
        for s in view.get("ships", [])
    ]
    if ships:
        lines.append("Ships: " + "; ".join(ships))
    docks = []
    for zone, spaces in zip(ZONE_NAMES, view.get("docks", []), strict=False):
        held = Counter(s for s in spaces if s is not None)
        if held:
            docks.append(f"{zone} " + ", ".join(f"{who[s]} {n}" for s, n in sorted(held.items())))
    if docks:
        lines.append("Docks Family: " + "; ".join(docks))
    lines.extend(_player_words(view, p) for p in view["players"])
    if jo_words(view):
        lines.append(jo_words(view))
    return "\n".join(lines)


# --- private ------------------------------------------------------------------------------------------------


def hand_lines(hand: Sequence[dict[str, Any]]) -> list[str]:
    """A hand grouped by deck, one line per deck that has cards, in deck order: ``"**Party:** $3, Book ×2"``.

    Cards are sorted by name within their deck; the deck's name, which every card name repeats
    (``"Party: Book"``), is said once at the start of the line; identical cards are counted (``×2``).
    """
    by_deck: dict[str, Counter[str]] = {}
    for card in hand:
        deck = DECK_NAMES.get(card["deck"], str(card["deck"]))
        name = str(card["name"])
        short = name.removeprefix(f"{deck}: ")
        by_deck.setdefault(card["deck"], Counter())[short] += 1
    order = [d for d in DECK_NAMES if d in by_deck] + sorted(d for d in by_deck if d not in DECK_NAMES)
    lines = []
    for deck in order:
        counts = by_deck[deck]
        cards = [f"{n} ×{counts[n]}" if counts[n] > 1 else n for n in sorted(counts, key=str.casefold)]
        lines.append(f"**{DECK_NAMES.get(deck, deck)}:** " + ", ".join(cards))
    return lines


def private_note(view: View) -> str:
    """The viewing seat's Safe screen in words, to read at a glance on a phone: safe money, pocket and Books
    ready; the hand grouped by deck, one line each; the Helpers behind the screen.

    Reads only what the seat's own view holds for that seat (``safe``, ``hand``, ``screen`` are in the view of
    their owner only). ``""`` for the spectator view (nothing private in it).
    """
    seat = view.get("seat")
    if seat is None:
        return ""
    me = view["players"][seat]
    lines = [f"Your safe **${me.get('safe', 0)}** · pocket ${me['pocket']} · {me['books']} Books ready"]
    hand = me.get("hand", [])
    lines.append(
        f"**Your hand** · {len(hand)} card{'' if len(hand) == 1 else 's'}" if hand else "**Your hand**: no cards"
    )
    lines.extend(hand_lines(hand))
    screen = me.get("screen", [])
    if screen:
        lines.append("**Behind your screen**: " + ", ".join(f"{h['name']} ({h['bottle']})" for h in screen))
    lines.append("-# Only you see this: safe money, hand and the Helpers behind your screen are private.")
    return "\n".join(lines)


#: What a private question is about, in words that name nothing hidden (the board shows this instead of it).
PRIVATE_QUESTIONS = {
    "play": "chooses a card to play",
    "setup_card": "plays a card for its setup icon",
    "sell_or_party": "sells barrels or throws a party",
    "once_more": "uses a card's action once more",
    "discard_copy": "discards a card",
    "discard_raise": "discards a card to raise a level",
    "bagman": "chooses what the Bagman pays",
    "build": "chooses a building",
    "build_at": "chooses where to build",
    "setup_build": "opens their first building",
    "setup_at": "chooses where to open it",
    "upgrade": "chooses a building to upgrade",
    "hire_goons": "hires Goons",
    "hire_associate": "hires an Associate",
    "deliver": "delivers barrels",
    "sell": "sells barrels",
    "dock_buy": "buys barrels at the Docks",
    "defend": "decides how to defend in the Mob War",
    "protect": "chooses what to protect",
    "cook": "cooks the Books",
    "take_helper": "takes a Helper",
    "take_tile": "takes a City tile",
    "helper_use": "chooses a Helper to use",
    "ambush": "chooses a Ship to ambush",
}
