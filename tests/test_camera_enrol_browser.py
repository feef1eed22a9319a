"""A whole game's deck enrolled at the table on the controls page, in Chromium (issue 52):
Debian's Chromium driven by Playwright; the real daemon, camera part, vision pipeline on
rendered frames, store and web server. The test lays Deathtrap's seventeen cards on a
rendered table one by one (one laid in another's place, the table never still between,
and the last two laid together, each then named by a tap) and gets a library that reads
them.

Skipped where no browser is installed (a fresh clone), failed instead under CI (CI=1).
``COMPANION_SCREENSHOTS=docs/images`` also writes docs/images/camera-enrol.png (the crops
taken, the two laid together being named) for docs/camera.md."""

from __future__ import annotations

import os
from pathlib import Path

from camera_enrol import EnrolTable, spot
from helpers import wait_for

from companion.games import registry
from companion.vision.library import CardLibrary
from companion.vision.recognize import Recognizer
from companion.vision.synthetic import Conditions, Placement

WAIT_MS = 60_000
SHOTS = os.environ.get("COMPANION_SCREENSHOTS")


def test_a_whole_deck_is_enrolled_on_the_controls_page(browser, tmp_path):
    with EnrolTable(tmp_path) as table:
        assert table.daemon is not None and table.daemon.stored_game is not None
        cards = registry.get("deathtrap").cards(table.daemon.stored_game.game)
        assert len(cards) == 17
        page = browser.new_context(viewport={"width": 1000, "height": 1100},
                                   has_touch=True).new_page()
        page.goto(table.control())
        start = page.locator("#enrol-start")
        start.wait_for(timeout=WAIT_MS)
        assert start.inner_text() == "Enrol the cards of Deathtrap Dungeon"
        start.tap()
        page.wait_for_selector("body[data-enrol='active']", state="attached", timeout=WAIT_MS)
        prompt = page.locator("#enrol-prompt")
        assert prompt.inner_text() == "Lay the next card: Rat Man (1 of 17)"

        def taken(count: int) -> None:
            page.wait_for_selector(f"body[data-enrol-taken='{count}']", state="attached",
                                   timeout=WAIT_MS)

        # Twelve laid one by one, each left where it lies; the page names each as it goes.
        lying: dict[int, str] = {}
        for n, card in enumerate(cards[:12]):
            lying[n] = card
            table.lay(lying)
            taken(n + 1)
        name = registry.get("deathtrap").names(table.daemon.stored_game.game)[cards[12]]
        assert prompt.inner_text() == f"Lay the next card: {name} (13 of 17)"
        crops = page.locator("#enrol-taken .enrol-crop")
        assert crops.evaluate_all("nodes => nodes.map((n) => n.dataset.card)") == cards[:12]
        assert all(src.startswith("data:image/jpeg") for src in page.locator(
            "#enrol-taken img").evaluate_all("nodes => nodes.map((n) => n.src)"))
        # The thirteenth laid in the twelfth's place, the table never still between.
        lying[11] = cards[12]
        table.lay(lying)
        taken(13)
        # The table swept, and the fourteenth and fifteenth laid one by one again.
        for n in range(2):
            table.lay({m: c for m, c in enumerate(cards[13:13 + n + 1])})
            taken(14 + n)
        # The last two laid together: each waits for a tap naming it.
        table.lay({0: cards[13], 1: cards[14], 6: cards[15], 7: cards[16]})
        taken(17)
        assert prompt.inner_text() == "Name each card laid: tap it, then its name."
        unnamed = page.locator("#enrol-taken .enrol-crop.unnamed")
        assert unnamed.count() == 2
        for position, card in enumerate(cards[15:]):
            page.locator("#enrol-taken .enrol-crop.unnamed").first.tap()
            choices = page.locator("#enrol-cards .choice")
            choices.first.wait_for(timeout=WAIT_MS)
            offered = choices.evaluate_all("nodes => nodes.map((n) => n.dataset.id)")
            assert sorted(offered) == sorted(cards)  # the game's own list, nothing else
            assert offered[:2 - position] == cards[15 + position:]  # those not in come first
            if SHOTS and position == 0:
                page.locator("#enrol").screenshot(path=str(Path(SHOTS) / "camera-enrol.png"))
            page.locator(f"#enrol-cards .choice[data-id='{card}']").tap()
        # Ready once written where the camera reads it.
        page.wait_for_selector("body[data-enrol='ready']", state="attached", timeout=WAIT_MS)
        assert prompt.inner_text().startswith("The deck is ready: 17 cards, written to")
        library = CardLibrary.load(tmp_path / "cards.npz")
        assert set(cards) <= set(library.ids)
        stage = table.stage
        laid = ["manticore", "rat-man", "killing-machine", "zombie", "red-lotus"]
        frame = stage.renderer.render(
            [Placement(stage.items[card], spot(n * 2 + 1), 25.0 * n - 40.0)
             for n, card in enumerate(laid)], table.angles, Conditions(noise=2),
            stage.camera).image
        assert sorted(d.item_id for d in Recognizer(library).recognize(frame)) == sorted(laid)
        wait_for(lambda: table.camera is not None and table.camera._library_version == 1,
                 "the camera to read with the deck")
        assert table.stored_events() == []  # nothing laid to be enrolled was a play
