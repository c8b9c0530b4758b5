"""Who may ask about a game, from where (issue 22): ids in range, the scopes of ``Core.load_for`` (what a seated
player may do from a DM, what only the game's own server may do), the host's rights, and their refusals."""

from __future__ import annotations

from collections.abc import Callable

from engine.msg import M, Msg
from service.notice import ServiceError

#: SQLite's integers (and Discord's snowflakes) end below 2^63: a larger number cannot be a real id.
MAX_ID = 2**63


def no_game(game_id: object) -> Msg:
    """The refusal for a game number that names no game."""
    return M("table.err.no_game", "There is no game #{game}. Use /game list to see the games here.", game=game_id)


def no_game_here(game_id: object) -> Msg:
    """The refusal for a game of another server (a number typed, or a button forged, elsewhere)."""
    return M(
        "table.err.no_game_here",
        "There is no game #{game} in this server. Use /game list to see the games here.",
        game=game_id,
    )


def no_seat_in_dm(game_id: object) -> Msg:
    """The refusal in a DM for a game where the user holds no seat (the same for a game that does not exist)."""
    return M(
        "table.err.dm_no_seat",
        "You have no seat in game #{game}; run this in the game's server.",
        game=game_id,
    )


def server_only(game_id: object) -> Msg:
    """The refusal in a DM of what only the game's own server may do (a seated player asking)."""
    return M(
        "table.err.dm_server_only",
        "That works only in game #{game}'s own server, not in a DM; run it there.",
        game=game_id,
    )


#: ``Core.load_for`` scopes: what a seated player may do from a DM too (look at their game, move, undo, reclaim)
SEAT = "seat"
#: what only the game's own server may do (join, open, export, every host tool)
SERVER = "server"


#: What only the host or an admin may do, each refusal a whole sentence (word order differs by language).
HOST_ONLY: dict[str, Callable[[int], Msg]] = {
    "start": lambda g: M("table.err.host.start", "Only the host or a server admin can start game #{game}.", game=g),
    "abandon": lambda g: M(
        "table.err.host.abandon", "Only the host or a server admin can abandon game #{game}.", game=g
    ),
    "skip": lambda g: M(
        "table.err.host.skip", "Only the host or a server admin can skip a turn in game #{game}.", game=g
    ),
    "substitute": lambda g: M(
        "table.err.host.substitute", "Only the host or a server admin can substitute a player in game #{game}.", game=g
    ),
    "addbot": lambda g: M(
        "table.err.host.addbot", "Only the host or a server admin can add a bot to game #{game}.", game=g
    ),
    "removebot": lambda g: M(
        "table.err.host.removebot", "Only the host or a server admin can remove a bot from game #{game}.", game=g
    ),
    "botseat": lambda g: M(
        "table.err.host.botseat", "Only the host or a server admin can hand a seat to a bot in game #{game}.", game=g
    ),
}


def check_id(value: int, what: str = "game") -> int:
    """A game, server, channel or user id: a positive whole number below 2^63, else a clear refusal."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value < MAX_ID:
        if what == "game":
            raise ServiceError(no_game(value))
        if what == "server":
            raise ServiceError(M("table.err.bad_server_id", "{value} is not a valid server id.", value=value))
        if what == "channel":
            raise ServiceError(M("table.err.bad_channel_id", "{value} is not a valid channel id.", value=value))
        raise ServiceError(M("table.err.bad_id", "{value} is not a valid id.", value=value))
    return value
