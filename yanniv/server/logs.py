"""Keep seat tokens out of the logs: uvicorn logs each socket's path with its `?token=`."""

from __future__ import annotations

import logging
import re

_TOKEN = re.compile(r"(token=)[^&\s\"']+")


class RedactTokens(logging.Filter):
    """Rewrites a record whose text holds `token=...` with the value replaced by `***`."""

    def filter(self, record: logging.LogRecord) -> bool:
        text = record.getMessage()
        if "token=" in text:
            record.msg = _TOKEN.sub(r"\1***", text)
            record.args = None
        return True


def redact_tokens(*logger_names: str) -> None:
    for name in logger_names:
        logging.getLogger(name).addFilter(RedactTokens())
