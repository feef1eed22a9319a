"""The camera's evidence in the table store: the picture each camera event was made from.

A side table beside the events (``camera_pictures``), keyed by the event's session and
sequence number: the table log, its format and ``companion export`` are unchanged (a picture
is exported only when asked: ``companion export --pictures DIR``). Each row holds the JPEG
of the play area (docs/camera.md bounds its size) and the readings drawn on it, as JSON:
``{"width": W, "height": H, "px_per_mm": S, "readings": [...]}``.

>>> store = TableStore(":memory:")
>>> keep(store, 1, 3, b"\\xff\\xd8jpeg", {"width": 640, "height": 448, "readings": []})
>>> [(p.seq, p.about["width"]) for p in pictures(store.db, 1)]
[(3, 640)]
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.table.faults import guard
from companion.table.store import TableStore

SCHEMA = """
CREATE TABLE IF NOT EXISTS camera_pictures (
    session_id INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    jpeg BLOB NOT NULL,
    readings TEXT NOT NULL,
    PRIMARY KEY (session_id, seq)
)
"""


@dataclass(frozen=True)
class StoredPicture:
    """One event's picture: its session, the event's sequence number, the JPEG, and what
    was read on it."""

    session: int
    seq: int
    jpeg: bytes
    about: dict[str, Any]


def has_table(db: sqlite3.Connection) -> bool:
    return bool(db.execute("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' "
                           "AND name = 'camera_pictures'").fetchone()[0])


def keep(store: TableStore, session: int, seq: int, jpeg: bytes,
         about: Mapping[str, Any]) -> None:
    """Keep the picture of event ``seq`` of ``session``, durably (one transaction, the
    store's own full sync); a StoreError (a full disk) changes nothing."""
    with guard(store.path), store.transaction():
        store.db.execute(SCHEMA)
        store.db.execute("INSERT OR REPLACE INTO camera_pictures (session_id, seq, jpeg, "
                         "readings) VALUES (?, ?, ?, ?)",
                         (session, seq, jpeg, json.dumps(about, separators=(",", ":"))))


def pictures(db: sqlite3.Connection, session: int) -> list[StoredPicture]:
    """Every picture kept for ``session``, in the order of its events."""
    if not has_table(db):
        return []
    rows = db.execute("SELECT seq, jpeg, readings FROM camera_pictures WHERE session_id = ? "
                      "ORDER BY seq", (session,)).fetchall()
    return [StoredPicture(session, seq, bytes(jpeg), json.loads(about))
            for seq, jpeg, about in rows]


def seqs(db: sqlite3.Connection, session: int) -> list[int]:
    """The events of ``session`` that keep a picture, in order."""
    if not has_table(db):
        return []
    return [row[0] for row in db.execute(
        "SELECT seq FROM camera_pictures WHERE session_id = ? ORDER BY seq", (session,))]


def picture(db: sqlite3.Connection, session: int, seq: int) -> StoredPicture | None:
    """Event ``seq``'s picture, if the camera made that event."""
    if not has_table(db):
        return None
    row = db.execute("SELECT jpeg, readings FROM camera_pictures WHERE session_id = ? "
                     "AND seq = ?", (session, seq)).fetchone()
    return None if row is None else StoredPicture(session, seq, bytes(row[0]), json.loads(row[1]))


def write_folder(found: list[StoredPicture], folder: Path) -> list[Path]:
    """Each picture as ``EVENT.jpg`` and its readings as ``EVENT.json`` in ``folder`` (made
    if needed), EVENT being the event's line in the exported log minus one (its sequence
    number: line 1 is the header)."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for stored in found:
        jpeg = folder / f"{stored.seq:05d}.jpg"
        jpeg.write_bytes(stored.jpeg)
        about = folder / f"{stored.seq:05d}.json"
        about.write_text(json.dumps({"seq": stored.seq, **stored.about}) + "\n",
                         encoding="utf-8")
        written += [jpeg, about]
    return written
