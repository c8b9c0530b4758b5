"""Speakeasy's printed words: the names and short texts the pictures and the texts print, as messages (the view
gives ids and kinds only; the words come from data/speakeasy, and tests/render/test_speakeasy_printed_words.py
checks them against the data files). ``render.speakeasy_text`` re-exports them.
"""

from __future__ import annotations

from words.msg import M, Msg, T

ZONE_NAMES = ("Downtown", "Midtown", "Uptown")
KIND_NAMES = {
    "stills": T("speakeasy.term.building", "Stills"),
    "speakeasy": T("speakeasy.term.building", "Speakeasy"),
    "nightclub": T("speakeasy.term.building", "Nightclub"),
    "casino": T("speakeasy.term.building", "Casino"),
}
#: The tracks' short names (the player board's rows).
TRACK_NAMES = {
    "vip": M("render.speakeasy.track", "VIP"),
    "party": M("render.speakeasy.track", "Party"),
    "stills": M("render.speakeasy.track", "Stills"),
    "fleet": M("render.speakeasy.track", "Fleet"),
    "strength": M("render.speakeasy.track", "Strength"),
}
#: The tracks in a letter or three (the summary's levels: ``V2 P1 S3 F1 Str2``).
TRACK_SHORT = {
    "vip": M("render.speakeasy.track_short", "V"),
    "party": M("render.speakeasy.track_short", "P"),
    "stills": M("render.speakeasy.track_short", "S"),
    "fleet": M("render.speakeasy.track_short", "F"),
    "strength": M("render.speakeasy.track_short", "Str"),
}
DECK_NAMES = {
    "vip": T("speakeasy.term.track", "VIP Room"),
    "party": T("speakeasy.term.track", "Party"),
    "stills": T("speakeasy.term.track", "Stills"),
    "fleet": T("speakeasy.term.track", "Fleet"),
}
#: The Helpers' bottles (data/speakeasy/helpers.toml; tests/render check every bottle has its words).
BOTTLE_NAMES = {
    "moonshine": M("render.speakeasy.bottle", "moonshine"),
    "gin": M("render.speakeasy.bottle", "gin"),
    "rum": M("render.speakeasy.bottle", "rum"),
    "whiskey": M("render.speakeasy.bottle", "whiskey"),
    "champagne": M("render.speakeasy.bottle", "champagne"),
}

#: The Persons of Interest as printed (id, location, name), location by location, left Person first.
#: The view gives only the ids of the Persons holding a Capo; these are the printed words for every Person
#: (shown as their terms, ``speakeasy.term.person`` and ``speakeasy.term.location``).
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
BOOTHS: tuple[tuple[int, Msg], ...] = (
    (0, M("render.speakeasy.gives_short", "2 Leverage")),
    (1, M("render.speakeasy.gives_short", "Helper")),
    (2, M("render.speakeasy.gives_short", "+1 level")),
    (3, M("render.speakeasy.gives_short", "City tile, Book")),
)
PARK_SPACES: tuple[Msg, ...] = (
    M("render.speakeasy.gives_short", "$5"),
    M("render.speakeasy.gives_short", "2 Leverage"),
    M("render.speakeasy.gives_short", "Book, card"),
)
#: The same rewards whole (the engine's words), for the pictures that have room to say them.
BOOTH_GIVES: tuple[Msg, ...] = (
    M("render.speakeasy.gives", "2 Leverage"),
    M("render.speakeasy.gives", "1 Helper card"),
    M("render.speakeasy.gives", "+1 level of your choice"),
    M("render.speakeasy.gives", "1 City tile, 1 Book"),
)
PARK_GIVES: tuple[Msg, ...] = (
    M("render.speakeasy.gives", "$5"),
    M("render.speakeasy.gives", "2 Leverage"),
    M("render.speakeasy.gives", "1 Book, 1 Operations card"),
)
#: Open booths on the 1-2 player side (the 3-4 side opens all).
SMALL_SIDE_BOOTHS = 3

