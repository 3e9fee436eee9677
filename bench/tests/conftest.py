"""The harness's own tests (`pytest bench/tests`): they reuse the product tests' fixtures for
services, and run their servers with the group commit's production window."""

from __future__ import annotations

import pytest

from tests.conftest import (  # noqa: F401  (fixtures, registered by being named here)
    nginx_path,
    postgres_admin_url,
    postgres_url,
    production_window,
    redis_url,
)


@pytest.fixture(autouse=True)
def _production_window(production_window: None) -> None:  # noqa: F811
    """The harness's servers run as in production."""
