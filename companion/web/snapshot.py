"""What each page may show, built in the daemon's own thread after every redraw.

One channel per audience: ``table`` (everyone: the public result, exactly ``companion replay
--json`` without ``--seat``, the game's public words, the feed of public events), ``seat:N``
(seat N alone: ``replay --json --seat N`` of the game being played, its screen as its OLED
would show it while peeking, the events it may send) and ``sim`` (the local simulator page:
every screen as the daemon drew it). A channel is built only from the view its audience may
see (``game.view(None)`` or ``game.view(N)``), so no page can show what its view does not hold.
"""

from __future__ import annotations

import base64
import io
import json
from collections.abc import Container, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from PIL import Image

from companion.daemon.vocabulary import Vocabulary
from companion.games import registry
from companion.games.base import Field, Game
from companion.games.spec import Expected
from companion.i18n import NP_, current, npgettext, pgettext, using
from companion.i18n.names import event_word, field_word, seat_word, seat_words, unnamed
from companion.web.facts import key_word, peek_lines
from companion.web.mirror import Mirrors
from companion.web.words import choices

if TYPE_CHECKING:
    from companion.daemon.table_display import TableDisplay
    from companion.table.session import TableSession

#: How many of the latest events the public feed lists.
FEED_LENGTH = 30
#: The keys of the games' seat views that a seat's page lists as its own (``private_part``),
#: in words: marked here for the catalogue, translated for each page (``key_words``) where
#: ``peek_lines`` has no sentence of its own for one.
PRIVATE_KEYS = (
    NP_("web", "actions"), NP_("web", "exchange"), NP_("web", "exchange limit"),
    NP_("web", "hero choices"), NP_("web", "note"), NP_("web", "prompt"),
    NP_("web", "refused"), NP_("web", "seat"), NP_("web", "secrets"), NP_("web", "squares"),
    NP_("web", "your count"), NP_("web", "your turn"), NP_("web", "your xp"))


def key_words(keys: Iterable[str]) -> dict[str, str]:
    """A view's keys in the language drawn (``your_turn`` -> "your turn", or "à vous")."""
    return {key: key_word(key) for key in keys}


def event_in_words(event: Mapping[str, Any], seats: Sequence[str]) -> str:
    """An event's type and who made it, by name: all a public page may say of any event
    (its other fields may be a seat's secret, e.g. a face-down card)."""
    seat = event.get("seat")
    kind = event_word(str(event.get("type")))
    if isinstance(seat, int) and 0 <= seat < len(seats):
        return pgettext("web", "{event} by {player}").format(event=kind, player=seats[seat])
    return kind


def stored_event_in_words(event: Mapping[str, Any], seats: Sequence[str], undone: bool) -> str:
    """A stored event in a list of what happened (``event_in_words``), marked if an undo took
    it back: nothing lists a withdrawn event as standing."""
    text = event_in_words(event, seats)
    return pgettext("web", "{event} (undone)").format(event=text) if undone else text


def status(stored_game: Any) -> str:
    if stored_game is None:
        return pgettext("web", "waiting for a new game")
    count = len(stored_game.header.seats)
    return npgettext("web", "session {n}: {game}, {count} seat", "session {n}: {game}, "
                     "{count} seats", count).format(
        n=stored_game.id, game=registry.get(stored_game.header.game).title_line(), count=count)


def tap_label(game: Game) -> str | None:
    """What a seat's own button does in this game, for its button on the phone: its bundle's
    tap (e.g. a pass), else finishing the game's dial flow (e.g. a trap dial)."""
    bundle = registry.get(game.name)
    tapped = bundle.tap(0)
    if tapped is not None:
        word = event_word(str(tapped["type"]))
        return word[:1].upper() + word[1:]
    return pgettext("web", "Confirm the dial") if bundle.dial is not None else None


