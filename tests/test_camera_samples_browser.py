"""What the camera learnt, on the controls page in Chromium (issue 52): Debian's Chromium
driven by Playwright, as the other web tests do; the real daemon, camera part, vision
pipeline on rendered frames, store, web server and the table's library in a temporary
folder. A card the camera leaves out is put right in two taps; its crop appears under "What
the camera learnt" with the card's name; "Forget" drops it: gone from the page, from the
library the camera reads with and from the samples file.

Skipped where no browser is installed (a fresh clone), failed instead under CI (CI=1)."""

from __future__ import annotations

from camera_web import LiveCameraTable, tricky_before_first_play
from helpers import wait_for

WAIT_MS = 60_000
#: The face of the card laid is enrolled as this card too: the camera leaves it out.
TWIN = "red-0"


def test_a_correction_is_listed_as_a_sample_and_forgotten_with_a_tap(browser, tmp_path):
    header, before, rest = tricky_before_first_play()
    play = rest[0]
    card = play["card"]
    with LiveCameraTable(tmp_path, header, before, learns=True, twins={card: TWIN}) as table:
        page = browser.new_context(viewport={"width": 1000, "height": 1100},
                                   has_touch=True).new_page()
        page.goto(table.table_link())
        page.locator("#samples-none").wait_for(timeout=WAIT_MS)  # nothing learnt yet
        table.show({play["seat"]: [card]})
        left_out = page.locator("#camera-readings .reading[data-state='left out']")
        left_out.wait_for(timeout=WAIT_MS)
        left_out.tap()
        page.locator(f"#camera-nearest .choice[data-id='{card}']").tap()
        page.wait_for_selector("body[data-readings*='corrected']", state="attached",
                               timeout=WAIT_MS)
        # Listed with its crop and the card's name, as the correction list says it.
        sample = page.locator(f"#samples-list .sample[data-card='{card}']")
        sample.wait_for(timeout=WAIT_MS)
        name = next(c["name"] for c in table.web.sent["camera"]["deck"] if c["id"] == card)
        assert sample.locator("figcaption").inner_text() == name
        assert page.locator("#samples-list .sample").count() == 1
        assert page.locator("#samples-none").is_hidden()
        page.wait_for_function(
            "() => { const img = document.querySelector('#samples-list img');"
            " return img && img.complete && img.naturalWidth === 96; }", timeout=WAIT_MS)
        assert table.camera is not None
        library = table.camera.watcher.recognizer.library
        assert [c for c, _ in library.samples] == [card]
        assert (tmp_path / "cards.samples.npz").exists()
        # Forgotten with a tap: gone from the page, then from the camera and its file.
        sample.locator(".sample-drop").tap()
        page.wait_for_selector("#samples-list .sample", state="detached", timeout=WAIT_MS)
        page.locator("#samples-none").wait_for(timeout=WAIT_MS)
        assert page.locator("#samples-status").inner_text() == f"forgotten: {name}"
        wait_for(lambda: library.samples == [], "the camera to drop the sample")
        wait_for(lambda: not (tmp_path / "cards.samples.npz").exists(),
                 "the samples file to be gone")
