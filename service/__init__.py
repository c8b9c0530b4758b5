"""Sessions between the Discord layer and the engines: load, authorize, apply, save, notify."""

from service.config import Settings
from service.notice import Notice, ServiceError, StaleClick, Table, User
from service.table import SeatBot, TableService

__all__ = ["Notice", "SeatBot", "ServiceError", "Settings", "StaleClick", "Table", "TableService", "User"]
