"""The load harness's tests run their servers with the group commit's production window."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _production_window(production_window: None) -> None:
    """Kill -9 under load and the balanced cluster are tested as they run in production."""
