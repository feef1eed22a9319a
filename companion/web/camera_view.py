"""The camera's view for the table's controls page: the latest settled picture and every
reading on it, built in the daemon's thread after each redraw (``WebPart.watch``).

The ``camera`` channel goes to the controls page's socket alone (``/t/TOKEN/ws?camera=1``):
never to the public table, a seat's page, the public API, the voice or an export. Its picture
is served at ``/t/TOKEN/camera/LOOK.jpg`` (the table's token again); ``Shots`` holds the
latest few for the server. A reading is drawn with its outline (picture pixels), its name and
how it stands: sure, asked (the table is asked to confirm it), left out (an outline the
camera found and could not name), corrected (on this page), not a card. The game's earlier
camera events are listed too (``earlier``): each one's stored picture and readings are at
``/t/TOKEN/camera/event/SEQ.jpg`` and ``.json``. So are the samples corrections taught the
camera (``samples``: each one's number, card and name, newest first, and the list's version),
each one's crop at ``/t/TOKEN/camera/sample/NUMBER.jpg`` (``SampleCrops`` holds them for the
server): a card's face on the table, for the controls page alone as its picture is.

The ``pictured`` channel goes to the table page opened with the table's token alone
(``/t/TOKEN/ws?pictures=1``): every camera event of the game (not only the latest few), so
its "What happened" list offers each one's picture on tap; never to the public table ``/``.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

from companion.daemon.vocabulary import Vocabulary
from companion.games import registry
from companion.i18n import current, pgettext

if TYPE_CHECKING:
    from companion.daemon.library import Sample
    from companion.daemon.table_display import TableDisplay

#: Pictures the server keeps for the controls page (the latest looks).
KEPT = 4
#: How many of the game's earlier camera events the page lists, with their pictures.
EARLIER = 30


class Shots:
    """The latest looks' JPEGs, by look number: written in the daemon's thread, read in
    the server's."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._jpegs: OrderedDict[int, bytes] = OrderedDict()

    def keep(self, number: int, jpeg: bytes) -> bool:
        """Keep a look's picture; False if it was kept already."""
        with self._lock:
            if number in self._jpegs:
                return False
            self._jpegs[number] = jpeg
            while len(self._jpegs) > KEPT:
                self._jpegs.popitem(last=False)
            return True

    def get(self, number: int) -> bytes | None:
        with self._lock:
            return self._jpegs.get(number)


class SampleCrops:
    """The crops of the samples the camera uses, by number: written in the daemon's thread
    (those listed, before the page hears of them), read in the server's."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._jpegs: dict[int, bytes] = {}

    def keep(self, samples: list[Sample]) -> None:
        """The crops of ``samples`` (those listed now): the others are no longer served."""
        with self._lock:
            self._jpegs = {sample.number: sample.jpeg for sample in samples}

    def get(self, number: int) -> bytes | None:
        with self._lock:
            return self._jpegs.get(number)


def state_words() -> dict[str, str]:
    """How a reading stands, in the page's words."""
    return {"sure": pgettext("web", "sure"), "asked": pgettext("web", "asked"),
            "left out": pgettext("web", "left out"), "corrected": pgettext("web", "corrected"),
            "not a card": pgettext("web", "not a card")}


#: Each game's deck by name, per language and options: the same all game, worked out once.
_DECKS: dict[tuple[str, str, str], list[dict[str, str]]] = {}


def deck(game: Any) -> list[dict[str, str]]:
    """Every card or tile of the game (its bundle's ``cards``), by name, in the game's own
    order: the names the page draws readings with, and what it may choose from (one list
    per game, options and language, shared: read it, never change it)."""
    key = (game.name, current(), json.dumps(game.options, sort_keys=True, default=str))
    found = _DECKS.get(key)
    if found is None:
        words = Vocabulary(game)
        found = _DECKS[key] = [{"id": card, "name": words.display("card", card)}
                               for card in registry.get(game.name).cards(game)]
    return found


def earlier(display: TableDisplay) -> list[dict[str, Any]]:
    """The game's latest camera events that keep their picture, newest first: each one's
    number (its sequence number) and what it was, in the public words of the feed."""
    from companion.web.snapshot import stored_event_in_words

    stored_game = display.stored_game
    if stored_game is None:
        return []
    events, undone = stored_game.session.events, stored_game.session.undone
    return [{"seq": seq, "text": stored_event_in_words(events[seq - 1], stored_game.game.seats,
                                                seq in undone)}
            for seq in reversed(display.pictures_kept()[-EARLIER:]) if seq <= len(events)]


