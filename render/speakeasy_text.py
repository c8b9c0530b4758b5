"""Speakeasy in words: the headline, a compact summary of the board (phones, screen readers), a seat's safe screen
and the final scoring. Also the printed words the pictures share (``render.speakeasy`` reads them from here).

Reads engine views only (``SpeakeasyGame().view(state, seat)``): the public texts take the spectator view, which
never holds safe money, hands or the Helpers behind a Safe screen, and they never look for them elsewhere.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from render.speakeasy_printed import (
    ACHIEVEMENT_NAMES,
    BOOTH_GIVES,
    BOOTHS,
    BOTTLE_NAMES,
    CITY_TILE_GIVES,
    CITY_TILE_SHORT,
    DECK_NAMES,
    HELPER_GIVES,
    KIND_NAMES,
    PARK_GIVES,
    PARK_GOAL_GIVES,
    PARK_GOALS,
    PARK_SPACES,
    PERSON_NAMES,
    PERSONS,
    PRIVATE_QUESTIONS,
    RANK_NAMES,
    SMALL_SIDE_BOOTHS,
    SOFT_BREAKS,
    TRACK_NAMES,
    TRACK_SHORT,
    ZONE_NAMES,
    achievement_name,
    bottle,
    breakable,
    card_term,
    crate_term,
    district_term,
    helper_later,
    helper_term,
    kind_term,
    location_term,
    mobster_term,
    person_name,
    rank_name,
    tile_gives,
    tile_term,
    zone_term,
)
from words import Words, words
from words.msg import Join, M, Msg, P, T

View = dict[str, Any]

# fmt: off
__all__ = [  # the printed words, re-exported
    "ACHIEVEMENT_NAMES", "BOOTH_GIVES", "BOOTHS", "BOTTLE_NAMES", "CITY_TILE_GIVES", "CITY_TILE_SHORT",
    "DECK_NAMES", "HELPER_GIVES", "KIND_NAMES", "PARK_GIVES", "PARK_GOAL_GIVES", "PARK_GOALS", "PARK_SPACES",
    "PERSON_NAMES", "PERSONS", "PRIVATE_QUESTIONS", "SOFT_BREAKS",
    "breakable", "RANK_NAMES", "SMALL_SIDE_BOOTHS", "TRACK_NAMES",
    "TRACK_SHORT", "ZONE_NAMES", "tile_gives", "helper_later", "bottle", "zone_term", "district_term",
    "card_term", "helper_term", "tile_term", "mobster_term", "crate_term", "location_term", "kind_term",
    "achievement_name", "rank_name", "person_name",
]
# fmt: on


def lang_words(view: View) -> Words:
    """The words of the view's language (``view["lang"]``: the table's, or the reader's for a private text)."""
    return words(view.get("lang"))


#: Infamy spaces with a Cook-the-Books target (the view lists only the spaces that hold a Book).
INFAMY_BOOK_SPACES = (7, 11, 15, 19, 23)


# --- shared words -------------------------------------------------------------------------------------------


def names(view: View) -> list[str]:
    """The players' names by seat."""
    return [str(p["name"]) for p in view["players"]]


def and_list(items: Sequence[str]) -> str:
    """``a, b and c`` (in English; ``Join`` says it in the reader's language)."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def jo_seat(view: View) -> int | None:
    """Jo's seat in a solo game, else ``None`` (``view["jo"]``, or a player marked ``bot``)."""
    jo = view.get("jo")
    if isinstance(jo, dict) and jo.get("seat") is not None:
        return int(jo["seat"])
    return next((int(p["seat"]) for p in view["players"] if p.get("bot")), None)


def jo_words(view: View) -> str:
    """Jo's public side in a few words: ``Jo (Standard): 5 cards left in his deck, 7 done``; ``""`` if no Jo."""
    jo = view.get("jo")
    if not isinstance(jo, dict):
        return ""
    if jo.get("difficulty_name"):
        level: Msg = T("speakeasy.term.jo_level", str(jo["difficulty_name"]))
    else:
        level = M("render.speakeasy.jo.level", "difficulty {n}", n=jo.get("difficulty", "?"))
    seat = jo_seat(view)
    name = view["players"][seat]["name"] if seat is not None else "Jo"
    n = int(jo.get("deck_count", 0))
    return lang_words(view)(
        P(
            "render.speakeasy.jo",
            "{name} ({level}): {n} card left in his deck, {done} done",
            "{name} ({level}): {n} cards left in his deck, {done} done",
            n,
            name=name,
            level=level,
            done=len(jo.get("done", [])),
        )
    )


