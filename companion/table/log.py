"""The JSON Lines table log of docs/table-log.md: a header line, then one event a line."""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from companion.errors import CompanionError, LogError
from companion.games.registry import engine
from companion.table.results import parse_time
from companion.terminal import json_escaped

HEADER_FIELDS = ("game", "seats", "seed", "options")
SEED_LIMIT = 2**63
#: A line longer than this is refused unread (a whole game's log is far smaller).
MAX_LINE_BYTES = 1 << 20
#: A log larger than this is refused: it is kept whole in memory.
MAX_LOG_BYTES = 64 << 20
#: Any surrogate in a Python string is a lone one: JSON's escaped pairs are decoded as one
#: character, so this is text that cannot be written as UTF-8 at all.
SURROGATE = re.compile("[\ud800-\udfff]")


def lone_surrogate(value: Any, where: str) -> str | None:
    """Where in a decoded JSON value a string or key holds a lone surrogate, else None.

    >>> lone_surrogate({"seats": ["Ann", "\\ud800"]}, "header")
    "header: 'seats'[1] holds a lone surrogate (\\\\ud800), which is not text"
    """
    stack: list[tuple[Any, str]] = [(value, "")]
    while stack:  # not recursive: a log line may nest as deep as the JSON decoder allows
        item, path = stack.pop()
        found = None
        if isinstance(item, str):
            found = SURROGATE.search(item)
        elif isinstance(item, dict):
            for key, inner in item.items():
                found = SURROGATE.search(key)
                if found:
                    path = f"a key of {path}" if path else "a key"
                    break
                stack.append((inner, f"{path}[{key!r}]" if path else repr(key)))
        elif isinstance(item, list):
            stack.extend((inner, f"{path}[{i}]") for i, inner in enumerate(item))
        if found:
            place = f"{where}: {path}" if path else where
            return (f"{place} holds a lone surrogate (\\u{ord(found.group()):04x}), "
                    "which is not text")
    return None


@dataclass(frozen=True)
class Header:
    """Line 1 of a table log: which game, who sits where, the seed and the option overrides."""

    game: str
    seats: tuple[str, ...]
    seed: int
    options: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "seats": list(self.seats), "seed": self.seed,
                "options": self.options}

    @classmethod
    def from_json(cls, obj: Any) -> Header:
        """Check a decoded header line; raise LogError(1, ...) naming the bad field."""
        def fail(message: str) -> LogError:
            return LogError(1, f"header: {message}")

        if not isinstance(obj, dict):
            raise fail("line 1 must be a JSON object with game, seats, seed and options")
        surrogate = lone_surrogate(obj, "header")
        if surrogate:
            raise LogError(1, surrogate)
        for key in obj:
            if key not in HEADER_FIELDS:
                raise fail(f"unknown field '{key}' (a header has {', '.join(HEADER_FIELDS)})")
        for key in ("game", "seats", "seed"):
            if key not in obj:
                raise fail(f"missing field '{key}'")
        game, seats, seed = obj["game"], obj["seats"], obj["seed"]
        options = obj.get("options", {})
        try:
            engine(game)
        except CompanionError as exc:
            raise fail(str(exc)) from None
        if not isinstance(seats, list) or not seats:
            raise fail("'seats' must be a non-empty list of names")
        for name in seats:
            if not isinstance(name, str) or not name.strip():
                raise fail(f"'seats' must hold non-empty names, got {name!r}")
        if len(set(seats)) != len(seats):
            raise fail("'seats' names must be different from each other")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise fail(f"'seed' must be a whole number, got {seed!r}")
        if not -SEED_LIMIT <= seed < SEED_LIMIT:
            raise fail(f"'seed' must be between {-SEED_LIMIT} and {SEED_LIMIT - 1}")
        if not isinstance(options, dict):
            raise fail(f"'options' must be an object, got {options!r}")
        return cls(game, tuple(seats), seed, options)

    def to_line(self) -> str:
        """The header as a log line; LogError if ``from_json`` would refuse to read it back.

        The store writes headers only through here, so it never holds one it cannot read.
        """
        try:
            line = dump_event(self.to_json())
            # NaN and infinities are not JSON: another reader would refuse the line.
            json.dumps(self.options, allow_nan=False)
        except (TypeError, ValueError) as exc:
            raise LogError(1, f"header: 'options' must hold JSON values only ({exc})") from None
        Header.from_json(json.loads(line))
        return line


