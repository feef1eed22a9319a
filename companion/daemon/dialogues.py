"""The table-side dialogues: start a new game, confirm what the camera is unsure of, and
enter a card or move by hand when the camera cannot see it.

Each is a generator of ``Menu`` steps (see ``menus.py``) returning what was decided: a
``Header`` for a new game, an event for the table log, or None when the answer was "no".
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.daemon.menus import Menu, Steps
from companion.daemon.vocabulary import Vocabulary
from companion.errors import RuleViolation
from companion.games import registry
from companion.games.base import Field, Game, names_a_seat
from companion.i18n import LANGUAGES, NAMES, _, current, ngettext
from companion.i18n.names import event_word, field_word, seat_word, unnamed
from companion.table.log import Header
from companion.table.players import MAX_NAME

#: Longest list a field of a manual entry may get (a deal's counts: one per seat, up to 8).
MAX_LIST = 8
DONE = object()
LEAVE_OUT = object()
START, TYPE, DELETE, REMOVE = object(), object(), object(), object()
#: What a name is spelt with on the dial: capitals first, as names begin with one.
LETTERS = tuple("ABCDEFGHIJKLMNOPQRSTUVWXYZ abcdefghijklmnopqrstuvwxyz-'0123456789")
#: Chosen instead of an event type: leave this game unfinished (it stays in the store) and
#: pick a new one.
NEW_GAME = object()
#: Chosen instead of a game or an event type: the table's language.
LANGUAGE = object()
#: Chosen instead of an event type: each seat's join code on its own screen (web pages on).
JOIN = object()


def seat_names(defaults: Sequence[str], count: int) -> tuple[str, ...]:
    """The configured names for the first seats, "Seat N" for the others (never a name
    already taken: a header's names must differ).

    >>> seat_names(["Seat 3", "Bob"], 4)
    ('Seat 3', 'Bob', 'Seat 4', 'Seat 5')
    """
    names = list(defaults[:count])
    number = len(names)
    while len(names) < count:
        number += 1
        if f"Seat {number}" not in names:
            names.append(f"Seat {number}")  # a name stored in the log: not translated
    return tuple(names)


def new_game(default_game: str, default_seats: Sequence[str],
             options: Mapping[str, Mapping[str, Any]], known: Sequence[str] = ()) -> Steps:
    """Pick the game, the number of seats, then who sits where (``known``: the players of
    earlier games); a fresh random seed is drawn."""
    games = sorted((bundle.name for bundle in registry.games()),
                   key=lambda name: name != default_game)
    name = yield Menu(_("New game"), [*((registry.get(g).title_line(), g) for g in games),
                                      (_("(language)"), LANGUAGE)])
    if name is LANGUAGE:
        return LANGUAGE
    cls = registry.get(name).engine
    counts = range(cls.min_seats, cls.max_seats + 1)
    preferred = min(max(len(default_seats), cls.min_seats), cls.max_seats)
    menu = Menu(registry.get(name).title_line(),
                [(ngettext("{n} seat", "{n} seats", n).format(n=n), n) for n in counts])
    menu.cursor = preferred - cls.min_seats
    count = yield menu
    names = yield from who_plays(seat_names(default_seats, count), known)
    # The OS's randomness, as ``secrets`` would give it (whose ``hmac`` would load OpenSSL
    # into the daemon: ~4 MB resident for one number).
    seed = random.SystemRandom().randrange(2**31)
    return Header(name, names, seed, dict(options.get(name, {})))


def who_plays(names: Sequence[str], known: Sequence[str]) -> Steps:
    """The seats' names: "start" (first, so one press keeps them), or a seat to rename."""
    names = list(names)
    while True:
        seat = yield Menu(_("Who plays?"), [(_("start"), START),
                                         *((f"{i + 1}: {seat_word(name)}", i)
                                           for i, name in enumerate(names))])
        if seat is START:
            return tuple(names)
        names[seat] = yield from pick_player(names, seat, known)


def pick_player(names: Sequence[str], seat: int, known: Sequence[str]) -> Steps:
    """A known player not at another seat (in alphabetical order: a menu never reorders
    itself by use, so the same turns of the dial find the same player), or a name typed
    letter by letter. A seat nobody named ("Seat 4") is no player to offer."""
    others = {name.casefold() for i, name in enumerate(names) if i != seat}
    free = sorted((name for name in known if name.casefold() not in others
                   and not unnamed(name)), key=str.casefold)
    chosen = yield Menu(_("Seat {n}: who?").format(n=seat + 1), [(_("(type a name)"), TYPE),
                                                   *((name, name) for name in free)])
    if chosen is not TYPE:
        return chosen
    typed = yield from type_name(others)
    # "ann" typed is the known Ann: one person, not a new player differing in case.
    return next((name for name in known if name.casefold() == typed.casefold()),
                typed or names[seat])


def type_name(taken: set[str]) -> Steps:
    """A name spelt with the dial: letters, "(delete)", "(done)"; a known name is not two."""
    typed, title = "", _("Name: {typed}_").format(typed="")
    last: Any = LETTERS[0]
    while True:
        menu = Menu(title, [(_("(done)"), DONE), (_("(delete)"), DELETE),
                            *((letter, letter) for letter in LETTERS)])
        menu.cursor = [value for _, value in menu.choices].index(last)
        picked = yield menu
        if picked is DONE:
            if typed.strip().casefold() in taken:
                title = _("{name}: taken").format(name=typed.strip())
                continue
            return typed.strip()
        if picked is DELETE:
            typed = typed[:-1]
        elif len(typed) < MAX_NAME:
            typed += picked
        last = picked
        title = _("Name: {typed}_").format(typed=typed)


def choose_language() -> Steps:
    """A menu of the languages, each in its own words, always in one order and the cursor
    at the top (the same turns of the dial land on the same language, whichever is the
    table's: the title says that one); returns the one picked."""
    picked = yield Menu(_("Language: {language}").format(language=NAMES[current()]),
                        [(NAMES[lang], lang) for lang in LANGUAGES])
    return picked


def confirm(description: str) -> Steps:
    """Yes or no for an event the camera is unsure of; returns True for yes."""
    answer = yield Menu(_("Seen: {what}?").format(what=description),
                        [(_("yes, record it"), True), (_("no"), False)])
    return answer


def field_choices(words: Vocabulary, key: str, spec: Field, item: bool = False
                  ) -> list[tuple[str, Any]]:
    """The menu's choices for field ``key`` of an event: (the words shown, the value)."""
    game = words.game
    kind = spec.items if item and spec.items is not None else spec.kind
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if names_a_seat(key, spec):
        # Names as the seats' own screens show them (an index would count from 0).
        return [(name, i) for i, name in enumerate(game.seats)]
    if spec.choices is not None:
        return [(field_word(str(choice)), choice) for choice in spec.choices]
    if bool in kinds:
        return [(_("no"), False), (_("yes"), True)]
    if int in kinds:
        low = spec.minimum if spec.minimum is not None else 0
        high = min(spec.maximum if spec.maximum is not None else low + 40, low + 40)
        return [(str(n), n) for n in range(low, high + 1)]
    return [(words.display(key, value), value) for value in words.candidates(key)]


def with_cursor_on(menu: Menu, value: Any) -> Menu:
    """``menu`` with its cursor on the choice of ``value`` (where it was if none has it)."""
    index = menu.index_of(value)
    if index is not None:
        menu.cursor = index
    return menu


def _pick_list(words: Vocabulary, kind: str, key: str, spec: Field, seat: int | None = None
               ) -> Steps:
    """A list picked item by item. The first choice is always "(done)" (or "(leave out)" for an
    optional list not begun), so the items never move under the cursor; the last undoes the
    latest pick (one detent back from the top, as the dial wraps round)."""
    chosen: list[Any] = []
    hint = ""
    items = field_choices(words, key, spec, item=True)
    while True:
        names = ", ".join(words.display(key, value) for value in chosen)
        head = (_("(leave out)"), LEAVE_OUT) if not chosen and not spec.required \
            else (_("(done)"), DONE)
        tail = [(_("(remove {name})").format(name=words.display(key, chosen[-1])), REMOVE)] \
            if chosen else []
        title = hint or (f"{field_word(key)}: {names}" if chosen
                         else f"{event_word(kind)}: {field_word(key)}")
        menu = Menu(title, [head, *items, *tail], seat=seat)
        # The cursor stays on the item just picked: a pair is two presses.
        value = yield with_cursor_on(menu, chosen[-1]) if chosen else menu
        hint = ""
        if value is DONE and not chosen:
            hint = _("{field}: pick one first").format(field=field_word(key))
            continue
        if value is DONE:
            return chosen
        if value is LEAVE_OUT:
            return LEAVE_OUT
        if value is REMOVE:
            chosen.pop()
            continue
        chosen.append(value)
        if len(chosen) == MAX_LIST:
            return chosen


@dataclass(frozen=True)
class Refused:
    """A manual entry stopped early: the rules refuse ``event`` whatever its other fields."""

    event: dict[str, Any]
    error: RuleViolation


def manual_entry(game: Game, seat: int | None = None,
                 presets: Mapping[str, Any] | None = None, joins: bool = False) -> Steps:
    """An event of the game built field by field (or NEW_GAME, its menu's last choice; or
    ``Refused`` once the fields given already break a rule).

    ``seat`` (the seat button pressed) and ``presets`` (e.g. the clicks turned on the trap
    dial) fill in their fields without asking, where the chosen event type has them.
    ``joins``: offer the seats' join codes (JOIN; the web pages are served). The
    menus start at the event and the seat the game most likely waits for (its bundle's
    ``expected_entry``, from the public view).
    """
    bundle, words = registry.get(game.name), Vocabulary(game)
    next_kind, next_seat = bundle.expected_entry(game)
    extra = [(_("(join codes)"), JOIN)] if joins else []
    kinds = Menu(_("Enter by hand"), [*((event_word(name), name) for name in game.EVENTS),
                                      *extra, (_("(new game)"), NEW_GAME),
                                      (_("(language)"), LANGUAGE)])
    kind = yield with_cursor_on(kinds, next_kind)
    if kind is NEW_GAME or kind is LANGUAGE or kind is JOIN:
        return kind
    known = {**(presets or {}), **({"seat": seat} if seat is not None else {})}
    event: dict[str, Any] = {"type": kind}
    # Fields after ``seat`` that may be the seat's secret (secret characters, a face-down
    # card: the bundle's ``private_entries``) are entered on the seat's own screen.
    private = kind in bundle.private_entries
    for key, spec in game.EVENTS[kind].items():
        owner = event.get("seat") if private else None  # where the secret may be entered
        if key in known:
            event[key] = known[key]
        elif spec.kind is list or (isinstance(spec.kind, tuple) and list in spec.kind):
            picked = yield from _pick_list(words, kind, key, spec, owner)
            if picked is not LEAVE_OUT:
                event[key] = picked
        else:
            choices = field_choices(words, key, spec)
            if not spec.required:
                choices = [(_("(leave out)"), LEAVE_OUT), *choices]
            if not choices:
                continue
            menu = Menu(f"{event_word(kind)}: {field_word(key)}", choices, seat=owner)
            if names_a_seat(key, spec) and next_seat is not None and kind == next_kind:
                with_cursor_on(menu, next_seat)
            value = yield menu
            if value is not LEAVE_OUT:
                event[key] = value
        refusal = game.refuse_early(event)
        if refusal is not None:
            return Refused(event, refusal)
    return event
