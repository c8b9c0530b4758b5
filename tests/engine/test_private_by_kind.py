"""Which questions are private is decided by their kind, never by a hidden value (issue "trust").

The differential test: at every step of self-play games of both games and every player count, the public side
of the open questions (``Prompt.public``: who is asked what kind of question, and the words and options of a
public one) and the spectator's view must be the same in the real game and in a copy whose hidden parts were
redrawn (``Game.scramble(state, None, rng)``). If they differ, a spectator could learn something hidden (a safe,
a hand) from the board. Speakeasy design §4 (the safe is hidden) and seed 000:19.7 (the hand and the screen);
Omerta decisions file (a drawn card is seen by its holder only; the Safecracker alone sees the Safe).
"""

from __future__ import annotations

import random

import pytest

from engine.omerta.game import OmertaGame
from engine.speakeasy.game import SpeakeasyGame
from tests.engine.differential import copy_state, public_after, public_side, self_play

SPEAKEASY_GAMES = 24
OMERTA_GAMES = 60
SECRET_GAMES = 8


def _public_leaks(game, players: int, games: int, seed: int) -> tuple[int, int, list[str]]:
    """(steps checked, steps whose public side differs from a scrambled copy's, the first few differences). A
    public question with an option that costs money counts as a difference too (the safe may pay for it)."""
    rng = random.Random(seed)
    steps = leaks = 0
    notes: list[str] = []
    for g in range(games):
        # Speakeasy: every other game with settle=auto, the table answering forced questions
        options = {"settle": "auto" if g % 2 else "off"} if isinstance(game, SpeakeasyGame) else {}
        for t, state, _choice in self_play(game, players, seed + g, options):
            steps += 1
            costly = [p.kind for p in game.prompts(state) if not p.secret and any(o.cost for o in p.options)]
            if costly:
                leaks += 1
                notes.append(f"game {seed + g} step {t}: public {costly} with a cost")
                continue
            real = public_side(game, state)
            other = public_side(game, game.scramble(state, None, rng))
            if real != other:
                leaks += 1
                if len(notes) < 5:
                    kinds = ([p.kind for p in real[0]], [p.kind for p in other[0]])
                    notes.append(f"game {seed + g} step {t}: prompts {kinds}, view equal: {real[1] == other[1]}")
    return steps, leaks, notes


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_speakeasy_public_side_never_depends_on_hidden_values(players):
    steps, leaks, notes = _public_leaks(SpeakeasyGame(), players, SPEAKEASY_GAMES, 7000 + 100 * players)
    assert steps > SPEAKEASY_GAMES * 50
    assert leaks == 0, f"{leaks} of {steps} steps: {notes}"


@pytest.mark.parametrize("players", [3, 4, 5])
def test_omerta_public_side_never_depends_on_hidden_values(players):
    steps, leaks, notes = _public_leaks(OmertaGame(), players, OMERTA_GAMES, 8000 + 100 * players)
    assert steps > OMERTA_GAMES * 20
    assert leaks == 0, f"{leaks} of {steps} steps: {notes}"


def _redraw_secrets(game: SpeakeasyGame, state, rng: random.Random):
    """A copy in which only what the players keep to themselves changes: the cards in hands and the Helpers behind
    screens trade places among the players (each keeps as many), and every safe holds another amount."""
    new = copy_state(game, state)
    jo = new.jo.seat if new.jo is not None else None
    players = [p for i, p in enumerate(new.players) if i != jo]
    for field in ("hand", "screen"):
        pool = [x for p in players for x in getattr(p, field)]
        rng.shuffle(pool)
        for p in players:
            mine = getattr(p, field)
            mine[:], pool = pool[: len(mine)], pool[len(mine) :]
    for p in players:
        p.safe = rng.randrange(60)
    return new


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_speakeasy_what_happens_next_never_depends_on_a_players_secrets(players):
    """Design §4, seed 000:19.7: after any choice, what everyone sees (the next question's public side and the
    spectator view) is the same whatever the hands, screens and safes hold, as long as the choice is legal there:
    a step is never asked or skipped because of a hidden card or dollar. (The final scoring shows every safe, so
    the last step of a game is left out.)"""
    game = SpeakeasyGame()
    rng = random.Random(players)
    steps = leaks = 0
    notes: list[str] = []
    for g in range(SECRET_GAMES):
        for t, state, choice in self_play(game, players, 9000 + 100 * players + g):
            real = public_after(game, state, choice)
            other = public_after(game, _redraw_secrets(game, state, rng), choice)
            if other is None or real is None or real[1]["phase"] == "over":
                continue
            steps += 1
            if real != other:
                leaks += 1
                if len(notes) < 5:
                    kinds = [p.kind for p in real[0]], [p.kind for p in other[0]]
                    notes.append(f"game {g} step {t} {choice}: next {kinds}")
    assert steps > SECRET_GAMES * 40
    assert leaks == 0, f"{leaks} of {steps} steps: {notes}"
