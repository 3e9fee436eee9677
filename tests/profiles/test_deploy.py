"""The Dockerfile, checked without a Docker engine (none on CI machines); docker-compose.yml is
tests/test_compose.py's."""

from __future__ import annotations

import shlex
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_dockerfile_serves_on_all_interfaces() -> None:
    text = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    assert text.startswith("#") and "FROM python:3.11-slim" in text
    cmd = next(line for line in text.splitlines() if line.startswith("CMD "))
    argv = shlex.split(cmd[4:].strip().strip("[]").replace(",", " "))
    assert argv[:2] == ["yanniv", "serve"]
    from yanniv.cli import _build_parser

    args = _build_parser().parse_args(argv[1:])
    assert args.host == "0.0.0.0"
    health = next(line for line in text.splitlines() if line.strip().startswith("CMD python"))
    assert f"http://127.0.0.1:{args.port}/readyz" in health
