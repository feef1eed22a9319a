"""A Tricky table frame says its hero and trump in words (issue 44: while the active player
chose a hero the table screen read "-, no trump": what is "-"?). Driven through the daemon as
a table is, read off the table screen it drew: what the screen's text says, not its pixels."""

from __future__ import annotations

import pytest
from PIL import ImageDraw
from table_driver import daemon_for

from companion.bundles.tricky import screens as tricky
from companion.bundles.tricky.rules.view import hero_and_trump
from companion.daemon.items import FedEvent
from companion.i18n import using
from companion.table import Header

HEADER = Header("tricky", ("Ann", "Bob", "Cy"), 5)


@pytest.fixture
def written(monkeypatch):
    """Every text drawn on an image from now on, in order."""
    texts: list[str] = []
    draw = ImageDraw.ImageDraw.text

    def text(self, xy, words, *args, **kwargs):
        texts.append(words)
        return draw(self, xy, words, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", text)
    return texts


def table_words(daemon, screens, written) -> list[str]:
    """The texts of the table screen the daemon shows now."""
    written.clear()
    image = tricky.table(daemon.stored_game.game.view(None), HEADER.seats)
    assert screens["table"].images[-1].tobytes() == image.tobytes()  # the screen shown
    return list(written)


def test_while_the_hero_is_chosen_the_table_says_no_hero_yet(store, written):
    daemon, screens = daemon_for(store, HEADER)
    daemon.handle(FedEvent(2, {"type": "deal", "active": 0}))
    daemon.display.refresh()
    words = table_words(daemon, screens, written)
    assert "Ann" in words and "no hero yet" in words
    assert not any(text.startswith("-") for text in words), words


def test_once_chosen_the_table_names_the_hero_and_its_trump(store, written):
    daemon, screens = daemon_for(store, HEADER)
    for line, event in enumerate([{"type": "deal", "active": 0},
                                  {"type": "hero", "seat": 0, "hero": "wizard"}], start=2):
        daemon.handle(FedEvent(line, event))
    daemon.display.refresh()
    words = table_words(daemon, screens, written)
    assert "Wizard, trump spells" in words, words


def test_no_hero_yet_in_the_table_language():
    with using("fr"):
        assert hero_and_trump(None, None) == "pas encore de héros"
    assert hero_and_trump("knight", None).startswith("Knight, ")
