"""docs/PROTOCOL.md documents everything a client can meet, as the code defines it.

What exists comes from the code (error catalogue, close codes, event and action dataclasses,
pending kinds, view fields, message types, routes, settings); what is documented comes from
the markdown: the names in the first column of the tables of the section that documents them,
and, for events and actions, the fields named in their row. A failure lists what to add.
"""

from __future__ import annotations

import dataclasses
import re
import typing
from pathlib import Path

import pytest

from yanniv.games.yanniv.rules import actions, events, state
from yanniv.games.yanniv.rules.view import MatchView, PlayerView
from yanniv.server import errors
from yanniv.server.realtime import connections, protocol
from yanniv.server.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "PROTOCOL.md"
HEADING = re.compile(r"^(#{1,6})\s+(.*)$")
TICKED = re.compile(r"`([^`]+)`")


def _sections(text: str) -> dict[str, str]:
    """Heading title (without its number) → its text, up to the next heading of its level or
    higher (so a section holds its subsections)."""
    lines = text.splitlines()
    heads = []
    in_code = False
    for index, line in enumerate(lines):
        if line.startswith("```"):
            in_code = not in_code
        match = None if in_code else HEADING.match(line)
        if match:
            heads.append((index, len(match.group(1)), match.group(2).strip()))
    result = {}
    for n, (start, level, title) in enumerate(heads):
        end = next((i for i, lvl, _ in heads[n + 1:] if lvl <= level), len(lines))
        name = re.sub(r"^[\d.]+\s+", "", title)
        result[name] = "\n".join(lines[start + 1:end])
    return result


def _rows(body: str) -> list[list[str]]:
    """Table rows (header rows, those above a separator, and separators left out) as lists
    of cells."""
    rows: list[list[str]] = []
    table: list[list[str]] = []
    for line in [*body.splitlines(), ""]:
        if line.lstrip().startswith("|"):
            cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
            table.append(cells)
            continue
        if table:
            separator = [all(re.fullmatch(r":?-+:?", c) for c in r) for r in table]
            rows += [r for n, r in enumerate(table)
                     if not separator[n] and not (n + 1 < len(table) and separator[n + 1])]
            table = []
    return rows


@pytest.fixture(scope="module")
def sections() -> dict[str, str]:
    return _sections(DOC.read_text(encoding="utf-8"))


def _section(sections: dict[str, str], title: str) -> str:
    found = [body for name, body in sections.items() if name.lower().startswith(title.lower())]
    assert found, f"docs/PROTOCOL.md has no section titled {title!r}"
    return found[0]


def _documented(sections: dict[str, str], title: str) -> dict[str, str]:
    """First-column names of the tables of a section → their whole row."""
    result = {}
    for row in _rows(_section(sections, title)):
        for name in TICKED.findall(row[0]):
            result.setdefault(name, " | ".join(row))
    return result


def _missing(expected: typing.Iterable[object], documented: dict[str, str]) -> list[str]:
    return sorted(str(name) for name in expected if str(name) not in documented)


def test_every_server_error_code_is_documented(sections: dict[str, str]) -> None:
    missing = _missing(errors.MESSAGES, _documented(sections, "Server error codes"))
    assert not missing, f"add these error codes to docs/PROTOCOL.md §2.2: {missing}"


def _engine_error_codes() -> set[str]:
    """Codes the rules raise: the first string given to `IllegalActionError` or `_err`."""
    found = set()
    for path in (ROOT / "yanniv" / "games" / "yanniv" / "rules").glob("*.py"):
        text = path.read_text(encoding="utf-8")
        found |= set(re.findall(r'(?:IllegalActionError|_err)\(\s*"([a-z_]+)"', text))
    return found


def test_every_engine_error_code_is_documented(sections: dict[str, str]) -> None:
    codes = _engine_error_codes()
    assert len(codes) >= 10, codes  # the scan itself still finds the rules' codes
    missing = _missing(codes, _documented(sections, "Engine error codes"))
    assert not missing, f"add these engine error codes to docs/PROTOCOL.md §2.3: {missing}"


def _close_codes() -> set[int]:
    """`CLOSE_*` constants, and the literal codes the server closes sockets with."""
    found = {value for name, value in vars(connections).items()
             if name.startswith("CLOSE_") and isinstance(value, int)}
    for path in (ROOT / "yanniv" / "server").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        found |= {int(code) for code in re.findall(r"\.close\((\d{4})\)", text)}
    return found


def test_every_close_code_is_documented(sections: dict[str, str]) -> None:
    codes = _close_codes()
    assert {4008, 4401, 1012} <= codes, codes
    missing = _missing(codes, _documented(sections, "Close codes"))
    assert not missing, f"add these close codes to docs/PROTOCOL.md §2.4: {missing}"


def _event_classes() -> list[type]:
    return [cls for cls in vars(events).values()
            if isinstance(cls, type) and issubclass(cls, events.Event)
            and cls is not events.Event and cls.__module__ == events.__name__]


