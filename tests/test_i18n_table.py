"""Choosing the language: in the config, at the table through the menus, kept across a
restart, and every screen redrawn in it at once."""

from __future__ import annotations

import pytest

from companion.daemon.config import parse_config
from companion.daemon.daemon import SWITCH, Daemon
from companion.daemon.dialogues import LANGUAGE
from companion.daemon.displays import MemoryScreen
from companion.daemon.items import FedEvent
from companion.errors import ConfigError, RuleViolation
from companion.hardware.events import InputEvent
from companion.i18n import DEFAULT, current, use, using
from companion.i18n.choice import LanguageChoice
from companion.table import Header, TableStore

TRAPS = Header("traps", ("Ann", "Bob"), 3, {
    "squares": ["T1", "T2"],
    "dials": {"T1": ["start", "x", {"trap": "monstrous-hand", "disarm": 10, "xp": 20}],
              "T2": ["start", {"trap": "noxious-acid-pool", "disarm": 7, "xp": 5}]}})


@pytest.fixture(autouse=True)
def english_after():
    yield
    use(DEFAULT)  # the table's language is the process's: the next test starts in English


def test_the_config_names_the_language_and_a_wrong_one_is_named():
    assert parse_config('[table]\nlanguage = "it"\n').table.language == "it"
    assert parse_config("").table.language == "en"
    with pytest.raises(ConfigError, match=r"\[table\] language: must be one of"):
        parse_config('[table]\nlanguage = "klingon"\n')


def press(daemon, kind, control, value=0):
    daemon.handle(InputEvent(kind, control, value))
    daemon.display.refresh()


def pick(daemon, wanted):
    """Turn the dial to the menu entry whose value is ``wanted`` and press the switch."""
    menu = daemon.display.menu
    target = next(i for i, value in enumerate(menu.values()) if value is wanted
                  or value == wanted)
    if target != menu.cursor:
        press(daemon, "dial", "encoder:0", target - menu.cursor)
    press(daemon, "press", SWITCH)
    press(daemon, "release", SWITCH)


def table_with_screens(tmp_path, store, configured="en"):
    screens = [MemoryScreen("table"), MemoryScreen("seat:0"), MemoryScreen("seat:1")]
    daemon = Daemon(store, screens=screens,
                    language=LanguageChoice(tmp_path / "table.db", configured))
    daemon.supervisor.start_all(daemon.clock())
    return daemon, {screen.name: screen for screen in screens}


def test_switching_at_the_table_redraws_every_screen_and_the_choice_outlives_a_restart(
        tmp_path):
    with TableStore(tmp_path / "table.db") as store:
        daemon, screens = table_with_screens(tmp_path, store)
        daemon.use_stored_game(store.new_session(TRAPS))
        game_events = [{"type": "trigger", "seat": 1, "square": "T2", "clicks": 1}]
        for line, event in enumerate(game_events, start=2):
            daemon.handle(FedEvent(line, event))
        daemon.display.refresh()
        english = {name: screen.images[-1].tobytes() for name, screen in screens.items()}
        press(daemon, "press", SWITCH)
        press(daemon, "hold", SWITCH)  # manual entry: its menu ends with the language
        press(daemon, "release", SWITCH)
        pick(daemon, LANGUAGE)
        assert daemon.display.asks == "language"
        pick(daemon, "es")
        assert current() == "es" and daemon.display.menu is None
        shown = {name: screen.images[-1].tobytes() for name, screen in screens.items()}
        with using("es"):
            images = daemon.display.game_images()
            spanish = {name: image.tobytes() for name, image in images.items()}
        assert shown == spanish  # every screen at once, the trap's own Spanish name on them
        assert all(shown[name] != english[name] for name in ("table", "seat:1"))
        assert daemon.stored_game.game.view(None)["sprung"]["name"] == "Charca de ácido venenoso"
        assert len(daemon.stored_game.session.in_force) == 1  # nothing was played by choosing

    use(DEFAULT)
    with TableStore(tmp_path / "table.db") as store:
        again, _ = table_with_screens(tmp_path, store)
        assert current() == "es"  # kept beside the store, over the config's English
    assert (tmp_path / "table.db.language").read_text().strip() == "es"


def test_the_new_game_menu_offers_the_language_and_comes_back(tmp_path):
    with TableStore(tmp_path / "table.db") as store:
        daemon, screens = table_with_screens(tmp_path, store, configured="fr")
        daemon.resume_or_offer()
        daemon.display.refresh()
        assert daemon.display.menu.title == "Nouvelle partie"
        pick(daemon, LANGUAGE)
        pick(daemon, "de")
        assert daemon.display.asks == "new game" and daemon.display.menu.title == "Neues Spiel"


def test_an_unknown_language_in_the_state_file_falls_back_to_the_config(tmp_path):
    (tmp_path / "table.db.language").write_text("xx\n")
    assert LanguageChoice(tmp_path / "table.db", "it").load() == "it"


def test_a_refusal_too_long_for_one_screen_turns_its_pages_and_stays_for_all():
    from companion.daemon.ui import TableUI
    from companion.screens.common import PAGE_SECONDS, error_pages, error_screen

    with using("de"):
        message = str(RuleViolation("secrets-taken", (
            "zwei Plätze gaben dieselbe geheime Figur für Abenteuer 2 an: jeder prüft seine "
            "Plättchen, dann die falschen zurücknehmen und neu angeben")))
        pages = error_pages(message)
        assert pages > 1
        ui = TableUI("rumble", 3)
        ui.refused(1, message, now=100.0)
        shown = set()
        for step in range(pages):
            ui.tick(100.0 + step * PAGE_SECONDS)
            assert ui.error(1) == message  # still there until every page was shown
            shown.add(error_screen(message, ui.error_age(1)).tobytes())
        assert len(shown) == pages  # each page different
        ui.tick(100.0 + pages * PAGE_SECONDS + 5.0)
        assert ui.error(1) is None
