"""Every string of every catalogue fits the screen it is drawn on, at the type it is drawn in.

Each string is drawn with the project's own drawing code on a 128x64 one-bit image, in the
box its catalogue context says (``score``: the seat header's score, ``mark``: a trap square's
column, ``text``: a seat's paragraph, ``event``/``field``/``game``: a menu entry; a refusal
from a game's rules: the refusal screen, which turns pages), else as one line of the screen.
Placeholders are filled with sample values in the same language: a seat named "Alice" (names
longer than five letters may be cut with ".."), two-digit numbers, the longest words the
placeholder can hold where the choice is small.
"""

from __future__ import annotations

import json
import re
import string
from importlib import resources

import pytest
from PIL import ImageDraw

from companion.i18n import LANGUAGES, NAMES, translator
from companion.i18n.build import read
from companion.screens.canvas import FINE, SMALLEST, blank, fit_text, fits, layout
from companion.screens.common import ERROR_BOX, SECRET_BOX

#: Widths in pixels (the boxes of ``companion.screens``), at the smallest type.
LINE = 124  # a title bar (2 px each side), a headline's line, a menu's title
MENU = 126  # a menu entry, after its "> "
SCORE = 50  # the score at the right of a seat's header
MARK = 128 // 4 - 1  # one trap square's column, four squares on the table screen
HEADLINE_BIG = 64 - 15 - 13  # a headline's big line(s), between the title and the small line
#: Strings that are never drawn on a screen (they go to ``companion replay``'s text, or a
#: trap's headline covers the table screen while they are the latest event).
NOT_DRAWN = {
    "{player} triggered {square}: {trap}", "{player} failed to disarm {square}: {trap}",
    "{square} reads {trap}: disarm {disarm}, {xp} XP", "{square} reads X: no trap",
}
#: Strings whose sample needs other values than the rest (key: msgid).
SAMPLES = {"{title}  {n} left": {"title": ("Adventure {n}/{total}", 3), "n": "9"},
           "Seen: {what}?": {"what": ("event", "pass")}}
PLAYER = "Alice"
PLAYER_KEYS = {"player", "player2", "other", "seat", "active", "expected", "namer", "ninja",
               "name", "missing", "waiting", "typed", "pig"}


def fields(text: str) -> list[str]:
    return [name for _, name, _, _ in string.Formatter().parse(text) if name]


def samples(lang: str) -> dict[str, str]:
    tr = translator(lang)
    words = {
        "card": tr.gettext("Skeleton"), "label": tr.gettext("Skeleton"),
        "trap": tr.gettext("Jaws of Doom"), "hero": tr.gettext("Troubadour"),
        "character": tr.gettext("Barbarian"), "offer": tr.gettext("Troubadour"),
        "square": "T4", "room": "C4", "to": "C4", "chest": "C4", "entry": "A1",
        "title": tr.gettext("Round {n}/{total}").format(n=4, total=4),
        "game": max((tr.pgettext("game", g) for g in ("Deathtrap Dungeon", "Rumble",
                     "Mage Knight traps", "Tricky Dungeon")), key=len),
        "place": tr.gettext("{place}, tied").format(place=tr.gettext("8th")),
        "action": max((tr.gettext(a) for a in ("Expose", "Trigger", "Disarm quick",
                                               "Disarm slow")), key=len),
        "trump": f"{tr.gettext('yellow')} 7", "suit": tr.gettext("yellow"),
        "event": tr.pgettext("event", "play"), "field": tr.pgettext("field", "cards"),
        "what": tr.gettext("not recorded"), "error": "12",
        "disarm": "6+", "page": "2", "pages": "3", "why": "",
        "part": "camera",  # a part of the daemon, by its name (as its failures are named)
        "language": max(NAMES.values(), key=len),
    }
    words.update(dict.fromkeys(PLAYER_KEYS, PLAYER))
    return words


def filled(text: str, lang: str, msgid: str = "") -> str:
    words = samples(lang)
    tr = translator(lang)
    for key, value in SAMPLES.get(msgid, {}).items():
        if isinstance(value, tuple) and value[0] == "event":
            words[key] = tr.pgettext("event", value[1]) + " " + PLAYER
        elif isinstance(value, tuple):
            words[key] = tr.gettext(value[0]).format(n=value[1], total=value[1])
        else:
            words[key] = value
    return string.Formatter().vformat(text, (), {k: words.get(k, "12") for k in fields(text)})


def refusal(message) -> bool:
    """A message of the rules (a refusal) or of the camera, shown on the paged refusal
    screen."""
    return all(path.startswith(("companion/games/", "companion/errors.py",
                                "companion/table/", "companion/vision/"))
               or (path.startswith("companion/bundles/")
                   and (path.endswith("/camera.py") or "/rules/" in path))
               for path, _ in message.locations)


