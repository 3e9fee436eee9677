"""axe-core in a Playwright page: `violations(page)` runs the axe-core engine that `npm ci`
installs (package.json at the repo root, `node_modules/axe-core/axe.min.js`) on what the
page shows now and returns the violations of the given impacts (serious and critical by
default), so any test that reaches a page state can check it (table states included)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

AXE_JS = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
SERIOUS = ("serious", "critical")

#: WCAG 2.x A and AA rules plus axe's best practices (one h1, landmarks, regions).
RUN_JS = """async (tags) => {
  const result = await axe.run(document, { runOnly: { type: 'tag', values: tags },
                                           resultTypes: ['violations'] });
  return result.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map((n) => ({ target: n.target.join(' '), summary: n.failureSummary })),
  }));
}"""
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]


def available() -> bool:
    return AXE_JS.is_file()


def violations(page: Any, impacts: tuple[str, ...] = SERIOUS) -> list[dict[str, Any]]:
    """The axe-core violations of `impacts` on the page as it is now (axe injected once)."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE_JS))
    found: list[dict[str, Any]] = page.evaluate(RUN_JS, TAGS)
    return [v for v in found if v["impact"] in impacts]


def describe(found: list[dict[str, Any]]) -> str:
    """One line per failing node, for an assertion message."""
    return "\n".join(f"{v['impact']} {v['id']} ({v['help']}): {n['target']} — {n['summary']}"
                     for v in found for n in v["nodes"])
