"""The deck enrolled with the camera, as the table's controls page shows it: what to lay
next ("Lay the next card: Rat Man (3 of 17)"), every crop the camera took with its name
(or none yet: a tap names it from the game's list), and when the deck is ready. Built in the
daemon's thread after each redraw, into the ``camera`` channel (the controls page's
alone): never to the public table, a seat's page or an API (docs/camera.md, "Enrolling
your cards at the table").
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.daemon.vocabulary import Vocabulary
from companion.games import registry
from companion.i18n import pgettext
from companion.web.camera_view import deck

if TYPE_CHECKING:
    from companion.daemon.table_display import TableDisplay


def enrolment_view(display: TableDisplay) -> dict[str, Any] | None:
    """The enrolment of the game on the table; None where it cannot be enrolled here (no
    camera reading its cards, no place for the library)."""
    enrolling, stored_game = display.enrolling, display.stored_game
    if enrolling is None or stored_game is None or not enrolling.possible():
        return None
    words = Vocabulary(stored_game.game)
    view: dict[str, Any] = {
        "game": registry.get(stored_game.header.game).title_line(), "active": enrolling.active,
        "cards": deck(stored_game.game), "taken": [], "prompt": "", "ready": None, "problem": None}
    written = enrolling.written
    if written is not None and written.session == stored_game.id and not enrolling.active:
        view["ready"] = pgettext(
            "web", "The deck is ready: {n} cards, written to {path}. The camera reads them "
                   "from now on: take them off the table.").format(n=written.cards,
                                                                 path=written.path)
    if not enrolling.active:
        return view
    cards = enrolling.deck
    waiting, coming = cards.waiting, cards.next_card()
    if waiting:
        prompt = pgettext("web", "Name each card laid: tap it, then its name.")
    elif coming is not None:
        prompt = pgettext("web", "Lay the next card: {card} ({n} of {total})").format(
            card=words.display("card", coming), n=cards.position(coming),
            total=len(cards.cards))
    else:
        prompt = ""
    view.update({
        "prompt": prompt, "next": coming, "named": len(cards.named), "total": len(cards.cards),
        "problem": enrolling.problem or None,
        "taken": [{"n": taken.number, "crop": enrolling.crops.get(taken.number, ""),
                   "card": taken.card,
                   "name": words.display("card", taken.card) if taken.card else "?"}
                  for taken in cards.taken]})
    return view