def data_field(message) -> str | None:
    for comment in message.auto_comments:
        if comment.startswith("effect in"):
            return "effect"
        if comment.startswith("name in"):
            return "name"
    return None


def one_line(text: str, width: int) -> str | None:
    """None if ``text`` fits ``width`` at the smallest type, drawn as the screens draw it."""
    image = blank()
    fit_text(ImageDraw.Draw(image), (0, 0, width, 14), text, largest=12)
    return None if fits(text, width, SMALLEST) else f"{text!r} is wider than {width} px"


def paragraph_fits(text: str, box, smallest: int = SMALLEST, pages: bool = False
                   ) -> str | None:
    size, laid = layout(ImageDraw.Draw(blank()), box, text, 14, smallest)
    too_wide = [line for page in laid for line in page if not fits(line, box[2] - box[0], size)]
    if too_wide:
        return f"{too_wide[0]!r} is wider than the screen"
    if len(laid) > 1 and not pages:
        return f"{text!r} takes {len(laid)} screens at size {size}"
    return None


def problem(message, string_: str, lang: str) -> str | None:
    msgid = message.id[0] if isinstance(message.id, tuple) else message.id
    text = filled(string_, lang, msgid)
    context = message.context
    if message.id in NOT_DRAWN:
        return None
    if context == "voice":
        return None  # spoken, not drawn
    if context == "web":
        return None  # the web pages, drawn by a browser
    if context == "score":
        return one_line(text, SCORE)
    if context == "mark":
        return one_line(text, MARK)
    if context == "text":
        return paragraph_fits(text, SECRET_BOX)
    if context in ("event", "field", "game"):
        return one_line("> " + text, MENU)
    if data_field(message) == "effect":
        return None  # drawn with its trap's name: test_a_sprung_traps_whole_effect_fits
    if data_field(message) == "name" and any("traps-catalog" in path
                                             for path, _ in message.locations):
        # The big line of a headline or a reading, two lines for a long name.
        return paragraph_fits(text + "!", (0, 0, 128, HEADLINE_BIG))
    if data_field(message) == "name":
        return one_line("> " + text, MENU)  # a card or character in a manual entry's menu
    if refusal(message):
        return paragraph_fits(text, ERROR_BOX, pages=True)
    return one_line(text, LINE)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_string_fits_its_box(lang):
    found = []
    for message in read(lang):
        if not message.id:
            continue
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        for form in forms:
            trouble = problem(message, form, lang)
            if trouble:
                found.append(f"{lang} [{message.context or ''}] {trouble}")
    assert not found, "\n".join(found)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_sprung_traps_whole_effect_fits_its_victims_screen(lang):
    """The victim's screen: the trap's name, its damage and its whole effect, in fine type."""
    tr = translator(lang)
    catalog = json.loads(resources.files("companion.bundles.traps").joinpath(
        "data", "traps-catalog.json").read_text("utf-8"))
    found = []
    for trap in catalog["traps"].values():
        hurt = tr.ngettext("{n} click of damage", "{n} clicks of damage", 2).format(n="1d6")
        text = f"{tr.gettext(trap['name'])}: {hurt}. {tr.gettext(trap['effect'])}"
        trouble = paragraph_fits(text, SECRET_BOX, smallest=FINE)
        if trouble:
            found.append(trouble)
    assert not found, "\n".join(found)


def test_the_english_that_did_not_fit_now_does():
    """The strings the issue found cut: each now fits where it is drawn."""
    tr = translator("en")
    assert fits("> " + tr.pgettext("game", "Mage Knight traps"), MENU)
    assert tr.ngettext("{n} trick", "{n} tricks", 1).format(n=1) == "1 trick"
    assert tr.npgettext("score", "{n} card", "{n} cards", 1).format(n=1) == "1 card"
    assert fits(tr.gettext("{player} disarmed {square}: +{xp} XP").format(
        player=PLAYER, square="T2", xp=3), LINE)
    assert fits(tr.pgettext("mark", "Acid"), MARK)


def test_placeholder_samples_cover_every_placeholder_with_a_word():
    """A placeholder the samples do not know is filled with "12": list the word ones (the
    web pages' strings are drawn by a browser, not fitted: left out)."""
    unknown = set()
    for message in read("en"):
        if message.context == "web":
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        for text in ids:
            unknown |= {name for name in fields(text) if not re.fullmatch(
                r"n|total|count\d?|xp|value\d?|number|clicks|round|seats|size|given|more|"
                r"before|limit|most|adventure|trigger_max|prediction|die|dice|counts|trick|"
                r"trump_value|how|hero_set|kind|chosen|rolled|rule|message|names|squares|"
                r"values|suits|heroes|cards|characters|rooms|moves|room2|where|led|shown|"
                r"field|what|first|second|changes|item|step|n", name)}
    assert unknown <= set(samples("en")), sorted(unknown - set(samples("en")))
