"""Dependencies of `yanniv/` point one way: no import cycle between modules or between the
first-level packages, and no layer imports one above it.

Imports are read from the source with `ast` (nothing is imported): top-level ones and those
inside functions alike (a lazy import is still a dependency; it only hides the cycle until
the function runs), `TYPE_CHECKING` ones included, relative imports resolved, and
`from pkg import name` counted as importing `pkg.name` when that is a module, else `pkg`.

The layers, bottom first (a unit may import only units of lower layers, or itself):

0. `kit` (the shared pure card-game kit), `lang` (which language a request asks for) and
   `french` (French elision of filled-in names), stdlib only: everything else builds on them.
1. `rules`: every game's pure rules (`games/<id>/rules/`), on the kit.
2. `bots`: every game's computer players (`games/<id>/bots/`), on their game's rules.
3. `games`: the registry, the game interface, the shared codec parts, and each game's value
   (its settings, codec, texts and figures).
4. `tools` (`simulate`, `tournament`: harnesses playing through `games`), and `db` (engine,
   session and migrations, knowing no table but its own base).
5. `profiles`: records finished matches, ratings, the profiles JSON API; on `db`.
6. `server`: rooms, sockets, the rooms API; hosts any game of `games`, records results
   through `profiles`.
7. `webapp`: HTML pages, the profile pages among them; reads the server's room codes and
   the profiles' data and texts.
8. `app`: the composition root (`create_app`, `serve`), assembling 5–7.
9. `cli`: the console script, which dispatches to `app`, `tools`, `server`.

Beside the layers: the platform (everything but `games` and `kit`) reaches a game only
through the registry and the interface (`yanniv.games`, `yanniv.games.interface`, the shared
`wire` and `schema` parts) and the kit, never a game's own module; a game never imports
another game.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "yanniv"

LAYERS: tuple[frozenset[str], ...] = (
    frozenset({"kit", "lang", "french"}),
    frozenset({"rules"}),
    frozenset({"bots"}),
    frozenset({"games"}),
    frozenset({"tools", "db"}),
    frozenset({"profiles"}),
    frozenset({"server"}),
    frozenset({"webapp"}),
    frozenset({"app"}),
    frozenset({"cli"}),
)


def modules_of(root: Path) -> dict[str, Path]:
    """Dotted module name → file, for every `.py` under `root` (a package `__init__` is the
    package's name)."""
    out = {}
    for path in root.rglob("*.py"):
        parts = [root.name, *path.relative_to(root).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def imports_of(name: str, source: str, known: set[str], is_package: bool) -> set[str]:
    """The modules of `known` that module `name` (source `source`; a package's `__init__` if
    `is_package`) imports, anywhere in it."""
    package = name if is_package else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                module = ".".join([*base, node.module] if node.module else base)
            else:
                module = node.module or ""
            targets = []
            for alias in node.names:
                sub = f"{module}.{alias.name}"
                targets.append(sub if sub in known else module)
        else:
            continue
        for target in targets:
            # `import a.b.c` binds `a` but depends on `a.b.c`: the longest known prefix.
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def graph_of(root: Path) -> dict[str, set[str]]:
    modules = modules_of(root)
    names = set(modules)
    return {n: imports_of(n, p.read_text(encoding="utf-8"), names, p.name == "__init__.py")
            for n, p in modules.items()}


def cycles(graph: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """The strongly connected components with more than one node (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    counter = 0

    def visit(node: str) -> None:
        nonlocal counter
        index[node] = low[node] = counter
        counter += 1
        stack.append(node)
        on_stack.add(node)
        for nxt in graph.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return out


#: Modules of `yanniv.games` the platform may import: the registry and what every game shares.
PLATFORM_FACING = frozenset({"yanniv.games", "yanniv.games.interface", "yanniv.games.wire",
                             "yanniv.games.schema"})


def game_of(module: str) -> str | None:
    """`yanniv.games.yami.rules.grid` → `yami`; None for a module outside a game's folder."""
    parts = module.split(".")
    if len(parts) >= 3 and parts[1] == "games" and f"yanniv.games.{parts[2]}" not in (
            PLATFORM_FACING) and parts[2] not in ("interface", "wire", "schema", "shedding"):
        return parts[2]
    return None


def unit_of(module: str) -> str:
    """`yanniv.server.rooms.registry` → `server`; a game's rules or bots → `rules` or `bots`;
    the root package `yanniv` itself → `yanniv`."""
    parts = module.split(".")
    if game_of(module) is not None and len(parts) >= 4 and parts[3] in ("rules", "bots"):
        return parts[3]
    return parts[1] if len(parts) > 1 else parts[0]


def unit_graph(graph: Mapping[str, Iterable[str]]) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for module, targets in graph.items():
        here = unit_of(module)
        out.setdefault(here, set()).update(t for t in map(unit_of, targets) if t != here)
    return out


def upward_imports(graph: Mapping[str, Iterable[str]],
                   layers: tuple[frozenset[str], ...]) -> list[str]:
    """Every import of a unit that is not in a strictly lower layer (same unit excepted)."""
    rank = {unit: n for n, layer in enumerate(layers) for unit in layer}
    bad = []
    for module, targets in sorted(graph.items()):
        here = unit_of(module)
        for target in sorted(targets):
            there = unit_of(target)
            if there != here and rank.get(there, len(layers)) >= rank.get(here, -1):
                bad.append(f"{module} -> {target}")
    return bad


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    return graph_of(ROOT)


def test_the_scan_sees_the_code(graph: dict[str, set[str]]) -> None:
    """Sanity: the scan finds known edges, lazy ones included, so an empty result means
    something."""
    assert "yanniv.games" in graph["yanniv.server.rooms.room"]  # `from yanniv.games import …`
    assert "yanniv.games.yanniv.codec" in graph["yanniv.games.yanniv.game"]  # a submodule
    assert "yanniv.server.api.games" in graph["yanniv.app"]
    assert "yanniv.app" in graph["yanniv.cli"]  # inside `main`


def test_no_cycle_between_modules(graph: dict[str, set[str]]) -> None:
    assert cycles(graph) == []


def test_no_cycle_between_packages(graph: dict[str, set[str]]) -> None:
    assert cycles(unit_graph(graph)) == []


def test_every_unit_has_a_layer(graph: dict[str, set[str]]) -> None:
    declared = set().union(*LAYERS)
    assert set(unit_graph(graph)) - declared - {"yanniv"} == set()


def test_no_layer_imports_one_above(graph: dict[str, set[str]]) -> None:
    assert upward_imports(graph, LAYERS) == []


def platform_imports_of_games(graph: Mapping[str, Iterable[str]]) -> list[str]:
    """Every import of a game's own module by a module outside `yanniv.games` and the kit."""
    bad = []
    for module, targets in sorted(graph.items()):
        if unit_of(module) in ("games", "rules", "bots", "kit"):
            continue
        bad += [f"{module} -> {t}" for t in sorted(targets) if game_of(t) is not None]
    return bad


def cross_game_imports(graph: Mapping[str, Iterable[str]]) -> list[str]:
    """Every import of one game's module by another game's."""
    return [f"{module} -> {t}" for module, targets in sorted(graph.items())
            for t in sorted(targets)
            if game_of(module) and game_of(t) and game_of(module) != game_of(t)]


def test_the_platform_reaches_games_through_the_registry(graph: dict[str, set[str]]) -> None:
    assert platform_imports_of_games(graph) == []


def test_no_game_imports_another(graph: dict[str, set[str]]) -> None:
    assert cross_game_imports(graph) == []


def test_the_game_checks_can_fail() -> None:
    """A server module importing a game's rules, and a game importing another's: both seen."""
    found = {"yanniv.server.rooms.room": {"yanniv.games.yanniv.rules.cards", "yanniv.games"},
             "yanniv.games.yaniv.codec": {"yanniv.games.yanniv.codec", "yanniv.kit.cards"}}
    assert platform_imports_of_games(found) == [
        "yanniv.server.rooms.room -> yanniv.games.yanniv.rules.cards"]
    assert cross_game_imports(found) == ["yanniv.games.yaniv.codec -> yanniv.games.yanniv.codec"]


def test_the_checks_can_fail(tmp_path: Path) -> None:
    """A tiny package with a lazy module cycle, a relative import, a package cycle and an
    upward import: every check reports it."""
    pkg = tmp_path / "yanniv"
    (pkg / "low").mkdir(parents=True)
    (pkg / "high").mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "low" / "__init__.py").write_text("")
    (pkg / "high" / "__init__.py").write_text("")
    (pkg / "low" / "a.py").write_text("def f():\n    from . import b\n")
    (pkg / "low" / "b.py").write_text("from yanniv.low.a import f\n")
    (pkg / "low" / "c.py").write_text("import yanniv.high.d\n")
    (pkg / "high" / "d.py").write_text("from yanniv.low import c\n")
    found = graph_of(pkg)
    assert found["yanniv.low.a"] == {"yanniv.low.b"}
    assert found["yanniv.high.d"] == {"yanniv.low.c"}
    assert ["yanniv.low.a", "yanniv.low.b"] in cycles(found)
    assert cycles(unit_graph(found)) == [["high", "low"]]
    layers = (frozenset({"low"}), frozenset({"high"}))
    assert upward_imports(found, layers) == ["yanniv.low.c -> yanniv.high.d"]
