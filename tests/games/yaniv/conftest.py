"""The server tests' app fixtures, for the Yaniv room tests."""

from tests.server.conftest import app_factory, client, sqlite_url

__all__ = ["app_factory", "client", "sqlite_url"]