class Pictures:
    """PNG data URLs of screen images, encoded once per distinct image."""

    def __init__(self) -> None:
        self.cache: dict[bytes, str] = {}

    def url(self, image: Image.Image) -> str:
        key = image.tobytes()
        found = self.cache.get(key)
        if found is None:
            if len(self.cache) > 256:
                self.cache.clear()
            out = io.BytesIO()
            image.convert("L").save(out, format="PNG", optimize=False)
            found = "data:image/png;base64," + base64.b64encode(out.getvalue()).decode()
            self.cache[key] = found
        return found


def field_form(name: str, spec: Field, seats: Sequence[str], words: Vocabulary | None = None
               ) -> dict[str, Any]:
    """One field of an event as a phone's form draws it. A text field takes the game's words
    as the manual entry at the table offers them (``words``: its rooms, cards, characters by
    their names): one of them picked (``choices``), or for a list typed with those words
    suggested (``suggestions``, read whatever their case)."""
    kinds = spec.kind if isinstance(spec.kind, tuple) else (spec.kind,)
    kind = "list" if list in kinds else "bool" if bool in kinds else (
        "int" if int in kinds else "str")
    form: dict[str, Any] = {"name": name, "label": field_word(name), "kind": kind,
                            "required": spec.required}
    if words is not None and kind in ("str", "list"):
        offered = words.candidates(name)
        named = [words.display(name, value) for value in offered]
        if offered and kind == "str":
            form["choices"], form["labels"] = offered, named
        elif offered:
            form["suggestions"], form["suggested"] = offered, named
    if spec.choices is not None:
        form["choices"] = list(spec.choices)
    if spec.is_seat:
        form["choices"] = list(range(len(seats)))
        form["labels"] = list(seats)
    if spec.minimum is not None:
        form["min"] = spec.minimum
    if spec.maximum is not None:
        form["max"] = spec.maximum
    if spec.items is not None:
        items = spec.items if isinstance(spec.items, tuple) else (spec.items,)
        form["items"] = "int" if int in items else "str"
    return form


#: Each game's events as a phone's forms, per language, seat names and options
#: (``event_forms``).
_FORMS: dict[tuple[str, tuple[str, ...], str, str], list[dict[str, Any]]] = {}


def event_forms(game: Game, names: Sequence[str]) -> list[dict[str, Any]]:
    """Every event of the game as a phone's form draws it, in the language current: the same
    all game, worked out once per language, seat names and options (its words: a deck, a
    map) and shared (never changed)."""
    key = (game.name, tuple(names), current(), json.dumps(game.options, sort_keys=True))
    found = _FORMS.get(key)
    if found is None:
        if len(_FORMS) >= 64:
            _FORMS.clear()
        words = Vocabulary(game)
        found = _FORMS[key] = [
            {"type": kind, "index": index, "label": event_word(kind), "own": "seat" in fields,
             "fields": [field_form(name, spec, names, words)
                        for name, spec in fields.items() if name != "seat"]}
            for index, (kind, fields) in enumerate(game.EVENTS.items())]
    return found


def seat_actions(game: Game, names: Sequence[str], seat: int, likely: Expected
                 ) -> list[dict[str, Any]]:
    """The events a seat's page may send: its own (the seat is filled in by the server) and
    the table's seatless ones (a deal), never an undo; ``names``: the seats' as it says them.
    ``now``: the rules may take it from this seat now (``Game.events_now``). The likeliest
    comes first (``likely``, the bundle's ``expected_entry``, when it is this seat's or the
    table's), then the others of now, then the rest (sent only as a table-log line)."""
    allowed = game.events_now(seat)
    actions = [{**form, "now": allowed is None or form["type"] in allowed}
               for form in event_forms(game, names)]

    def rank(action: dict[str, Any]) -> tuple[bool, bool]:
        first = action["now"] and action["type"] == likely[0] and likely[1] in (None, seat)
        return not first, not action["now"]

    return sorted(actions, key=rank)


