"""The server's logs: seat tokens kept out of them (uvicorn logs each socket's path with its
`?token=`), and their format, for a person or for a log collector (`YANNIV_LOG_FORMAT`).

`text` (the default): uvicorn's lines as uvicorn prints them, the server's own as
`time LEVEL logger: message`. `json`: one JSON object a line, uvicorn's lines included:
`ts` (UTC, ISO 8601), `level`, `logger`, `msg`, `room` (the room code, on a line about one
room), `process` (this process's id, `room_leases.owner`), `advertise` (its
`YANNIV_ADVERTISE_URL`, if set), and `exc_info` (the traceback) on an error.

A line's room: `extra={"room": code}` if the call gives one; otherwise the first argument of a
message in the server's form `"room %s: …"` (every line of `yanniv.server` about one room is
written so); otherwise, on uvicorn's lines, the code in the request's path (`/ws/CODE`,
`/api/rooms/CODE…`, `/r/CODE`). No context variable: the group commit's and the keeper's
tasks serve every room, and would carry whichever room started them.
"""

from __future__ import annotations

import copy
import logging
import re
from typing import Any

from pythonjsonlogger.core import RESERVED_ATTRS
from pythonjsonlogger.json import JsonFormatter
from uvicorn.config import LOGGING_CONFIG

from yanniv.server.rooms.codes import is_code

_TOKEN = re.compile(r"(token=)[^&\s\"']+")
_PATH_ROOM = re.compile(r"/(?:ws|r|api/rooms)/([A-Za-z0-9]+)")
#: The JSON keys of a record's standard fields.
_RENAMED = {"levelname": "level", "name": "logger", "message": "msg"}
#: Record attributes never written: the standard ones not asked for, and the terminal
#: colours uvicorn attaches to its own lines.
_SKIPPED = (*RESERVED_ATTRS, "color_message")
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


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


class RoomField(logging.Filter):
    """Sets `record.room` to the room a line is about, when it names one (see the module)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "room", None) is not None:
            return True
        room = None
        args = record.args
        if isinstance(record.msg, str) and record.msg.startswith("room %s") and args:
            first = args[0] if isinstance(args, tuple) else None
            room = first if isinstance(first, str) else None
        elif record.name.startswith("uvicorn"):
            found = _PATH_ROOM.search(record.getMessage())
            if found is not None and is_code(found.group(1).upper()):
                room = found.group(1).upper()
        if room is not None:
            record.room = room
        return True


def json_formatter(process: str = "", advertise: str = "") -> JsonFormatter:
    """The `json` format's formatter (also a `logging.config` factory: `"()"`)."""
    static = {"process": process} if process else {}
    if advertise:
        static["advertise"] = advertise
    return JsonFormatter("{levelname}{name}{message}", style="{", rename_fields=_RENAMED,
                         static_fields=static, reserved_attrs=_SKIPPED, timestamp="ts",
                         json_ensure_ascii=False)


def log_config(log_format: str, process: str = "", advertise: str = "") -> dict[str, Any]:
    """uvicorn's `log_config` (a `logging.config.dictConfig`) for `yanniv serve`: uvicorn's
    own, plus a handler for the `yanniv` loggers (without one, their INFO lines went
    nowhere), in the chosen format, every handler setting `room`."""
    config: dict[str, Any] = copy.deepcopy(LOGGING_CONFIG)
    config["filters"] = {"room": {"()": RoomField}}
    if log_format == "json":
        formatter = {"()": json_formatter, "process": process, "advertise": advertise}
        config["formatters"] = {"default": formatter, "access": dict(formatter)}
        yanniv_formatter = "default"
    else:
        config["formatters"]["yanniv"] = {"format": TEXT_FORMAT}
        yanniv_formatter = "yanniv"
    config["handlers"]["yanniv"] = {"formatter": yanniv_formatter,
                                    "class": "logging.StreamHandler",
                                    "stream": "ext://sys.stderr"}
    for handler in config["handlers"].values():
        handler["filters"] = ["room"]
    config["loggers"]["yanniv"] = {"handlers": ["yanniv"], "level": "INFO", "propagate": False}
    return config