#: Central Park Goal tiles: what you must have (the view names the tile only).
PARK_GOALS: dict[str, Msg] = {
    "A1": M("render.speakeasy.park_goal", "3 Operating Speakeasies"),
    "A2": M("render.speakeasy.park_goal", "Operating buildings in 3 Zones"),
    "A3": M("render.speakeasy.park_goal", "3 Goons"),
    "A4": M("render.speakeasy.park_goal", "3 barrels beside your buildings"),
    "A5": M("render.speakeasy.park_goal", "2 Family Members at the Docks"),
    "A6": M("render.speakeasy.park_goal", "4 City tiles"),
    "B1": M("render.speakeasy.park_goal", "a Nightclub and a Casino"),
    "B2": M("render.speakeasy.park_goal", "3 Protected buildings"),
    "B3": M("render.speakeasy.park_goal", "2 Operations levels at 3+"),
    "B4": M("render.speakeasy.park_goal", "Strength level 3+"),
    "B5": M("render.speakeasy.park_goal", "3 Helper cards"),
    "C1": M("render.speakeasy.park_goal", "2 Casinos"),
    "C2": M("render.speakeasy.park_goal", "Operating buildings in 6 districts"),
    "C3": M("render.speakeasy.park_goal", "an Operations level at 5"),
    "C4": M("render.speakeasy.park_goal", "5 Protected buildings"),
}

#: What each City tile gives when taken (data/speakeasy/city_tiles.toml, in the engine's words; the view names the
#: kind only). The pictures print these so a tile says what it is worth, not just its name.
CITY_TILE_GIVES: dict[str, Msg] = {
    "Cash": M("render.speakeasy.gives", "$3"),
    "Favours": M("render.speakeasy.gives", "2 Leverage"),
    "Ledger": M("render.speakeasy.gives", "1 Book"),
    "Muscle": M("render.speakeasy.gives", "1 free Goon"),
    "Contacts": M("render.speakeasy.gives", "1 Operations card"),
    "Cousin": M("render.speakeasy.gives", "1 Family Member"),
    "Cellar": M("render.speakeasy.gives", "1 barrel (cellar)"),
    "Permit": M("render.speakeasy.gives", "+1 level of your choice"),
    "Regular": M("render.speakeasy.gives", "1 Helper card"),
    "Nest egg": M("render.speakeasy.gives", "$5 to the safe"),
}

#: Each Helper card's halves (data/speakeasy/helpers.toml): what it gives when taken, and later (its lower half,
#: used at the start of a later turn).
HELPER_GIVES: dict[str, tuple[Msg, Msg]] = {
    "Driver": (M("render.speakeasy.gives", "1 Leverage"), M("render.speakeasy.gives", "Deliver up to 2 barrels")),
    "Chemist": (
        M("render.speakeasy.gives", "1 barrel on the Stills area"),
        M("render.speakeasy.gives", "Produce barrels"),
    ),
    "Dock Worker": (
        M("render.speakeasy.gives", "1 Family Member to the Docks"),
        M("render.speakeasy.gives", "buy up to 2 Ship barrels at $1"),
    ),
    "Runner": (M("render.speakeasy.gives", "$2"), M("render.speakeasy.gives", "deliver 1 Ship barrel free")),
    "Bartender": (M("render.speakeasy.gives", "$2"), M("render.speakeasy.gives", "Sell up to 2 barrels")),
    "Architect": (
        M("render.speakeasy.gives", "1 Operations card"),
        M("render.speakeasy.gives", "Upgrade one building, $2 less"),
    ),
    "Informant": (M("render.speakeasy.gives", "1 Leverage"), M("render.speakeasy.gives", "move a face-down Cop tile")),
    "Tailor": (M("render.speakeasy.gives", "1 Leverage"), M("render.speakeasy.gives", "1 Family Member")),
    "Bouncer": (M("render.speakeasy.gives", "1 free Goon"), M("render.speakeasy.gives", "2 free Goons")),
    "Bagman": (M("render.speakeasy.gives", "$3"), M("render.speakeasy.gives", "move up to $6 from safe to pocket")),
    "Enforcer": (M("render.speakeasy.gives", "1 free Goon"), M("render.speakeasy.gives", "+1 Strength")),
    "Cabbie": (M("render.speakeasy.gives", "1 Operations card"), M("render.speakeasy.gives", "1 City tile")),
    "Bookkeeper": (M("render.speakeasy.gives", "1 Book"), M("render.speakeasy.gives", "Cook the Books with 1 Book")),
    "Croupier": (M("render.speakeasy.gives", "1 Leverage"), M("render.speakeasy.gives", "$3 per Operating Casino")),
    "Ward Boss": (M("render.speakeasy.gives", "1 Book"), M("render.speakeasy.gives", "+1 Operations level")),
    "Go-between": (M("render.speakeasy.gives", "2 Leverage"), M("render.speakeasy.gives", "hire an Associate")),
    "Lawyer": (M("render.speakeasy.gives", "2 Leverage"), M("render.speakeasy.gives", "protect 1 building free")),
    "Singer": (M("render.speakeasy.gives", "$2"), M("render.speakeasy.gives", "Sell with Party value +2")),
    "Showgirl": (M("render.speakeasy.gives", "$3"), M("render.speakeasy.gives", "2 Leverage, 1 Operations card")),
    "Accountant": (M("render.speakeasy.gives", "1 Book"), M("render.speakeasy.gives", "1 Book, $3 to the safe")),
}


