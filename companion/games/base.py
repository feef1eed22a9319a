"""The common shape of a game: named options, checked events, views per seat, scores.

A game is pure: no I/O, no clock, no global randomness. Everything random is drawn from
``self.rng(...)``, which is seeded only from the table header's ``seed``, so the same
header and the same events always give the same result.

A concrete game declares ``OPTIONS`` and ``EVENTS`` and implements one ``on_<type>``
method per event type, plus ``setup``, ``view``, ``totals``, ``rounds``, ``winners`` and
``finished``. ``after`` checks the event's fields against ``EVENTS``, then runs the handler on a
copy of the state (``clone``) and returns that copy: the state it was called on never
changes, so a refused event leaves nothing behind and an earlier state stays valid as long
as it is kept (the table session keeps some, for undo). ``apply`` is ``after`` swapped in.

What a copy shares and what it copies is decided by type alone (``companion.games.state``):
lists, dicts, sets and plain dataclasses are copied, immutable values (tuples, frozensets,
frozen dataclasses) are shared. A record that grows with the game is therefore kept as a
tuple, and a copy costs the same however long the game. The header (``seats``, ``seed``,
``options``) is read-only for handlers and shared by every copy.

Example::

    game = MyGame(["Ann", "Bob", "Cy"], seed=7, options={})
    game.apply({"type": "deal"})
    game.view(None)   # the public view
    game.view(1)      # what Bob may see
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from companion.errors import EventError, OptionError, RuleViolation
from companion.games.state import copy_state

#: Integers in events beyond this size are refused ("huge numbers").
INT_LIMIT = 1_000_000

# Fields every event may carry: the type, and an optional ISO time that never changes results.
COMMON_FIELDS = ("type", "t")


@dataclass(frozen=True)
class Option:
    """A named game option (a ruling of docs/rulings.md or component data) with its default.

    ``check`` receives the given value and returns it (possibly normalised) or raises
    ``ValueError`` with a message saying what is wrong; the caller adds the option's name.
    """

    name: str
    default: Any
    help: str
    check: Callable[[Any], Any] | None = None


@dataclass(frozen=True)
class Field:
    """One field of an event: its JSON type, whether it must be present, its range."""

    kind: type | tuple[type, ...]
    required: bool = True
    items: type | tuple[type, ...] | None = None  # element type, for lists
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[Any, ...] | None = None
    is_seat: bool = False  # a seat index (the field named "seat" always is: ``names_a_seat``)


def names_a_seat(key: str, spec: Field) -> bool:
    """Does field ``key`` hold a seat's number (checked against the seats, offered and shown
    by the seat's name)? The one answer the rules, the manual entry and the screens share.

    >>> names_a_seat("seat", Field(int)), names_a_seat("dealer", Field(int, is_seat=True))
    (True, True)
    >>> names_a_seat("count", Field(int))
    False
    """
    return key == "seat" or spec.is_seat


def _type_name(kind: type | tuple[type, ...]) -> str:
    names = {int: "an integer", str: "a string", bool: "true or false", list: "a list",
             dict: "an object", float: "a number"}
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return " or ".join(names.get(k, k.__name__) for k in kinds)


def _is_kind(value: Any, kind: type | tuple[type, ...]) -> bool:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if isinstance(value, bool):
        return bool in kinds
    return isinstance(value, kinds)


# --- reusable option checks -------------------------------------------------------------

def check_int(minimum: int, maximum: int) -> Callable[[Any], int]:
    def check(value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"must be a whole number, got {value!r}")
        if not minimum <= value <= maximum:
            raise ValueError(f"must be between {minimum} and {maximum}, got {value}")
        return value
    return check


def check_bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"must be true or false, got {value!r}")
    return value


def check_choice(*choices: Any) -> Callable[[Any], Any]:
    def check(value: Any) -> Any:
        if value not in choices:
            raise ValueError(f"must be one of {', '.join(map(str, choices))}; got {value!r}")
        return value
    return check


# --- what the views of several games share --------------------------------------------

def seat_view(public: dict[str, Any], seat: int | None,
              own: Callable[[int], dict[str, Any]]) -> dict[str, Any]:
    """The public view ``public`` as ``seat`` may see it: ``public`` itself for the table
    (``seat`` None), else with ``seat`` and what only that seat sees (``own(seat)``) added."""
    if seat is not None:
        public.update({"seat": seat, **own(seat)})
    return public


def per_seat(count: int, seats: Iterable[int]) -> list[int]:
    """How often each of ``count`` seats stands in ``seats`` (a game's figures).

    >>> per_seat(3, [2, 0, 2])
    [1, 0, 2]
    """
    tally = [0] * count
    for seat in seats:
        tally[seat] += 1
    return tally


class Game:
    """Base class of the four rules engines. See the module docstring."""

    name: ClassVar[str]
    title: ClassVar[str]
    min_seats: ClassVar[int] = 1
    max_seats: ClassVar[int] = 8
    #: How the game is played, and what the companion does for it, in a few sentences of our
    #: own (``companion rules GAME`` prints them before the options).
    PLAYED: ClassVar[str] = ""
    COMPANION: ClassVar[str] = ""
    OPTIONS: ClassVar[tuple[Option, ...]] = ()
    EVENTS: ClassVar[Mapping[str, Mapping[str, Field]]] = {}
    #: The header's attributes, set by ``__init__``: read-only, shared by every copy.
    HEADER: ClassVar[frozenset[str]] = frozenset({"seats", "seed", "options"})

    def __init__(self, seats: Sequence[str], seed: int, options: Mapping[str, Any] | None = None):
        if not self.min_seats <= len(seats) <= self.max_seats:
            raise OptionError(
                f"{self.title} needs {self.min_seats} to {self.max_seats} seats, got {len(seats)}")
        self.seats: list[str] = list(seats)
        self.seed: int = seed
        self.options: dict[str, Any] = self.resolve_options(options or {})
        self.setup()

    # --- options ---------------------------------------------------------------------

    @classmethod
    def seat_fields(cls) -> frozenset[str]:
        """The fields of the game's events that hold a seat's number (``names_a_seat``)."""
        return frozenset(key for fields in cls.EVENTS.values() for key, spec in fields.items()
                         if names_a_seat(key, spec))

    @classmethod
    def option_table(cls) -> dict[str, Option]:
        return {option.name: option for option in cls.OPTIONS}

    @classmethod
    def resolve_options(cls, given: Mapping[str, Any]) -> dict[str, Any]:
        """Defaults overridden by ``given``; an unknown option or bad value raises OptionError."""
        table = cls.option_table()
        # Shared, not copied: the header's options are read-only (see the module docstring).
        resolved = {name: option.default for name, option in table.items()}
        for name, value in given.items():
            if name not in table:
                known = ", ".join(sorted(table)) or "none"
                raise OptionError(f"unknown option '{name}' for {cls.name} (known: {known})")
            check = table[name].check
            try:
                resolved[name] = check(value) if check else value
            except (ValueError, TypeError, KeyError) as exc:
                raise OptionError(f"option '{name}': {exc}") from None
        return resolved

    # --- events ----------------------------------------------------------------------

    def check_event(self, event: Any) -> None:
        """Refuse a malformed event with an EventError naming the field."""
        if not isinstance(event, dict):
            raise EventError(f"an event must be a JSON object, got {type(event).__name__}")
        kind = event.get("type")
        if not isinstance(kind, str):
            raise EventError("missing field 'type' (a string)")
        if kind not in self.EVENTS:
            known = ", ".join(sorted(self.EVENTS))
            raise EventError(f"unknown event type '{kind}' for {self.name} (known: {known})")
        fields = self.EVENTS[kind]
        for key in event:
            if key not in fields and key not in COMMON_FIELDS:
                raise EventError(f"unknown field '{key}' in a {kind} event")
        if "t" in event and not isinstance(event["t"], str):
            raise EventError(f"field 't' of a {kind} event must be an ISO time string")
        for key, spec in fields.items():
            if key not in event:
                if spec.required:
                    raise EventError(f"missing field '{key}' in a {kind} event")
                continue
            self._check_value(kind, key, event[key], spec)

    def _check_value(self, kind: str, key: str, value: Any, spec: Field) -> None:
        where = f"field '{key}' of a {kind} event"
        if not _is_kind(value, spec.kind):
            raise EventError(f"{where} must be {_type_name(spec.kind)}, got {value!r}")
        values = value if isinstance(value, list) else [value]
        if isinstance(value, list) and spec.items is not None:
            for item in value:
                if not _is_kind(item, spec.items):
                    raise EventError(
                        f"{where} must hold only {_type_name(spec.items)}, got {item!r}")
        for item in values:
            if isinstance(item, int) and not isinstance(item, bool):
                low = spec.minimum if spec.minimum is not None else -INT_LIMIT
                high = spec.maximum if spec.maximum is not None else INT_LIMIT
                if not low <= item <= high:
                    raise EventError(f"{where} must be between {low} and {high}, got {item}")
        if spec.choices is not None and value not in spec.choices:
            raise EventError(
                f"{where} must be one of {', '.join(map(str, spec.choices))}; got {value!r}")
        if names_a_seat(key, spec) and not 0 <= value < len(self.seats):
            raise EventError(f"unknown seat {value} in field '{key}' "
                             f"(seats are 0 to {len(self.seats) - 1})")

    def clone(self) -> Self:
        """An independent copy: nothing done to one changes the other. Its cost does not
        grow with the game (see the module docstring)."""
        twin = object.__new__(type(self))
        twin.__dict__.update({name: value if name in self.HEADER else copy_state(value)
                              for name, value in self.__dict__.items()})
        return twin

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        return self.clone()  # what deepcopy promises: nothing shared that can change

    def after(self, event: dict[str, Any]) -> Self:
        """The state after ``event``, or raise (RuleViolation, EventError); ``self`` is left
        exactly as it was either way."""
        self.check_event(event)
        state = self.clone()
        state.handle(event)
        return state

    def apply(self, event: dict[str, Any]) -> None:
        """Apply one event, or raise (RuleViolation, EventError) leaving the state unchanged."""
        self.__dict__ = self.after(event).__dict__

    def handle(self, event: dict[str, Any]) -> None:
        """Change this state by one checked event: its ``on_<type>`` handler. Called by
        ``after`` on a fresh copy only, so a handler may raise half-way."""
        getattr(self, "on_" + event["type"].replace("-", "_"))(event)

    def events_now(self, seat: int) -> list[str] | None:
        """The event types the rules may take now from ``seat`` (its own) or from the table
        (the seatless ones), as the public state tells: a type left out is refused whatever
        its fields (a pig once the play has begun), one given may still be refused for its
        fields (a set that does not beat). None: the game does not tell (any type)."""
        return None

    def refuse_early(self, partial: Mapping[str, Any]) -> RuleViolation | None:
        """The refusal an event begun with ``partial``'s fields gets whatever its other fields
        say, decided on public facts only (a manual entry stops asking then); None if none
        is certain yet. E.g. a disarm of a square disarmed already, before its dice."""
        return None

    # --- randomness ------------------------------------------------------------------

    def rng(self, *keys: object) -> random.Random:
        """A generator seeded from the header's seed and ``keys`` only (e.g. "deal", round).

        Keyed streams keep results independent of the order in which things are drawn.
        """
        return random.Random("/".join([str(self.seed), self.name, *map(str, keys)]))

    # --- what concrete games implement -----------------------------------------------

    def setup(self) -> None:
        """Set up the state before the first event."""

    def view(self, seat: int | None) -> dict[str, Any]:
        """The state as ``seat`` may see it; ``None`` is the public view (nothing private)."""
        raise NotImplementedError

    def referee_view(self) -> dict[str, Any]:
        """Everything, secrets included: the referee's full record."""
        raise NotImplementedError

    @property
    def finished(self) -> bool:
        raise NotImplementedError

    def totals(self) -> list[int]:
        """Points (or gold, or XP) per seat so far."""
        raise NotImplementedError

    def rounds(self) -> list[list[int]]:
        """Points per seat for each finished round or adventure."""
        raise NotImplementedError

    def figures(self) -> dict[str, list[Any]]:
        """The game's talking points, one value per seat under each name (e.g. titles won).

        Built only from what every player saw: history and the league show them to anyone.
        """
        return {}

    #: What ``figures`` count, as a heading of the league's table.
    FIGURES_TITLE: ClassVar[str] = ""

    @classmethod
    def figures_in_words(cls, mine: Mapping[str, Any]) -> str:
        """One player's ``figures`` summed over games (one value per name) as a short line."""
        return ", ".join(f"{name} {value}" for name, value in mine.items())

    def score_track(self) -> list[list[int]]:
        """Totals after each scoring step (each finished round or adventure), for plots."""
        running = [0] * len(self.seats)
        track = []
        for points in self.rounds():
            running = [total + gained for total, gained in zip(running, points, strict=True)]
            track.append(running)
        return track

    def state_in_words(self, state: dict[str, Any]) -> list[str]:
        """A view of this game (``view(None)``'s keys) as lines a person reads."""
        return []

    def winners(self) -> list[int]:
        """The seats with the highest total (ties share the win); empty until finished."""
        if not self.finished:
            return []
        totals = self.totals()
        best = max(totals)
        return [seat for seat, total in enumerate(totals) if total == best]
