"""Where each slash command is offered (issue 22, "A DM is not a back door"): the contexts it is synced for. The
table of every command, with what each does in a DM, is in docs/table.md ("Where commands work").

Every command is for servers that installed the bot (never a user's own install, so never in a group DM or
another user's DM). The commands a seated player needs away from the table (their games, their hand, a hint,
their board, the log, the rules, and ``/game`` for its status, log, undo and reclaim) are offered in the bot's DM
too; there they act only on games where the user holds a seat (``service.core.Core.load_for``; ``/games`` lists
only the user's own seats), and what only a game's own server may do (opening, joining, exporting, every host
tool) refuses there with where to run it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from discord import app_commands

T = TypeVar("T")

#: a server's channels and the bot's DM
SERVERS_AND_DM = app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=False)
#: installed by servers only (a user install would offer the commands in any DM and group DM)
SERVER_INSTALL = app_commands.AppInstallationType(guild=True, user=False)


def in_servers_and_dm() -> Callable[[T], T]:
    """The decorator of a command offered in servers and the bot's DM (as ``SERVERS_AND_DM``)."""

    def decorate(command: T) -> T:
        command = app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)(command)
        return app_commands.allowed_installs(guilds=True, users=False)(command)

    return decorate