#: The same, short, for a small tile on the picture (the legend and the summary keep the long words).
CITY_TILE_SHORT: dict[str, Msg] = {
    "Cash": M("render.speakeasy.gives_short", "$3"),
    "Favours": M("render.speakeasy.gives_short", "2 Leverage"),
    "Ledger": M("render.speakeasy.gives_short", "1 Book"),
    "Muscle": M("render.speakeasy.gives_short", "1 Goon"),
    "Contacts": M("render.speakeasy.gives_short", "1 card"),
    "Cousin": M("render.speakeasy.gives_short", "1 Family"),
    "Cellar": M("render.speakeasy.gives_short", "1 barrel"),
    "Permit": M("render.speakeasy.gives_short", "+1 level"),
    "Regular": M("render.speakeasy.gives_short", "1 Helper"),
    "Nest egg": M("render.speakeasy.gives_short", "$5 safe"),
}


#: The solo Stretch Goals' printed names (data/speakeasy/jo.toml; an unknown one: its id in title case).
ACHIEVEMENT_NAMES: dict[str, Msg] = {
    "untouchable": M("render.speakeasy.achievement", "Untouchable"),
    "kingpin": M("render.speakeasy.achievement", "Kingpin"),
    "high_roller": M("render.speakeasy.achievement", "High Roller"),
    "book_cooker": M("render.speakeasy.achievement", "Book Cooker"),
    "rum_pirate": M("render.speakeasy.achievement", "Rum Pirate"),
    "family_business": M("render.speakeasy.achievement", "Family Business"),
    "connoisseur": M("render.speakeasy.achievement", "Connoisseur"),
    "public_enemy": M("render.speakeasy.achievement", "Public Enemy"),
}
#: The solo ranks (data/speakeasy/jo.toml), by their printed names.
RANK_NAMES: dict[str, Msg] = {
    "Associate": M("render.speakeasy.rank", "Associate"),
    "Soldier": M("render.speakeasy.rank", "Soldier"),
    "Capo": M("render.speakeasy.rank", "Capo"),
    "Underboss": M("render.speakeasy.rank", "Underboss"),
    "Godfather": M("render.speakeasy.rank", "Godfather"),
    "Goon": M("render.speakeasy.rank", "Goon"),
}


#: What each Central Park Goal tile gives (data/speakeasy/goals.toml, in the engine's words; tests/render check).
PARK_GOAL_GIVES: dict[str, Msg] = {
    "A1": M("render.speakeasy.gives", "2 Leverage"),
    "A2": M("render.speakeasy.gives", "1 Operations card"),
    "A3": M("render.speakeasy.gives", "1 free Goon"),
    "A4": M("render.speakeasy.gives", "$3"),
    "A5": M("render.speakeasy.gives", "2 Leverage"),
    "A6": M("render.speakeasy.gives", "1 Book"),
    "B1": M("render.speakeasy.gives", "1 Helper card"),
    "B2": M("render.speakeasy.gives", "1 Family Member"),
    "B3": M("render.speakeasy.gives", "+1 level of your choice"),
    "B4": M("render.speakeasy.gives", "2 free Goons"),
    "B5": M("render.speakeasy.gives", "$5 to the safe"),
    "C1": M("render.speakeasy.gives", "$10 to the safe"),
    "C2": M("render.speakeasy.gives", "$10 to the safe"),
    "C3": M("render.speakeasy.gives", "$10 to the safe"),
    "C4": M("render.speakeasy.gives", "$10 to the safe"),
}


#: What a private question is about, in words that name nothing hidden (the board shows this instead of it).
PRIVATE_QUESTIONS: dict[str, Msg] = {
    "play": M("render.speakeasy.private", "chooses a card to play"),
    "setup_card": M("render.speakeasy.private", "plays a card for its setup icon"),
    "sell_or_party": M("render.speakeasy.private", "sells barrels or throws a party"),
    "once_more": M("render.speakeasy.private", "uses a card's action once more"),
    "discard_copy": M("render.speakeasy.private", "discards a card"),
    "discard_raise": M("render.speakeasy.private", "discards a card to raise a level"),
    "bagman": M("render.speakeasy.private", "chooses what the Bagman pays"),
    "build": M("render.speakeasy.private", "chooses a building"),
    "build_at": M("render.speakeasy.private", "chooses where to build"),
    "setup_build": M("render.speakeasy.private", "opens their first building"),
    "setup_at": M("render.speakeasy.private", "chooses where to open it"),
    "upgrade": M("render.speakeasy.private", "chooses a building to upgrade"),
    "hire_goons": M("render.speakeasy.private", "hires Goons"),
    "hire_associate": M("render.speakeasy.private", "hires an Associate"),
    "deliver": M("render.speakeasy.private", "delivers barrels"),
    "sell": M("render.speakeasy.private", "sells barrels"),
    "dock_buy": M("render.speakeasy.private", "buys barrels at the Docks"),
    "defend": M("render.speakeasy.private", "decides how to defend in the Mob War"),
    "protect": M("render.speakeasy.private", "chooses what to protect"),
    "cook": M("render.speakeasy.private", "cooks the Books"),
    "take_helper": M("render.speakeasy.private", "takes a Helper"),
    "take_tile": M("render.speakeasy.private", "takes a City tile"),
    "helper_use": M("render.speakeasy.private", "chooses a Helper to use"),
    "ambush": M("render.speakeasy.private", "chooses a Ship to ambush"),
}


