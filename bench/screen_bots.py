"""Screen a bot variant: a tournament with some bot constants overridden, no code edit.

    python bench/screen_bots.py --seed 101 --matches 600 difficile.Z=1.0 \
        difficile.Difficile.work=6400 moyen.SEVEN="(0.8, 2.0)"

Every other argument is `yanniv tournament`'s. Each override is `module.attribute=value` (or
`module.Class.attribute=value`) under `yanniv.games.yanniv.bots`, the value a Python literal. Module
constants read at call time (such as `difficile.Z`) take effect; constants copied into class
attributes at import (such as `Difficile.work`) must be set on the class. Workers are
forked after the overrides, so they see them. Compare variants by the paired "vs others" gap
(SE about 0.17 point per manche at 600 matches) rather than by win rate (SE about 1.8
points), and confirm a winner on another seed before an official 2000-match run.
"""

from __future__ import annotations

import ast
import importlib
import sys

from yanniv.cli import main as yanniv_main


def apply_override(spec: str) -> str:
    """Set one `module[.Class].attribute=value` under `yanniv.games.yanniv.bots`; returns what was
    set."""
    name, _, literal = spec.partition("=")
    parts = name.split(".")
    if not literal or len(parts) < 2:
        raise SystemExit(f"override {spec!r}: expected module.attribute=value")
    target: object = importlib.import_module(f"yanniv.games.yanniv.bots.{parts[0]}")
    for part in parts[1:-1]:
        target = getattr(target, part)
    if not hasattr(target, parts[-1]):
        raise SystemExit(f"override {spec!r}: {name} does not exist")
    setattr(target, parts[-1], ast.literal_eval(literal))
    return f"{name} = {getattr(target, parts[-1])!r}"


def main(argv: list[str]) -> int:
    """Apply the overrides (arguments like `a.b=c`), then run `yanniv tournament` with the rest."""
    overrides = [arg for arg in argv if "=" in arg and not arg.startswith("-")]
    for spec in overrides:
        print("set", apply_override(spec), flush=True)
    return yanniv_main(["tournament", *(arg for arg in argv if arg not in overrides)])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
