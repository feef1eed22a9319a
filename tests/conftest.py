"""Shared test settings: hypothesis profiles for local runs and CI, a fresh table store, and
Debian's Chromium for the web pages' browser tests."""

import os

import pytest
from hypothesis import HealthCheck, settings

from companion.table import TableStore

settings.register_profile(
    "ci", deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True)
settings.register_profile("dev", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci" if os.environ.get("CI") else "dev")


@pytest.fixture
def store(tmp_path):
    """A table store of its own for the test, closed after it."""
    with TableStore(tmp_path / "table.db") as table_store:
        yield table_store


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium driven by Playwright (skipped where none, failed under CI)."""
    from web_table import browser_or_skip

    path, sync_playwright = browser_or_skip()
    with sync_playwright() as playwright:
        # Playwright gives the browser a fresh profile of its own (a new user-data-dir).
        launched = playwright.chromium.launch(
            executable_path=path, headless=True,
            args=["--headless", "--no-sandbox", "--disable-gpu",
                  "--disable-background-networking", "--disable-component-update",
                  "--disable-sync", "--no-first-run"])
        yield launched
        launched.close()


#: The kinds of test that take seconds to minutes each (the camera, the daemon's processes,
#: the browser, the demo's whole games). Run first: spread over the workers (-n auto), the
#: run does not end with one worker on a long test while the others have nothing left.
LONG_FIRST = ("test_camera_", "test_daemon_", "test_demo", "test_e2e_", "test_vision_",
              "test_web_")


def pytest_collection_modifyitems(config, items):
    # Whole modules move (the sort is stable): their module-scoped fixtures stay shared.
    items.sort(key=lambda item: not item.path.name.startswith(LONG_FIRST))