def actions_and_order(ranked: list[dict[str, Any]]) -> dict[str, Any]:
    """A seat's actions in the game's own order, and ``order``, their types as ranked: what
    the page lists first changes with nearly every event, the actions themselves seldom, so
    only the short ``order`` travels (docs/web.md, "The pages' protocol")."""
    return {"actions": sorted(ranked, key=lambda action: action["index"]),
            "order": [action["type"] for action in ranked]}


class Feed:
    """The feed's events in words, each said once per language, seat names and standing (an
    event stored never changes, bar an undo taking it back; a taken-back event's number is
    said again for what replaced it)."""

    def __init__(self) -> None:
        self.said: dict[tuple[int, bool, str, tuple[str, ...]],
                        tuple[Any, dict[str, Any]]] = {}

    def events(self, events: Sequence[Mapping[str, Any]], first: int,
               seats: Sequence[str], undone: Container[int] = ()) -> list[dict[str, Any]]:
        """The events from ``first`` on (0-based), numbered from 1; those whose numbers are
        in ``undone`` (an undo took them back) say so."""
        key_end = (current(), tuple(seats))
        feed = []
        for number, event in enumerate(events[first:], start=first + 1):
            taken_back = number in undone
            kept = self.said.get((number, taken_back, *key_end))
            if kept is None or kept[0] is not event:
                kept = self.said[(number, taken_back, *key_end)] = (event, {
                    "n": number, "undone": taken_back,
                    "text": stored_event_in_words(event, seats, taken_back)})
            feed.append(kept[1])
        if len(self.said) > 8 * FEED_LENGTH:
            for key in [key for key in self.said if key[0] <= first]:
                del self.said[key]
        return feed


def private_part(view: Mapping[str, Any], public: Mapping[str, Any]) -> dict[str, Any]:
    """The keys of a seat's view that the public view lacks or shows otherwise."""
    return {key: value for key, value in view.items()
            if key not in public or public[key] != value}


def seat_screen(channel: Mapping[str, Any]) -> Image.Image:
    """A seat's screen as its OLED draws it while its player peeks, from the seat channel's
    own view, in the seat page's language: a pure drawing, done in the web server's thread
    when a page asks for it."""
    api = channel["api"]
    with using(channel.get("lang") or current()):
        return registry.get(api["game"]).screen_module().seat(
            channel.get("shown") or api["state"], channel.get("names") or api["seats"], True)


def screen_label(name: str, seats: Sequence[str]) -> str:
    """A screen of the simulator page by the name of its seat (the game's: an unnamed seat's
    in the table's language), a seat of no game by the name a new game would give it.

    >>> screen_label("seat:1", ["Ann", "Bob"]), screen_label("seat:3", ["Ann", "Bob"])
    ('Bob', 'Seat 4')
    """
    if not name.startswith("seat:"):
        return pgettext("web", "Table")
    seat = int(name[5:])
    return seats[seat] if seat < len(seats) else seat_word(f"Seat {seat + 1}")