def zone_goal_text(goal: dict[str, Any]) -> Msg:
    """``3 buildings``: what a Zone goal asks for (Operating buildings only)."""
    n = int(goal.get("number", 0))
    kind = goal.get("type", "")
    if kind == "districts":
        return P("render.speakeasy.zone_goal", "buildings in {n} district", "buildings in {n} districts", n)
    if kind == "buildings":
        return P("render.speakeasy.zone_goal", "{n} building", "{n} buildings", n)
    if kind == "barrels":
        return P("render.speakeasy.zone_goal", "{n} barrel", "{n} barrels", n)
    if kind == "protected":
        return P("render.speakeasy.zone_goal", "{n} Protected building", "{n} Protected buildings", n)
    return M("render.speakeasy.zone_goal.other", "{n} {kind}", n=n, kind=kind)


def park_goal_text(goal: dict[str, Any]) -> Msg | str:
    """What a Central Park Goal tile asks for and, after a colon, what it gives (the view's own words for a tile
    the pictures do not know)."""
    tile = str(goal.get("tile"))
    want, gives = PARK_GOALS.get(tile), PARK_GOAL_GIVES.get(tile)
    if want is None or gives is None:
        return str(goal.get("text") or tile)
    return M("render.speakeasy.park_goal.line", "{goal}: {reward}", goal=want, reward=gives)


def stage(view: View) -> Msg:
    """``Act 1, round 4``, ``Setup Round``, ``Lucky Luciano phase``, ``Final scoring``."""
    phase = view["phase"]
    if phase == "setup":
        return M("render.speakeasy.stage", "Setup Round")
    if phase == "luciano":
        return M("render.speakeasy.stage", "Lucky Luciano phase after Act {act}", act=view["act"])
    if phase == "over":
        return M("render.speakeasy.stage", "Final scoring")
    return M("render.speakeasy.stage", "Act {act}, round {round}", act=view["act"], round=view["round"])


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


def status(view: View) -> Msg:
    """Whose turn, or what the table is doing: ``Anna's turn``, ``Mob War · Ben defends``, ``Anna wins``."""
    who = names(view)
    current = view.get("current")
    phase = view["phase"]
    if phase == "over":
        won = winners(view)
        if not won:
            return M("render.speakeasy.status", "Prohibition ends")
        total = view["players"][won[0]]["final"].get("total", 0)
        return P(
            "render.speakeasy.status.won",
            "{names} wins with ${total}",
            "{names} win with ${total}",
            len(won),
            names=Join([who[s] for s in won]),
            total=total,
        )
    if current is None or not 0 <= current < len(who):
        if phase == "luciano":
            return M("render.speakeasy.status", "Mob War, Cops and payout")
        return M("render.speakeasy.status", "waiting")
    if phase == "luciano":
        number = war_district(view)
        where = next((d["name"] for d in view["districts"] if d["number"] == number), None)
        if where is None:
            return M("render.speakeasy.status.war", "Mob War · {name} defends", name=who[current])
        return M(
            "render.speakeasy.status.war",
            "Mob War in {district} · {name} defends",
            district=district_term(where),
            name=who[current],
        )
    return M("render.speakeasy.status.turn", "{name}'s turn", name=who[current])


def headline(view: View) -> str:
    """``1924 · Act 1, round 4 · Anna's turn`` (also ``… · Mob War · Ben defends``, ``… · Final scoring · …``), in
    the view's language.

    Plain text: the board message sets it in bold after the game's number and title (``cogs/publish/story.py``).
    """
    msg = M(
        "render.speakeasy.headline",
        "{year} · {stage} · {status}",
        year=view["year"],
        stage=stage(view),
        status=status(view),
    )
    return lang_words(view)(msg)


# --- the summary --------------------------------------------------------------------------------------------


def _space_words(space: dict[str, Any], who: list[str]) -> Msg | None:
    b = space.get("building")
    if b is None:
        return None
    marks = []
    if b.get("barrel"):
        marks.append(M("render.speakeasy.summary.mark", "barrel"))
    if b.get("family"):
        marks.append(M("render.speakeasy.summary.mark", "Family"))
    if not b.get("operating", True):
        marks.append(M("render.speakeasy.summary.mark", "not Operating"))
    owner, kind = who[b["owner"]], kind_term(b["kind"])
    if marks:
        return M(
            "render.speakeasy.summary.building",
            "{owner} {kind} ({marks})",
            owner=owner,
            kind=kind,
            marks=Join(marks, "comma"),
        )
    return M("render.speakeasy.summary.building", "{owner} {kind}", owner=owner, kind=kind)


