"""The JSON Lines table log of CONTRACT.md section 1: a header line, then one event a line."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.errors import CompanionError, LogError
from companion.games import engine
from companion.terminal import json_shown

HEADER_FIELDS = ("game", "seats", "seed", "options")
SEED_LIMIT = 2**63


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


def decode_lines(lines: Iterable[str]) -> Iterator[tuple[int, Any]]:
    """(line number, decoded JSON) for every non-blank line; LogError on bad JSON."""
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        try:
            yield number, json.loads(text)
        except (json.JSONDecodeError, RecursionError) as exc:
            message = getattr(exc, "msg", "too deeply nested")
            raise LogError(number, f"not valid JSON ({message})") from None


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
    return Header.from_json(obj), list(decoded)


def read_log(path: str | Path) -> tuple[Header, list[tuple[int, Any]]]:
    """Read and parse a table log file; a missing or unreadable file is a LogError too."""
    try:
        with open(path, encoding="utf-8") as handle:
            return parse_log(handle.read().splitlines())
    except FileNotFoundError:
        raise LogError(None, f"no such file: {path}") from None
    except UnicodeDecodeError:
        raise LogError(None, f"{path} is not a UTF-8 text file") from None
    except (IsADirectoryError, PermissionError) as exc:
        raise LogError(None, f"cannot read {path}: {exc.strerror}") from None


def dump_event(event: Any) -> str:
    """One log line: compact JSON, non-ASCII kept readable, control characters escaped."""
    return json_shown(event, separators=(", ", ": "))