class Snapshot:
    """Builds the channels from what the table shows (the daemon's thread only)."""

    def __init__(self, sim: bool = False, languages: Mapping[tuple[int, int], str] | None = None
                 ) -> None:
        self.sim = sim
        self.pictures = Pictures()
        #: (session, seat) -> the language that seat's page chose (else the table's)
        self.languages = languages if languages is not None else {}
        #: The game read again in each language a seat's page reads and the table does not.
        self.mirrors = Mirrors()
        self.publics: dict[str, dict[str, Any]] = {}
        self.feed = Feed()  # the feed's events in words, said once

    def build(self, showing: TableDisplay, images: Mapping[str, Image.Image]) -> dict[str, Any]:
        """Every channel, from what the table shows (``Daemon.display``) and its images."""
        channels: dict[str, Any] = {}
        stored_game = showing.stored_game
        if self.sim:
            names = stored_game.game.seats if stored_game is not None else []
            channels["sim"] = {"kind": "sim", "status": status(stored_game), "lang": current(),
                               "screens": {name: self.pictures.url(image)
                                           for name, image in sorted(images.items())},
                               "labels": {name: screen_label(name, names) for name in images}}
        # The table's own screen is public: it shows menus and the trap dial to everyone.
        screen = self.pictures.url(images["table"]) if "table" in images else None
        if stored_game is None:
            channels["table"] = {"kind": "table", "session": None, "status": status(stored_game),
                                 "lang": current(),
                                 "notice": showing.table_notice, "screen": screen}
            return channels
        game, session = stored_game.game, stored_game.session
        public = session.result(None)
        events = session.events
        first = max(0, len(events) - FEED_LENGTH)
        table_language = current()
        self.publics, used = {}, set()  # this build's public views, the copies it read
        read = self.reading(session, table_language, table_language, used)
        if read is session:
            self.publics[table_language] = public["state"]
        said = read.game  # the game with the seats' names as the table's language says them
        channels["table"] = {
            "kind": "table", "session": stored_game.id, "status": status(stored_game),
            "lang": current(),
            "title": registry.get(game.name).title_line(), "api": public,
            "names": list(said.seats),
            "words": said.state_in_words(self.public(read, table_language)),
            "feed": self.feed.events(events, first, said.seats, session.undone),
            "events": len(events), "notice": showing.table_notice,
            "dial": showing.dial_state(), "screen": screen}
        menu = showing.menu  # built once: each read builds it anew
        owner = menu.seat if menu is not None else None
        likely = registry.get(game.name).expected_entry(game)
        for seat, name in enumerate(game.seats):
            mine = session.result(seat)
            lang = self.languages.get((stored_game.id, seat), table_language)
            with using(lang):  # the seat's page in its own language
                # A refusal or a secret being entered shows as the daemon draws it, in the
                # page's language; else the page asks for the seat's screen when its player
                # peeks (drawn then: ``seat_screen``).
                error = showing.seat_error(seat)
                drawn = error is not None or owner == seat
                screen = None if not drawn else images.get(f"seat:{seat}") \
                    if lang == table_language else showing.seat_image(seat)
                # What the page shows (not its ``api``, which is the daemon's own view) comes
                # from the game read in the page's language, its engine's words and the
                # seats' names as said in it too.
                read = self.reading(session, lang, table_language, used)
                said = read.game
                seat_state = read.result(seat)["state"] if read is not session else mine["state"]
                private = private_part(seat_state, self.public(read, lang))
                channels[f"seat:{seat}"] = {
                    "kind": "seat", "session": stored_game.id, "seat": seat,
                    "name": said.seats[seat], "unnamed": unnamed(name), "names": list(said.seats),
                    "lang": lang, "languages": choices(),
                    "title": registry.get(game.name).title_line(), "api": mine,
                    "words": said.state_in_words(seat_state),
                    "peek": peek_lines(game.name, private, said.seats),
                    # Hold to see: only where the seat's view holds what the public does not
                    # (a game with no secrets has no peek).
                    "secret": any(key != "seat" for key in private),
                    "error": error, "screen": self.pictures.url(screen) if screen else None,
                    "tap": tap_label(game),
                    **actions_and_order(seat_actions(game, said.seats, seat, likely)),
                    "events": len(events)}
                if read is not session:
                    channels[f"seat:{seat}"]["shown"] = seat_state
        self.mirrors.keep_only(used)
        return channels

    def reading(self, session: TableSession, lang: str, table_language: str,
                used: set[str]) -> TableSession:
        """The session a page in ``lang`` reads its words from: the daemon's own (read in the
        table's language), or a copy read in ``lang``; ``used`` gathers the copies read."""
        if lang == table_language and session.names == seat_words(session.header.seats):
            return session
        used.add(lang)
        return self.mirrors.session(session, lang)

    def public(self, read: TableSession, lang: str) -> dict[str, Any]:
        """The public view of ``read`` (the session a page in ``lang`` reads), once a build."""
        found = self.publics.get(lang)
        if found is None:
            found = self.publics[lang] = read.result(None)["state"]
        return found
