"""What changed in a page's channel, as a short list of operations (docs/web.md, "The pages'
protocol").

After an event most of a channel is as it was: the game's history, the seats' names, the
actions a seat may send. ``changes`` compares the channel sent last with the new one and
gives only what differs, so what each page receives per event does not grow with the game.
``apply`` is the page's side (``static/common.js`` does the same in the browser): a page that
applies every operation in order holds exactly the channel as the server built it.

An operation is a JSON array ``[op, path, value]``; ``path`` is the list of keys and indices
from the channel's top to the value changed:

- ``["set", path, value]``: the value at ``path`` is now ``value`` (a key added, or replaced).
- ``["del", path]``: the key at ``path`` is gone.
- ``["add", path, items]``: the list at ``path`` goes on with ``items``.
- ``["cut", path, n]``: the list at ``path`` keeps its first ``n`` items (an undo).
- ``["drop", path, n]``: the list at ``path`` loses its first ``n`` items (a window that
  slides, such as the feed of the latest events).
- ``["splice", path, [start, count, items]]``: in the list at ``path``, the ``count`` items
  from ``start`` on are replaced by ``items`` (a line that came or went in the middle).

Values are compared as Python compares them, where ``1``, ``1.0`` and ``True`` are equal: a
channel never holds one where it held another (a count stays a number, a flag a bool).

>>> old = {"events": 3, "feed": [1, 2, 3], "api": {"rounds": [[1, 0]]}}
>>> new = {"events": 4, "feed": [2, 3, 4], "api": {"rounds": [[1, 0], [0, 2]]}}
>>> ops = changes(old, new)
>>> ops
[['set', ['events'], 4], ['drop', ['feed'], 1], ['add', ['feed'], [4]], \
['add', ['api', 'rounds'], [[0, 2]]]]
>>> apply(old, ops) == new
True
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from companion.terminal import json_escaped

Path = list[str | int]
#: How far a sliding list (the feed) may have moved and still be sent as a slide.
SLIDE = 4


def changes(old: Any, new: Any) -> list[list[Any]]:
    """The operations that turn ``old`` into ``new`` (none if they are equal)."""
    ops: list[list[Any]] = []
    _compare(old, new, [], ops)
    return ops


def _compare(old: Any, new: Any, path: Path, ops: list[list[Any]]) -> None:
    if old is new:  # a part shared from one build to the next (a finished round's lines)
        return
    if type(old) is dict and type(new) is dict:
        for key, value in new.items():
            if key not in old:
                ops.append(["set", [*path, _named(key)], value])
            elif old[key] is not value and old[key] != value:
                _compare(old[key], value, [*path, _named(key)], ops)
        ops.extend(["del", [*path, _named(key)]] for key in old if key not in new)
    elif type(old) is list and type(new) is list:
        _compare_lists(old, new, path, ops)
    elif old != new or type(old) is not type(new):
        ops.append(["set", path, new])


def _named(key: Any) -> str:
    """A key as JSON names it (an object's keys are strings: ``{1: x}`` is ``{"1": x}``)."""
    return key if isinstance(key, str) else json.dumps(key)


def _compare_lists(old: list[Any], new: list[Any], path: Path, ops: list[list[Any]]) -> None:
    if old == new:
        return
    kept, now = len(old), len(new)
    if now > kept and new[:kept] == old:  # a list that grows: only the new items
        ops.append(["add", path, new[kept:]])
        return
    if now < kept and old[:now] == new:  # an undo taking back the last items
        ops.append(["cut", path, now])
        return
    for moved in range(1, min(SLIDE, kept) + 1):  # a window sliding on
        if old[moved:] == new[:kept - moved]:
            ops.append(["drop", path, moved])
            if now > kept - moved:
                ops.append(["add", path, new[kept - moved:]])
            elif now < kept - moved:
                ops.append(["cut", path, now])
            return
    same = min(kept, now)
    first = _longest(same, lambda n: old[:n] == new[:n])
    last = _longest(same - first, lambda n: old[kept - n:] == new[now - n:])
    if kept == now and kept - first - last <= SLIDE:  # a few items changed in place
        for index in range(first, kept - last):
            _compare(old[index], new[index], [*path, index], ops)
        return
    # Items put in or taken out here and there (a line of words that came or went, a new
    # first line, a line added at the end): a few splices, the last first so that each one's
    # place is counted in the list as it was.
    splices: list[tuple[int, int, list[Any]]] = []
    _splices(old, new, first, kept - last, first, now - last, splices)
    if len(splices) == 1 and splices[0][:2] == (0, kept):
        ops.append(["set", path, new])
        return
    # The last first (of two at one place, the one further on in the list first).
    for start, count, items in reversed(splices):
        ops.append(["splice", path, [start, count, items]])


def _splices(old: list[Any], new: list[Any], start: int, stop: int, begin: int, end: int,
             splices: list[tuple[int, int, list[Any]]]) -> None:
    """The splices turning ``old[start:stop]`` into ``new[begin:end]`` (each at its place in
    ``old``): their common ends kept, then split where an item in the middle of ``old`` is
    found again, a little shifted, in ``new``."""
    first = _longest(min(stop - start, end - begin),
                     lambda n: old[start:start + n] == new[begin:begin + n])
    start, begin = start + first, begin + first
    last = _longest(min(stop - start, end - begin),
                    lambda n: old[stop - n:stop] == new[end - n:end])
    stop, end = stop - last, end - last
    if stop - start <= 2 * SLIDE or end - begin <= 2 * SLIDE:
        if stop > start or end > begin:
            splices.append((start, stop - start, new[begin:end]))
        return
    middle = (start + stop) // 2
    shift = begin - start
    for moved in sorted(range(-2 * SLIDE, 2 * SLIDE + 1), key=abs):
        at = middle + shift + moved
        if begin < at < end - 2 and new[at:at + 3] == old[middle:middle + 3]:
            _splices(old, new, start, middle, begin, at, splices)
            _splices(old, new, middle, stop, at, end, splices)
            return
    splices.append((start, stop - start, new[begin:end]))


def _longest(most: int, holds: Callable[[int], bool]) -> int:
    """The largest n <= ``most`` for which ``holds(n)`` (true of 0, and of every n below one
    it is true of): a common prefix or suffix, found by halves in C-speed comparisons."""
    low, high = 0, most
    while low < high:
        middle = (low + high + 1) // 2
        if holds(middle):
            low = middle
        else:
            high = middle - 1
    return low


def apply(state: Any, ops: list[list[Any]]) -> Any:
    """``state`` with ``ops`` applied (in place where it can be; the new state returned)."""
    for op in ops:
        kind, path = op[0], op[1]
        if kind == "set" and not path:  # the whole value replaced
            state = op[2]
            continue
        if kind in ("set", "del"):
            parent = _at(state, path[:-1])
            if kind == "set":
                parent[path[-1]] = op[2]
            else:
                del parent[path[-1]]
            continue
        items = _at(state, path)
        if kind == "add":
            items.extend(op[2])
        elif kind == "cut":
            del items[op[2]:]
        elif kind == "drop":
            del items[:op[2]]
        elif kind == "splice":
            start, count, put = op[2]
            items[start:start + count] = put
        else:
            raise ValueError(f"unknown operation {kind!r}")
    return state


def _at(state: Any, path: Path) -> Any:
    for key in path:
        state = state[key]
    return state


@dataclass(frozen=True)
class Update:
    """One channel's change, handed from the daemon's thread to the server's: its new
    ``version``, the whole channel as it now is (``value``: for a page that connects, the
    APIs, and a page that fell behind) and ``ops``, the message of what changed (None: the
    whole channel is sent)."""

    channel: str
    version: int
    value: Any
    ops: str | None


def full_message(kind: str, version: int, channel: Any) -> str:
    """The whole channel, as a page gets it when it (re)connects or has fallen behind."""
    return json_escaped({"kind": kind, "v": version, "full": channel})


def ops_message(kind: str, version: int, ops: list[list[Any]]) -> str:
    """What changed in the channel from ``version - 1`` to ``version``."""
    return json_escaped({"kind": kind, "v": version, "ops": ops})


class PageState:
    """What a page holds, built from the messages it received, as ``static/common.js`` builds
    it: the tests' and the benchmarks' page.

    >>> page = PageState()
    >>> page.take({"kind": "table", "v": 1, "full": {"kind": "table", "events": 0}})
    {'kind': 'table', 'events': 0}
    >>> page.take({"kind": "table", "v": 2, "ops": [["set", ["events"], 1]]})
    {'kind': 'table', 'events': 1}
    """

    def __init__(self) -> None:
        self.channels: dict[str, Any] = {}
        self.versions: dict[str, int] = {}

    def take(self, message: dict[str, Any]) -> Any:
        """The channel as it stands after ``message`` (a message that is no channel's, the
        seats' links, as it came)."""
        kind = message.get("kind")
        if "full" in message:
            self.channels[kind], self.versions[kind] = message["full"], message["v"]
        elif "ops" in message:
            if self.versions.get(kind) != message["v"] - 1:
                raise ValueError(f"{kind}: change {message['v']} after "
                                 f"{self.versions.get(kind)}")
            self.channels[kind] = apply(self.channels[kind], message["ops"])
            self.versions[kind] = message["v"]
        else:
            return message
        return self.channels[kind]