def pictured_channel(display: TableDisplay, camera: dict[str, Any]) -> dict[str, Any]:
    """The ``pictured`` channel: every event of the game being played that keeps the
    camera's picture, oldest first, in the public words of the feed; with the cards' names
    and the readings' states in words, to draw a stored picture's readings (``camera``: the
    camera channel just built, whose deck and words it reuses)."""
    from companion.web.snapshot import stored_event_in_words

    stored_game = display.stored_game
    if stored_game is None:
        return {"kind": "pictured", "session": None, "events": []}
    session, seats = stored_game.session, stored_game.game.seats
    events, undone = session.events, session.undone
    return {"kind": "pictured", "session": stored_game.id,
            "events": [{"seq": seq, "text": stored_event_in_words(events[seq - 1], seats,
                                                           seq in undone)}
                       for seq in display.pictures_kept() if 0 < seq <= len(events)],
            "names": {card["id"]: card["name"] for card in camera.get("deck", [])},
            "states": camera.get("states", {})}


def ended(display: TableDisplay) -> str | None:
    """What the page says once the camera has no more frames to read (a folder of frames,
    played once), else None."""
    if "camera" not in display.finished:
        return None
    return pgettext("web", "The camera has shown every frame of its folder: it reads no "
                           "more. [camera] loop = true in the config plays the folder again.")


def samples_view(display: TableDisplay) -> dict[str, Any] | None:
    """The samples corrections taught the camera, newest first: each one's number (its
    crop is ``camera/sample/NUMBER.jpg``), card id and name as the game on the table says it
    ("not a card" for a sample of what is not one); with the list's version. None where
    the table has no camera library."""
    listed = display.samples
    if listed is None:
        return None
    version, samples = listed
    words = Vocabulary(display.stored_game.game) if display.stored_game is not None else None
    return {"version": version, "listed": [
        {"n": sample.number, "id": sample.card, "name": sample_name(sample.card, words),
         "picture": f"camera/sample/{sample.number}.jpg"} for sample in reversed(samples)]}


def sample_name(card: str, words: Vocabulary | None) -> str:
    """What a sample shows, in the page's words: the card's name as the game says it (its
    id with no game on the table), or "not a card"."""
    from companion.vision.library import NOT_A_CARD

    if card == NOT_A_CARD:
        return pgettext("web", "not a card")
    return words.display("card", card) if words is not None else card


def camera_channel(display: TableDisplay) -> dict[str, Any]:
    """The ``camera`` channel: the latest look of the game being played, or none; and the
    samples corrections taught the camera."""
    stored_game, look = display.stored_game, display.camera
    if stored_game is None or look is None:
        return {"kind": "camera", "look": None, "session": stored_game.id if stored_game else None,
                "watching": display.watching, "earlier": earlier(display), "states": state_words(),
                "deck": deck(stored_game.game) if stored_game else [], "ended": ended(display),
                "samples": samples_view(display)}
    words = Vocabulary(stored_game.game)
    said = state_words()
    picture = look.picture
    offers = display.offers(look)
    readings = []
    for index, (reading, state) in enumerate(zip(look.readings, look.states, strict=True)):
        name = words.display("card", reading.item_id) if reading.item_id else "?"
        # Only the game's own cards its rules allow there now, the likeliest first.
        allowed = offers[index] if offers is not None else list(reading.nearest)
        kept = set(allowed)
        readings.append({
            "n": index, "id": reading.item_id, "name": name, "state": state,
            "said": said[state], "confidence": round(reading.confidence, 2),
            "outline": picture.in_pixels(reading.outline),
            "nearest": [{"id": item, "name": words.display("card", item)}
                        for item in reading.nearest if item in kept],
            "allowed": allowed})
    return {"kind": "camera", "session": stored_game.id, "look": look.number, "watching": True,
            "picture": f"camera/{look.number}.jpg", "width": picture.width,
            "height": picture.height, "readings": readings,
            "events": len(stored_game.session.events), "deck": deck(stored_game.game),
            "can_undo": bool(look.earlier), "earlier": earlier(display), "states": said,
            "ended": ended(display), "samples": samples_view(display)}
