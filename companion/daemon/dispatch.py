"""Which handler acts on each kind of item taken off the daemon's queue.

The table is keyed by the item's class (a subclass is handled as its class is). An item whose
sender waits for it (it carries a ``done`` Event: ``FedEvent``, ``Correct``, ``Answer``,
``SeatNaming``) is declared ``answered``, and ``Dispatch.handle`` sets it done once it is
acted on, whether its handler stored it, refused it or raised.

>>> from companion.daemon.items import Stop
>>> dispatch = Dispatch({Stop: Handling(lambda stop: print("stopping:", stop.reason))})
>>> dispatch.handle(Stop("asked to"))
stopping: asked to
>>> dispatch.handle("an item nobody handles")  # ignored, as before
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol


class Answered(Protocol):
    """An item whose sender waits until the daemon has acted on it."""

    done: threading.Event


@dataclass(frozen=True)
class Handling:
    """How the daemon acts on one kind of item: ``act`` on it; ``answered``: set its
    ``done`` afterwards (its sender is waiting)."""

    act: Callable[[Any], None]
    answered: bool = False


class Dispatch:
    """The handlers of the queue's items, by class."""

    def __init__(self, table: Mapping[type, Handling]) -> None:
        self.table = dict(table)

    def handling(self, kind: type) -> Handling | None:
        """How items of ``kind`` are acted on (its nearest handled base class's way), if
        at all."""
        return next((self.table[base] for base in kind.__mro__ if base in self.table), None)

    def handle(self, item: Any) -> None:
        """Act on ``item``; an item of a class nobody handles is ignored."""
        handling = self.handling(type(item))
        if handling is None:
            return
        try:
            handling.act(item)
        finally:
            if handling.answered:
                answered: Answered = item
                answered.done.set()
