"""The camera's question on the pages: the unsure sighting the table is asked about, with the
crop of its reading and the choices, on the acting seat's page (in its language) and on the
controls page; no other seat's page ever gets it (``add_question``, in the daemon's thread
after each redraw). The answer comes back as ``questions.Answer`` (``camera_routes.py``).
"""

from __future__ import annotations

import base64
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from companion.daemon.questions import NO, YES, Question
from companion.daemon.recorder import sighting_in_words
from companion.daemon.vocabulary import Vocabulary
from companion.i18n import _, current, using

if TYPE_CHECKING:
    from companion.daemon.table_display import TableDisplay


class Crops:
    """Each question's crop as a data URL, encoded once."""

    def __init__(self) -> None:
        self._made: tuple[int, str | None] | None = None

    def url(self, question: Question) -> str | None:
        if self._made is None or self._made[0] != question.number:
            crop = question.crop
            data = None if crop is None else \
                "data:image/jpeg;base64," + base64.b64encode(crop).decode()
            self._made = (question.number, data)
        return self._made[1]


def question_view(question: Question, game: Any, crop: str | None) -> dict[str, Any]:
    """The question in the words of the language current (the page's)."""
    words = Vocabulary(game)
    choices = [{"value": YES, "label": _("yes, record it")}]
    choices += [{"value": item, "label": words.display("card", item)}
                for item in question.alternatives]
    choices.append({"value": NO, "label": _("no")})
    return {"question": question.number,
            "title": _("Seen: {what}?").format(what=sighting_in_words(question.event, game)),
            "crop": crop, "choices": choices}


def add_question(channels: dict[str, Any], display: TableDisplay, crops: Crops,
                 languages: Mapping[tuple[int, int], str]) -> None:
    """The question asked now into the acting seat's channel and the camera's (the controls
    page's); nothing into any other channel."""
    question, stored_game = display.asked, display.stored_game
    if question is None or stored_game is None:
        return
    crop = crops.url(question)
    camera = channels.get("camera")
    if camera is not None:
        camera["asked"] = question_view(question, stored_game.game, crop)
    seat = question.seat
    channel = channels.get(f"seat:{seat}")
    if seat is not None and channel is not None:
        with using(languages.get((stored_game.id, seat), current())):
            channel["asked"] = question_view(question, stored_game.game, crop)