def _not_json(constant: str) -> Any:
    raise ValueError(f"{constant} is not a JSON number")


class _DuplicateKey(Exception):
    pass


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object of the log, refused if it gives a key twice: JSON readers differ on which
    value wins, so a log's meaning would depend on who reads it."""
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _DuplicateKey(key)
            seen.add(key)
    return obj


def time_problem(event: Any) -> str | None:
    """Why an event's optional ``"t"`` is not an ISO time (docs/table-log.md), or None.

    >>> time_problem({"type": "undo", "t": "2026-01-02T20:00:00+01:00"}) is None
    True
    >>> time_problem({"type": "undo", "t": "yesterday"})
    "field 't' must be an ISO time such as 2026-01-02T20:00:00+01:00, got 'yesterday'"
    """
    if not isinstance(event, dict) or "t" not in event:
        return None
    stamp = event["t"]
    if isinstance(stamp, str) and parse_time(stamp) is not None:
        return None
    # A string as Python shows it (control characters escaped), anything else as JSON.
    quoted = repr(stamp) if isinstance(stamp, str) else json_escaped(stamp)
    if len(quoted) > 40:
        quoted = quoted[:37] + "..."
    return f"field 't' must be an ISO time such as 2026-01-02T20:00:00+01:00, got {quoted}"


def decode_lines(lines: Iterable[str]) -> Iterator[tuple[int, Any]]:
    """(line number, decoded JSON) for every non-blank line; LogError on bad JSON or text."""
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        try:
            value = json.loads(text, parse_constant=_not_json,
                               object_pairs_hook=_no_duplicate_keys)
        except _DuplicateKey as exc:
            raise LogError(number, f"key {exc.args[0]!r} given twice in one "
                                   "object") from None
        except RecursionError:
            raise LogError(number, "not valid JSON (too deeply nested)") from None
        except ValueError as exc:  # JSONDecodeError, NaN, a number of thousands of digits
            message = getattr(exc, "msg", None) or str(exc).split(":")[0]
            raise LogError(number, f"not valid JSON ({message})") from None
        surrogate = lone_surrogate(value, "header" if number == 1 else "event")
        if surrogate:
            raise LogError(number, surrogate)
        yield number, value


def parse_log(lines: Iterable[str]) -> tuple[Header, list[tuple[int, Any]]]:
    """The header and the (line number, event) pairs of a table log.

    Events are only decoded here; whether they are legal is the session's business.
    """
    decoded = decode_lines(lines)
    first = next(decoded, None)
    if first is None:
        raise LogError(1, "the log is empty: line 1 must be the header")
    number, obj = first
    if number != 1:
        raise LogError(1, "line 1 must be the header, not blank")
    header = Header.from_json(obj)
    events = list(decoded)
    for number, event in events:
        problem = time_problem(event)
        if problem:
            raise LogError(number, problem)
    return header, events


def read_lines(handle: BinaryIO, path: str | Path) -> Iterator[str]:
    """The lines of a log file without their line ends, each and all within the size caps."""
    total = 0
    for number in itertools.count(1):
        raw = handle.readline(MAX_LINE_BYTES + 1)
        if not raw:
            return
        total += len(raw)
        if total > MAX_LOG_BYTES:
            raise LogError(None, f"{path} is larger than {MAX_LOG_BYTES >> 20} MiB: "
                                 "not a table log")
        line = raw.rstrip(b"\r\n")
        if len(line) > MAX_LINE_BYTES:
            raise LogError(number, f"longer than {MAX_LINE_BYTES >> 20} MiB: not a table log line")
        try:
            yield line.decode("utf-8")
        except UnicodeDecodeError:
            raise LogError(number, "not UTF-8 text") from None


def read_log(path: str | Path) -> tuple[Header, list[tuple[int, Any]]]:
    """Read and parse a table log file; a missing, unreadable or huge file is a LogError too."""
    try:
        with open(path, "rb") as handle:
            return parse_log(read_lines(handle, path))
    except FileNotFoundError:
        raise LogError(None, f"no such file: {path}") from None
    except OSError as exc:  # a folder, no permission, a device that fails to read
        raise LogError(None, f"cannot read {path}: {exc.strerror}") from None


def dump_event(event: Any) -> str:
    """One log line: compact JSON, non-ASCII kept readable, control characters escaped."""
    return json_escaped(event, separators=(", ", ": "))
