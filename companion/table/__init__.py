"""A table session: the header and the events of one game, kept durably in SQLite."""

from companion.table.log import Header, read_log
from companion.table.session import TableSession
from companion.table.store import StoredSession, TableStore

__all__ = ["Header", "StoredSession", "TableSession", "TableStore", "read_log"]