def tile_gives(kind: str, short: bool = False) -> Msg | str:
    """What a City tile of ``kind`` gives (``""`` for a kind the pictures do not know); ``short``: in a word or
    two."""
    return (CITY_TILE_SHORT if short else CITY_TILE_GIVES).get(kind, "")


def helper_later(name: str) -> Msg | str:
    """A Helper's lower half: what it does on a later turn (``""`` if unknown)."""
    return HELPER_GIVES.get(name, ("", ""))[1]


def bottle(name: str) -> Msg | str:
    """A Helper's bottle in words (an unknown one as it is)."""
    return BOTTLE_NAMES.get(name, name)


def zone_term(zone: str) -> Msg:
    """A Zone's name (a term)."""
    return T("speakeasy.term.zone", zone)


def district_term(name: str) -> Msg:
    """A district's name from the view (a term)."""
    return T("speakeasy.term.district", name)


def card_term(name: str) -> Msg:
    """An Operations card's name from the view (a term)."""
    return T("speakeasy.term.card", name)


def helper_term(name: str) -> Msg:
    """A Helper's name from the view (a term)."""
    return T("speakeasy.term.helper", name)


def tile_term(kind: str) -> Msg:
    """A City tile's kind from the view (a term)."""
    return T("speakeasy.term.tile", kind)


def mobster_term(name: str) -> Msg:
    """A Mobster's name from the view (a term)."""
    return T("speakeasy.term.mobster", name)


def crate_term(name: str) -> Msg:
    """A Crate's name from the view (a term)."""
    return T("speakeasy.term.crate", name)


def location_term(name: str) -> Msg:
    """A location's name (a term)."""
    return T("speakeasy.term.location", name)


def kind_term(kind: str) -> Msg | str:
    """A building kind (``"nightclub"``) as its term."""
    return KIND_NAMES.get(kind, kind)


def achievement_name(aid: str) -> Msg | str:
    """``high_roller`` -> ``High Roller`` (the Stretch Goals' printed names)."""
    return ACHIEVEMENT_NAMES.get(aid, aid.replace("_", " ").title())


def rank_name(rank: str) -> Msg | str:
    """A solo rank's name in words (an unknown one as it is)."""
    return RANK_NAMES.get(rank, rank)


def person_name(pid: str) -> Msg | str:
    """A Person of Interest by id, as its term: ``Harbour Master``."""
    name = PERSON_NAMES.get(pid)
    return T("speakeasy.term.person", name) if name else pid.replace("_", " ").title()


#: Where long German words may break across lines in the pictures: a soft hyphen at the seam of the compound (the
#: wrapping would otherwise cut a word too long for its line at any letter: "Operation-skarte").
SOFT_BREAKS: dict[str, str] = {
    word.replace("|", ""): word.replace("|", "\u00ad")
    for word in (
        "Operations|karte",
        "Operations|karten",
        "Operations|stufe",
        "Operations|stufen",
        "Familien|mitglied",
        "Familien|mitglieder",
        "Stadt|plättchen",
        "Helfer|karte",
        "Helfer|karten",
        "Genehmigungs|beamter",
        "Bauamts|schreiber",
        "Schiffs|fass",
        "Schiffs|fässer",
        "Berüchtigt|heit",
        "Mobster-|Bezirks|plättchen",
        "Cop-|Plättchen",
    )
}


def breakable(text: str) -> str:
    """``text`` with soft hyphens where its long words may break (``SOFT_BREAKS``), for ``render.draw``'s
    wrapping."""
    out = []
    for word in text.split(" "):
        core = word.rstrip(",.;:)")
        out.append(SOFT_BREAKS.get(core, core) + word[len(core) :])
    return " ".join(out)
