"""Mage Knight traps screens: the trap-dial flow and the squares on the table, readings at seats.

A reading is private: it is drawn only on the exposing seat's screen, only while that seat
holds its button (peeks), and it comes from that seat's own view of the game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw

from companion.i18n import N_, NP_, _, ngettext, pgettext, translated
from companion.screens.canvas import FINE, HEIGHT, WIDTH, blank, fit_text, paragraph, title_bar
from companion.screens.common import body, headline, peek_hint, seat_screen

STATUS_MARKS = {"hidden": "?", "exposed": "!", "triggered": NP_("mark", "BANG"),
                "disarmed": NP_("mark", "OK"),
                "clear": "-"}
ACTIONS = {"expose": N_("Expose"), "trigger": N_("Trigger"), "quick": N_("Disarm quick"),
           "slow": N_("Disarm slow")}


def short_name(state: dict[str, Any]) -> str | None:
    """A sprung trap's name short enough for a quarter of the screen (the rules' own name
    is on the headline and the victim's screen)."""
    short = {"buzz-saw": pgettext("mark", "Saw"), "cage": pgettext("mark", "Cage"),
             "falling-weight": pgettext("mark", "Wt."), "fire-jets": pgettext("mark", "Jets"),
             "jaws-of-doom": pgettext("mark", "Jaws"), "monstrous-hand": pgettext("mark", "Hand"),
             "noxious-acid-pool": pgettext("mark", "Acid"), "spiked-pit": pgettext("mark", "Pit")}
    return short.get(state.get("trap") or "", state.get("name"))


def dial_flow(flow: dict[str, Any]) -> Image.Image:
    """The public steps of the trap dial: square, action, clicks turned, dice entered."""
    square, step = flow["square"], flow["step"]
    if step == "square":
        return headline(_("Which square?"), square, _("turn, then press the dial"))
    if step == "action":
        return headline(_("{square}: what happens?").format(square=square),
                        translated(ACTIONS[flow["action"]]), _("turn, then press the dial"))
    action = _("{action} {square}").format(action=translated(ACTIONS[flow["action"]]),
                                           square=square)
    if step == "clicks":
        clicks = flow["clicks"]
        return headline(action, ngettext("{n} click", "{n} clicks", clicks).format(n=clicks),
                        _("turn left, tap seat: done"))
    # The die the dial sets is in brackets: a press moves them to the other die.
    dice = " + ".join(f"[{die}]" if index == flow["die"] else str(die)
                      for index, die in enumerate(flow["dice"]))
    return headline(action, dice, _("press: other die, tap seat"))


def sprung_table(sprung: dict[str, Any], seats: Sequence[str]) -> Image.Image:
    """A trap that just went off: where and on whom, which, what it did (public once
    triggered). The trap's name as the rules print it may take two lines."""
    image = blank()
    draw = ImageDraw.Draw(image)
    top = title_bar(draw, f"{sprung['square']}: {seats[sprung['seat']]}")[1]
    body(draw, (0, top, WIDTH, HEIGHT), sprung["name"] + "!", sprung["hurt"])
    return image


def table(view: dict[str, Any], seats: Sequence[str]) -> Image.Image:
    """Every trap square's public status, and the last thing that happened; a trap that just
    went off fills the screen until the next event."""
    if view.get("sprung"):
        return sprung_table(view["sprung"], seats)
    image = blank()
    draw = ImageDraw.Draw(image)
    top = title_bar(draw, _("Trap squares"))[1]
    squares = list(view["squares"].items())
    width = WIDTH // max(len(squares), 1)
    bottom = HEIGHT - 13
    for index, (square, state) in enumerate(squares):
        left = index * width
        middle = (top + bottom) // 2
        fit_text(draw, (left, top, left + width, middle), square, largest=middle - top)
        # A column is a quarter of the screen: a sprung trap by its short name ("Saw").
        mark = short_name(state) if state["status"] == "triggered" else None
        fit_text(draw, (left, middle, left + width, bottom),
                 mark or pgettext("mark", STATUS_MARKS.get(state["status"], state["status"])),
                 largest=bottom - middle)
    fit_text(draw, (0, bottom, WIDTH, HEIGHT),
             view.get("last") or _("press the dial to begin"), largest=11)
    return image


def _current_reading(view: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
    """The seat's reading still valid on the dial, the one its latest note is about first."""
    readings = [(square, state["reading_seen"]) for square, state in view["squares"].items()
                if state.get("reading_seen", {}).get("current")]
    note = view.get("note") or ""
    readings.sort(key=lambda item: not note.startswith(item[0]))
    return readings[0] if readings else None


def seat(view: dict[str, Any], seats: Sequence[str], peeking: bool) -> Image.Image:
    """The seat's private reading while it peeks; a hint that one waits; its XP."""
    me = view["seat"]
    xp = pgettext("score", "{n} XP").format(n=view["your_xp"])
    image, draw, box = seat_screen(seats[me], xp)
    reading = _current_reading(view)
    sprung = view.get("sprung")
    if sprung and sprung["seat"] == me and not peeking:
        # The victim reads the whole effect on its own screen; the table has the headline.
        paragraph(draw, box, f"{sprung['name']}: {sprung['hurt']}. {sprung['effect']}",
                  largest=14, smallest=FINE)
    elif reading is None:
        body(draw, box, pgettext("score", "{n} XP").format(n=view["your_xp"]),
             _("experience from traps"))
    elif not peeking:
        peek_hint(draw, box, _("{square} reading").format(square=reading[0]))
    else:
        body(draw, box, *reading_lines(*reading))
    return image


def reading_lines(square: str, reading: dict[str, Any]) -> tuple[str, str]:
    """A dial reading a seat took, as its screen shows it while peeking (and its page)."""
    if reading.get("trap") is None:
        return f"{square}: {reading['name']}", _("no trap")
    # A variable "n+" disarm number stays "n+" until its first attempt fixes it.
    disarm = reading["disarm"] if reading.get("disarm_now") is None else reading["disarm_now"]
    return reading["name"], _("{square} disarm {disarm}, {xp} XP").format(
        square=square, disarm=disarm, xp=reading["xp"])


def facts(private: dict[str, Any], seats: Sequence[str]) -> dict[str, str]:
    """A seat's own facts in words (its page): the dial readings it took, the one still on
    the dial first, each as its screen shows it."""
    if "squares" not in private:
        return {}
    readings = []
    for square, state in private["squares"].items():
        reading = state.get("reading_seen")
        if reading is not None:
            words = ": ".join(dict.fromkeys(reading_lines(square, reading)))
            readings.append(words if reading.get("current") else
                            pgettext("web", "{reading} (the dial has turned since)").format(
                                reading=words))
    return {"squares": "; ".join(readings) or "-"}
