"""The games registry as the platform meets it: listed with its settings schema, served by
`GET /api/games`, chosen when a room is created, its options set by the host, its matches
stored with their game, rules version and config, and played to the end over WebSockets."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from typing import Any

import jsonschema
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from yanniv.games import GAMES, get_game
from yanniv.games.interface import Game
from yanniv.games.yanniv.rules.ruleset import LEGACY_YANNIV, RULES_VERSION
from yanniv.server.realtime.protocol import RoomSettings
from yanniv.server.rooms.room_settings import settings_model


def test_python_lists_the_registry_with_its_settings_schema() -> None:
    """What `python -c` on the registry prints, in a fresh interpreter."""
    out = subprocess.run(
        [sys.executable, "-c", "import json; from yanniv.games import GAMES; "
         "print(json.dumps({k: g.settings_schema() for k, g in GAMES.items()}))"],
        capture_output=True, text=True, check=True).stdout
    schemas = json.loads(out)
    assert list(schemas) == ["yanniv", "yaniv"]
    yaniv = schemas["yaniv"]["properties"]
    assert set(yaniv) == {"two_decks", "threshold", "elimination"}
    assert (yaniv["threshold"]["minimum"], yaniv["threshold"]["maximum"]) == (50, 200)
    assert all(prop["label_fr"] and prop["label_en"] for prop in yaniv.values())
    props = schemas["yanniv"]["properties"]
    assert set(props) == {"manches", "mandatory_powers", "play_taken_discard"}
    assert props["manches"]["minimum"] == 1 and props["manches"]["maximum"] == 20
    assert props["mandatory_powers"]["default"] is True
    assert props["play_taken_discard"]["default"] is False
    for prop in props.values():
        assert prop["label_fr"] and prop["label_en"]


@pytest.mark.parametrize("game", list(GAMES.values()), ids=list(GAMES))
def test_game_settings_never_reuse_platform_names(game: Game) -> None:
    assert not set(game.settings_model.model_fields) & set(RoomSettings.model_fields)
    assert settings_model(game)().game == "yanniv" or game.id != "yanniv"


def test_api_games_lists_yanniv(client: TestClient) -> None:
    answer = client.get("/api/games")
    assert answer.status_code == 200
    games = answer.json()
    assert [g["id"] for g in games] == ["yanniv", "yaniv"]
    yanniv = games[0]
    yaniv = games[1]
    assert (yaniv["min_seats"], yaniv["max_seats"]) == (2, 8)
    assert [b["level"] for b in yaniv["bots"]] == ["facile", "moyen"]
    assert yaniv["limits"]["call_limit"] == 7 and yaniv["limits"]["hand_size"] == 7
    # The scoring numbers the Yaniv table writes (rule book: 100 → 50, 200 → 100, −20, −50).
    assert yaniv["limits"]["landings"] == [100, 50, 200, 100]
    assert (yaniv["limits"]["ace_bonus"], yaniv["limits"]["joker_bonus"]) == (-20, -50)
    assert yaniv["limits"]["assaf_penalty"] == 30
    jsonschema.validate({"threshold": 150, "elimination": True}, yaniv["settings"])
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"threshold": 201}, yaniv["settings"])
    assert yanniv["rules_version"] == RULES_VERSION
    assert (yanniv["min_seats"], yanniv["max_seats"]) == (2, 4)
    assert [b["level"] for b in yanniv["bots"]] == ["facile", "moyen", "difficile"]
    assert yanniv["limits"]["call_limit"] == 5 and yanniv["limits"]["hand_size"] == 5
    jsonschema.Draft202012Validator.check_schema(yanniv["settings"])
    jsonschema.validate({"manches": 3, "mandatory_powers": False}, yanniv["settings"])
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"manches": 21}, yanniv["settings"])


def test_unknown_game_is_refused_and_creates_nothing(client: TestClient) -> None:
    answer = client.post("/api/rooms", json={"pseudo": "Léa", "game": "belote"})
    assert answer.status_code == 422 and answer.json()["code"] == "unknown_game"
    assert answer.json()["message_en"]
    with client.app.state.db.engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM rooms")).scalar_one() == 0


@pytest.mark.parametrize(("patch", "words"), [
    ({"mandatory_powers": "yes"}, "Pouvoirs obligatoires"),
    ({"play_taken_discard": 1}, "Poser aussitôt"),
    ({"manches": 0}, "Nombre de manches"),
    ({"game": "belote"}, "jeu inconnu"),
])
def test_bad_game_settings_say_which_in_french(client: TestClient, patch: dict[str, Any],
                                                words: str) -> None:
    created = client.post("/api/rooms", json={"pseudo": "Léa", "game": "yanniv"}).json()
    headers = {"X-Seat-Token": created["token"]}
    answer = client.patch(f"/api/rooms/{created['code']}/settings", json=patch,
                          headers=headers)
    assert answer.status_code == 400 or answer.status_code == 422, answer.text
    assert answer.json()["code"] == "bad_setting"
    assert words in answer.json()["message"]
    room = client.get(f"/api/rooms/{created['code']}").json()
    assert room["version"] == created["room"]["version"]  # nothing changed


@pytest.mark.parametrize("options", [
    {"mandatory_powers": True, "play_taken_discard": True},
    {"mandatory_powers": False, "play_taken_discard": False},
    {"mandatory_powers": True, "play_taken_discard": False},
])
def test_room_with_both_options_plays_to_the_end(client: TestClient, table_cls: Any,
                                                  options: dict[str, bool]) -> None:
    """A room created with `"game": "yanniv"` and the rule options plays a whole match
    through real WebSocket clients, and its match row says what it was played under."""
    table = table_cls(client, 3, {"manches": 2, **options})
    try:
        table.connect()
        final = table.play_to_end(random.Random(7))
        assert final["room"]["status"] == "finished"
        assert final["room"]["settings"]["game"] == "yanniv"
        for key, value in options.items():
            assert final["room"]["settings"][key] is value
    finally:
        table.close()
    with client.app.state.db.engine.connect() as conn:
        game, version, config = conn.execute(text(
            "SELECT game, rules_version, config FROM room_matches")).one()
        recorded = conn.execute(text(
            "SELECT game, rules_version, config FROM finished_matches")).one()
    config = json.loads(config) if isinstance(config, str) else config
    assert (game, version) == ("yanniv", RULES_VERSION)
    assert config["rules"]["mandatory_powers"] is options["mandatory_powers"]
    assert config["rules"]["play_taken_discard"] is options["play_taken_discard"]
    assert recorded[0] == "yanniv" and recorded[1] == RULES_VERSION
    restored = get_game("yanniv").config_from_data(config, version)
    assert restored.rules.mandatory_powers is options["mandatory_powers"]


def test_legacy_rules_version_restores_legacy_rules() -> None:
    game = get_game("yanniv")
    config = game.config_from_data({"seats": 3, "manches": 2, "first_player": None,
                                    "rules": LEGACY_YANNIV.to_dict()}, "yanniv-1")
    assert config.rules == LEGACY_YANNIV
    with pytest.raises(ValueError):
        game.config_from_data({"seats": 3, "manches": 2, "rules": {}}, "yanniv-99")
