"""Seat tokens never reach the logs, even though sockets carry them in their URL."""

from __future__ import annotations

import logging

import pytest

from yanniv.server.ops.logs import RedactTokens


def test_token_redacted(caplog: pytest.LogCaptureFixture) -> None:
    logger = logging.getLogger("test.redact")
    logger.addFilter(RedactTokens())
    with caplog.at_level(logging.INFO, logger="test.redact"):
        logger.info('%s - "WebSocket %s" [accepted]', "1.2.3.4:5", "/ws/ABCDEF?token=s3cr3t-x_y")
    assert "s3cr3t" not in caplog.text
    assert "/ws/ABCDEF?token=***" in caplog.text