def test_every_event_and_its_fields_are_documented(sections: dict[str, str]) -> None:
    documented = _documented(sections, "Events")
    classes = _event_classes()
    assert len(classes) >= 21
    missing = _missing((cls.__name__ for cls in classes), documented)
    assert not missing, f"add these events to docs/PROTOCOL.md §11: {missing}"
    for cls in classes:
        row = documented[cls.__name__]
        cells = row.split(" | ")
        named = set(TICKED.findall(cells[1]))
        fields = [f.name for f in dataclasses.fields(cls)]
        absent = [f for f in fields if f not in named]
        assert not absent, f"docs/PROTOCOL.md §11: {cls.__name__}'s fields {absent} missing"
        private_cell = set(TICKED.findall(cells[2]))
        hidden = [f for f in cls.private if f not in private_cell]
        assert not hidden, (f"docs/PROTOCOL.md §11: say who sees {cls.__name__}'s private "
                            f"fields {hidden}")
        if not cls.private:
            assert cells[2].startswith("none"), f"{cls.__name__} has no private field"


def test_every_action_and_its_fields_are_documented(sections: dict[str, str]) -> None:
    documented = _documented(sections, "Actions")
    missing = _missing(actions.ACTION_TYPES, documented)
    assert not missing, f"add these actions to docs/PROTOCOL.md §10: {missing}"
    for name, cls in actions.ACTION_TYPES.items():
        cells = documented[name].split(" | ")
        named = set(TICKED.findall(cells[1]))
        absent = [f.name for f in dataclasses.fields(cls) if f.name not in named]
        assert not absent, f"docs/PROTOCOL.md §10: {name}'s fields {absent} missing"
        assert cells[2], f"docs/PROTOCOL.md §10: say when {name} is legal"


def test_every_pending_kind_and_field_is_documented(sections: dict[str, str]) -> None:
    documented = _documented(sections, "Pending decisions")
    kinds = typing.get_args(actions.DecisionKind)
    assert len(kinds) >= 11
    missing = _missing(kinds, documented)
    missing += _missing((f.name for f in dataclasses.fields(state.Pending)), documented)
    assert not missing, f"add these pending kinds or fields to docs/PROTOCOL.md §9: {missing}"


@pytest.mark.parametrize("cls,title", [
    (MatchView, "View fields"),
    (PlayerView, "Player fields"),
    (state.Packet, "Discard packets"),
    (state.Constraint, "Discard packets"),
    (state.MancheResult, "Discard packets"),
])
def test_every_view_field_is_documented(sections: dict[str, str], cls: type,
                                        title: str) -> None:
    missing = _missing((f.name for f in dataclasses.fields(cls)), _documented(sections, title))
    assert not missing, f"add {cls.__name__} fields to docs/PROTOCOL.md ({title}): {missing}"


def test_every_message_type_is_documented(sections: dict[str, str]) -> None:
    missing = _missing(protocol.CLIENT_TYPES, _documented(sections, "Client → server"))
    server_types = [typing.get_args(m.model_fields["type"].annotation)[0] for m in typing.get_args(
        typing.get_args(protocol.ServerMessage)[0])]
    assert len(server_types) >= 5
    missing += _missing(server_types, _documented(sections, "Server → client"))
    assert not missing, f"add these message types to docs/PROTOCOL.md §5: {missing}"


def test_every_room_setting_is_documented(sections: dict[str, str]) -> None:
    missing = _missing(protocol.RoomSettings.model_fields, _documented(sections, "Settings"))
    assert not missing, f"add these room settings to docs/PROTOCOL.md §3.6: {missing}"


def test_every_api_route_is_documented() -> None:
    from yanniv.profiles.api import router as profiles_router
    from yanniv.server.api.rooms import router as rooms_router

    text = re.sub(r"\{[^}]*\}", "{}", DOC.read_text(encoding="utf-8"))
    missing = []
    for route in [*rooms_router.routes, *profiles_router.routes]:
        path = getattr(route, "path", "")
        if path.startswith("/api/"):
            for method in route.methods:
                wanted = re.escape(f"{method} {re.sub(r'{[^}]*}', '{}', path)}")
                if not re.search(wanted + r"(?![\w/{])", text):
                    missing.append(f"{method} {path}")
    assert not missing, f"document these routes in docs/PROTOCOL.md: {missing}"


def test_every_server_setting_is_documented() -> None:
    text = DOC.read_text(encoding="utf-8")
    names = [f"YANNIV_{name.upper()}" for name in Settings.model_fields if name != "database_url"]
    missing = [name for name in names if name not in text]
    assert "DATABASE_URL" in text
    assert not missing, f"document these settings in docs/PROTOCOL.md §7: {missing}"


def test_documented_http_statuses_are_the_servers(sections: dict[str, str]) -> None:
    """The HTTP column of §2.2 gives the status each code is answered with."""
    wrong = []
    for name, row in _documented(sections, "Server error codes").items():
        status = row.split(" | ")[1]
        served = errors.MESSAGES.get(name, (None,))[0]
        if status.isdigit() and served is not None and int(status) != served:
            wrong.append(f"{name}: doc {status}, server {served}")
    assert not wrong, f"fix the HTTP statuses in docs/PROTOCOL.md §2.2: {wrong}"
