"""No module of the package grows past 600 lines (issue 17's bar): a long module holds more
than one job, and the next reader pays for it."""

from __future__ import annotations

from pathlib import Path

LIMIT = 600
PACKAGE = Path(__file__).resolve().parent.parent / "yanniv"


def test_no_module_is_over_600_lines() -> None:
    sizes = {
        str(path.relative_to(PACKAGE.parent)): len(path.read_text(encoding="utf-8").splitlines())
        for path in PACKAGE.rglob("*.py")
    }
    assert len(sizes) > 50
    assert {name: n for name, n in sizes.items() if n > LIMIT} == {}
