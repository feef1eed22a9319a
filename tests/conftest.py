"""Shared test settings: hypothesis profiles for local runs and CI, and a fresh table store."""

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
