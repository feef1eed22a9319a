"""A page's socket read as the page reads it: each message folded into the channels it holds
(``companion.web.delta.PageState``), each state handed out as a copy of its own."""

from __future__ import annotations

import copy
import json
import weakref
from typing import Any

from companion.web.delta import PageState

_PAGES: weakref.WeakKeyDictionary[Any, PageState] = weakref.WeakKeyDictionary()


def page_of(ws: Any) -> PageState:
    """The page that reads ``ws`` (one per socket)."""
    page = _PAGES.get(ws)
    if page is None:
        page = _PAGES[ws] = PageState()
    return page


def state_after(ws: Any, text: str) -> dict[str, Any]:
    """What the page of ``ws`` holds after the message ``text``: a channel, or the links."""
    return copy.deepcopy(page_of(ws).take(json.loads(text)))


async def next_page_state(ws: Any, timeout: float = 60) -> dict[str, Any]:
    """The next message of ``ws``, as the page holds it once it came."""
    return state_after(ws, (await ws.receive(timeout=timeout)).data)
