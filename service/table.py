"""The table service: sessions between the Discord layer and the engines (no Discord import).

Every request loads the game, checks who may do what, applies the choice through the engine, commits it to
the store with everything it changes (the choice before anything is told to anyone) and returns a ``Notice``
for the one who asked. What the channel and the players must be told is derived from the store (the log's
events, the outbox), so a restart tells it too.
"""

from __future__ import annotations

from service.bot_turns import SeatBot
from service.deadlines import Deadlines
from service.end_vote import EndVotes
from service.history import GameHistory
from service.limits import Limits
from service.lobby import Lobby
from service.log import Log
from service.people import Digests
from service.play import Play
from service.profile import Profiles
from service.public_table import PublicTables
from service.records import UNDO_KIND, effective_choices
from service.recovery import Recovery
from service.rematch import Rematches
from service.reminders import Reminders
from service.replay import Replays

__all__ = ["UNDO_KIND", "SeatBot", "TableService", "effective_choices"]


class TableService(
    Rematches,
    Deadlines,
    Limits,
    Lobby,
    Play,
    Log,
    Recovery,
    Reminders,
    PublicTables,
    Digests,
    EndVotes,
    GameHistory,
    Profiles,
    Replays,
):
    """Create, join, leave, start, abandon, end by agreement and play games; the only writer of the store."""
