"""``/game``: open a table, join, leave, start, status, list, log, abandon. Works for every game.

The package: :mod:`.cog` (``LobbyCog``: the ``/game`` slash commands and their autocomplete) and :mod:`.actions`
(what they and the lobby's buttons do: the lobby message and thread, which game a command means, running a
service call, the log's pages). Every name other code uses is importable from here.
"""

from cogs.lobby.actions import LOBBY_ACTIONS, THREAD_ARCHIVE_MINUTES, WHICH_GAME, LobbyActions
from cogs.lobby.cog import IN_A_SERVER, LobbyCog

__all__ = ["IN_A_SERVER", "LOBBY_ACTIONS", "THREAD_ARCHIVE_MINUTES", "WHICH_GAME", "LobbyActions", "LobbyCog"]
