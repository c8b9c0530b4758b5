"""Sessions between the Discord layer and the engines: load, authorize, apply, save, notify."""

from service.config import Settings
from service.notice import MaybeTaken, Notice, NotTaken, ServiceError, StaleClick, Table, User
from service.public_table import PublicSeat, PublicTable
from service.table import SeatBot, TableService

__all__ = [
    "MaybeTaken",
    "NotTaken",
    "Notice",
    "PublicSeat",
    "PublicTable",
    "SeatBot",
    "ServiceError",
    "Settings",
    "StaleClick",
    "Table",
    "TableService",
    "User",
]