def district_words(d: dict[str, Any], who: list[str]) -> Msg | None:
    """``Little Italy: Ben Nightclub (barrel), 2 Mobster, Cop``; ``None`` for a district with nothing on it or one
    closed on this board side."""
    if not d.get("open", True) or not d["spaces"]:
        return None
    parts = [w for w in (_space_words(sp, who) for sp in d["spaces"]) if w]
    mob = sum(1 for sp in d["spaces"] if sp.get("mobster") and not sp.get("building"))
    if mob:
        parts.append(P("render.speakeasy.summary.mobsters", "{n} Mobster", "{n} Mobsters", mob))
    if d.get("cop"):
        parts.append(M("render.speakeasy.summary.mark", "Cop"))
    elif d.get("cop_tile"):
        parts.append(M("render.speakeasy.summary.mark", "Cop next"))
    if d.get("war_tile"):
        parts.append(M("render.speakeasy.summary.mark", "next war"))
    if not parts:
        return None
    return M(
        "render.speakeasy.summary.district",
        "{district}: {parts}",
        district=district_term(d["name"]),
        parts=Join(parts, "comma"),
    )


def _player_words(view: View, p: dict[str, Any], w: Words) -> str:
    lv = p.get("levels", {})
    levels = " ".join(f"{w(TRACK_SHORT[k])}{lv[k]}" for k in TRACK_SHORT if k in lv)
    bits = [
        M("render.speakeasy.summary.pocket", "${n} pocket", n=p["pocket"]),
        M("render.speakeasy.summary.leverage", "{n} Leverage", n=p["leverage"]),
        M("render.speakeasy.summary.infamy", "Infamy {n}", n=p["infamy"]),
        P("render.speakeasy.summary.cards", "{n} card", "{n} cards", p["hand_count"]),
        P("render.speakeasy.summary.capos", "{n} Capo", "{n} Capos", p["capos"]),
        P("render.speakeasy.summary.goons", "{n} Goon", "{n} Goons", p["goons"]),
        levels,
    ]
    if p.get("helpers"):
        helpers = Join([helper_term(h["name"]) for h in p["helpers"]], "comma")
        bits.append(M("render.speakeasy.summary.helpers", "Helpers {helpers}", helpers=helpers))
    marker = "▶ " if view.get("current") == p["seat"] and view["phase"] != "over" else ""
    return f"{marker}{p['name']}: " + " · ".join(w(b) for b in bits)


def capo_places(view: View) -> dict[int, list[Msg | str]]:
    """Where each seat's Capos are this Act: ``{seat: ["Alderman", "booth 1", "Lucky's table", "Park 2"]}``."""
    out: dict[int, list[Msg | str]] = {}
    for pid, s in view.get("persons", {}).items():
        out.setdefault(s, []).append(person_name(pid))
    for k, s in enumerate(view.get("booths", [])):
        if s is not None:
            out.setdefault(s, []).append(M("render.speakeasy.summary.booth", "booth {n}", n=k + 1))
    for s in view.get("first_place", []):
        out.setdefault(s, []).append(T("speakeasy.term.person", "Lucky's table"))
    for k, s in enumerate(view.get("park", [])):
        if s is not None:
            out.setdefault(s, []).append(M("render.speakeasy.summary.park", "Park {n}", n=k + 1))
    return dict(sorted(out.items()))


def summary(view: View) -> str:
    """The board in a few short lines (under ~1,500 characters): enough to play without the picture, in the view's
    language.

    Public information only: give it the spectator view.
    """
    w = lang_words(view)
    who = names(view)
    order = view.get("order") or view.get("track") or []
    lines = [w(M("render.speakeasy.summary.order", "Turn order: {names}", names=", ".join(who[s] for s in order)))]
    for zone in ZONE_NAMES:
        ds = [x for d in view["districts"] if d["zone"] == zone for x in [district_words(d, who)] if x]
        goal = next((g for g in view.get("zone_goals", []) if g["zone"] == zone), None)
        body = "; ".join(w(x) for x in ds) if ds else w(M("render.speakeasy.summary.empty", "empty"))
        if goal:
            line = M(
                "render.speakeasy.summary.zone",
                "**{zone}** (goal {goal}): {body}",
                zone=zone_term(zone),
                goal=zone_goal_text(goal),
                body=body,
            )
        else:
            line = M("render.speakeasy.summary.zone", "**{zone}**: {body}", zone=zone_term(zone), body=body)
        lines.append(w(line))
    capos = capo_places(view)
    if capos:
        at = [
            w(M("render.speakeasy.summary.capo", "{name} at {places}", name=who[s], places=Join(places, "comma")))
            for s, places in capos.items()
        ]
        lines.append(w(M("render.speakeasy.summary.capos_line", "Capos: {places}", places="; ".join(at))))
    ships = []
    for s in view.get("ships", []):
        args = {"number": s["number"], "port": district_term(s["port_name"])}
        if s.get("crate"):
            ship = P(
                "render.speakeasy.summary.ship",
                "{number} {port} {n} barrel, {crate}",
                "{number} {port} {n} barrels, {crate}",
                s["barrels"],
                crate=crate_term(s["crate"]),
                **args,
            )
        else:
            ship = P(
                "render.speakeasy.summary.ship",
                "{number} {port} {n} barrel",
                "{number} {port} {n} barrels",
                s["barrels"],
                **args,
            )
        ships.append(w(ship))
    if ships:
        lines.append(w(M("render.speakeasy.summary.ships", "Ships: {ships}", ships="; ".join(ships))))
    docks = []
    for zone, spaces in zip(ZONE_NAMES, view.get("docks", []), strict=False):
        held = Counter(s for s in spaces if s is not None)
        if held:
            docks.append(f"{w(zone_term(zone))} " + ", ".join(f"{who[s]} {n}" for s, n in sorted(held.items())))
    if docks:
        lines.append(w(M("render.speakeasy.summary.docks", "Docks Family: {docks}", docks="; ".join(docks))))
    lines.extend(_player_words(view, p, w) for p in view["players"])
    if jo_words(view):
        lines.append(jo_words(view))
    return "\n".join(lines)


