"""QUESTIONS.md names the tests that pin each decision: every named test must exist."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def test_every_test_named_in_questions_md_exists() -> None:
    text = (ROOT / "QUESTIONS.md").read_text(encoding="utf-8")
    sources: dict[str, str] = {}
    for path in (ROOT / "tests").rglob("test_*.py"):
        sources[path.name] = sources.get(path.name, "") + path.read_text(encoding="utf-8")
    named = re.findall(r"`(?:(?:tests/[\w/]+/)?(test_\w+\.py)::)?(test_\w+)`", text)
    assert len(named) >= 40
    everything = "\n".join(sources.values())
    for module, name in named:
        haystack = sources[module] if module else everything
        assert f"def {name}(" in haystack, f"QUESTIONS.md names missing test {module}::{name}"


def test_every_question_has_decision_and_test() -> None:
    text = (ROOT / "QUESTIONS.md").read_text(encoding="utf-8")
    entries = re.split(r"\n### ", text)[1:]
    assert len(entries) >= 20
    for entry in entries:
        assert "**Décision**" in entry and "**Test" in entry, entry[:60]
