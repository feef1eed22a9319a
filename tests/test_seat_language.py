"""What the daemon draws for one seat alone (a refusal, a secret being entered) reaches that
seat's page in the page's language, while the screens at the table stay in the table's: a
real daemon driven with the table's own inputs, its pages built by the real ``Snapshot``."""

from table_driver import daemon_for, give, hold, tap, turn

from companion.bundles.rumble.rules.options import character_word
from companion.daemon.dialogues import DONE
from companion.daemon.items import CameraProposal
from companion.daemon.pages import Page, draw
from companion.errors import CompanionError
from companion.i18n import current, using
from companion.i18n.names import field_word
from companion.screens.common import error_screen
from companion.table import Header
from companion.web.snapshot import Pictures, Snapshot

SEATS = ("Ann", "Bob", "Cy")
#: Bob moves while it is Cy's turn: refused, on Bob's screen only.
OUT_OF_TURN = {"type": "move", "seat": 1, "character": "knight", "to": "A1"}


def refusal(daemon, event, lang):
    """What the session says of ``event`` in ``lang`` (checked, nothing stored)."""
    with using(lang):
        try:
            daemon.stored_game.session.check(event)
        except CompanionError as error:
            return str(error)
    raise AssertionError("not refused")


def pages_of(daemon, languages):
    """The channels of the pages, the seats' pages in ``languages`` (seat -> lang)."""
    snapshot = Snapshot(languages={(daemon.stored_game.id, seat): lang
                                   for seat, lang in languages.items()})
    return snapshot.build(daemon.display, daemon.display.images())


def choose(daemon, value):
    """Turn the dial to ``value``'s entry of the open menu and press, as a person would."""
    menu = daemon.display.menu
    index = next(i for i, (_, v) in enumerate(menu.choices) if v is value or v == value)
    give(daemon, turn(index - menu.cursor), tap("encoder-switch:0"))


def test_a_refusal_reaches_a_french_seats_page_in_french(store):
    daemon, screens = daemon_for(store, Header("rumble", SEATS, 6))
    give(daemon, CameraProposal(OUT_OF_TURN, 1.0))
    english, french = refusal(daemon, OUT_OF_TURN, "en"), refusal(daemon, OUT_OF_TURN, "fr")
    assert english.startswith("it is Cy's turn") and french.startswith("c'est à Cy")
    # The table's screens are in the table's language: Bob's screen says it in English.
    assert daemon.display.seat_error(1) == english
    assert screens["seat:1"].images[-1].tobytes() == error_screen(english).tobytes()
    with using("fr"):
        assert daemon.display.seat_error(1) == french
        french_screen = error_screen(french)
    channels = pages_of(daemon, {1: "fr", 2: "fr"})
    bob, cy = channels["seat:1"], channels["seat:2"]
    assert bob["lang"] == "fr" and bob["error"] == french
    assert bob["screen"] == Pictures().url(french_screen)
    assert cy["error"] is None and cy["screen"] is None  # nothing of Bob's on Cy's page
    # A page in the table's language shows the refusal as Bob's own screen does.
    english_page = pages_of(daemon, {})["seat:1"]
    assert english_page["error"] == english
    assert english_page["screen"] == Pictures().url(screens["seat:1"].images[-1])
    assert current() == "en"  # the table's language is untouched by the pages


def test_a_secret_entered_on_a_seats_screen_shows_on_its_french_page_in_french(store):
    daemon, screens = daemon_for(store, Header("rumble", SEATS, 6))
    give(daemon, hold("encoder-switch:0"))  # enter by hand
    choose(daemon, "secrets")
    choose(daemon, 1)  # Bob's secret characters: picked on Bob's own screen
    choose(daemon, "thief")
    give(daemon, turn(2))  # the cursor moves on, not chosen yet
    shown = daemon.display.menu
    assert shown.seat == 1 and shown.title == f"characters: {character_word('thief')}"
    assert screens["seat:1"].images[-1].tobytes() == draw(Page(shown.title,
                                                               shown.lines)).tobytes()
    with using("fr"):
        french = daemon.display.menu
        thief = character_word("thief")
        assert french.title == f"{field_word('characters')}: {thief}"
        assert thief != "Thief" and french.title != shown.title
        assert french.values() == shown.values()  # the same entries, in French words
        assert french.cursor == shown.cursor
        assert french.labels()[shown.cursor] != shown.labels()[shown.cursor]
        french_screen = draw(Page(french.title, french.lines))
    channels = pages_of(daemon, {1: "fr"})
    assert channels["seat:1"]["screen"] == Pictures().url(french_screen)
    assert channels["seat:0"]["screen"] is None and channels["seat:2"]["screen"] is None
    # The pages read the menu; the table chooses from it: the picks made are stored.
    choose(daemon, "wizard")
    with using("fr"):
        assert daemon.display.menu.title.endswith(character_word("wizard"))
    choose(daemon, DONE)
    assert daemon.stored_game.session.events[-1]["characters"] == ["thief", "wizard"]
    # The table's screen and Bob's own stayed English all along.
    assert daemon.display.menu is None and current() == "en"