# --- private ------------------------------------------------------------------------------------------------


def hand_lines(hand: Sequence[dict[str, Any]], w: Words | None = None) -> list[str]:
    """A hand grouped by deck, one line per deck that has cards, in deck order: ``"**Party:** $3, Book ×2"``.

    Cards are sorted by name within their deck; the deck's name, which every card name repeats
    (``"Party: Book"``), is said once at the start of the line; identical cards are counted (``×2``). In the
    words ``w`` (English if not given).
    """
    w = w or words()
    by_deck: dict[str, Counter[str]] = {}
    for card in hand:
        deck = w(DECK_NAMES[card["deck"]]) if card["deck"] in DECK_NAMES else str(card["deck"])
        name = w(card_term(str(card["name"])))
        short = name.removeprefix(f"{deck}: ")
        by_deck.setdefault(card["deck"], Counter())[short] += 1
    order = [d for d in DECK_NAMES if d in by_deck] + sorted(d for d in by_deck if d not in DECK_NAMES)
    lines = []
    for deck in order:
        counts = by_deck[deck]
        cards = [f"{n} ×{counts[n]}" if counts[n] > 1 else n for n in sorted(counts, key=str.casefold)]
        title = w(DECK_NAMES[deck]) if deck in DECK_NAMES else deck
        lines.append(f"**{title}:** " + ", ".join(cards))
    return lines


def helper_with_bottle(h: dict[str, Any]) -> Msg:
    """``Driver (moonshine)``: a Helper and its bottle."""
    return M(
        "render.speakeasy.helper_bottle",
        "{helper} ({bottle})",
        helper=helper_term(str(h["name"])),
        bottle=bottle(str(h["bottle"])),
    )


def private_note(view: View) -> str:
    """The viewing seat's Safe screen in words, to read at a glance on a phone: safe money, pocket and Books
    ready; the hand grouped by deck, one line each; the Helpers behind the screen (in the view's language: the
    reader's).

    Reads only what the seat's own view holds for that seat (``safe``, ``hand``, ``screen`` are in the view of
    their owner only). ``""`` for the spectator view (nothing private in it).
    """
    seat = view.get("seat")
    if seat is None:
        return ""
    w = lang_words(view)
    me = view["players"][seat]
    lines = [
        w(
            P(
                "render.speakeasy.screen.safe",
                "Your safe **${safe}** · pocket ${pocket} · {n} Book ready",
                "Your safe **${safe}** · pocket ${pocket} · {n} Books ready",
                me["books"],
                safe=me.get("safe", 0),
                pocket=me["pocket"],
            )
        )
    ]
    hand = me.get("hand", [])
    if hand:
        lines.append(
            w(P("render.speakeasy.screen.hand", "**Your hand** · {n} card", "**Your hand** · {n} cards", len(hand)))
        )
    else:
        lines.append(w(M("render.speakeasy.screen.hand", "**Your hand**: no cards")))
    lines.extend(hand_lines(hand, w))
    screen = me.get("screen", [])
    if screen:
        helpers = Join([helper_with_bottle(h) for h in screen], "comma")
        lines.append(w(M("render.speakeasy.screen.helpers", "**Behind your screen**: {helpers}", helpers=helpers)))
    lines.append(
        w(
            M(
                "render.speakeasy.screen.private",
                "-# Only you see this: safe money, hand and the Helpers behind your screen are private.",
            )
        )
    )
    return "\n".join(lines)
