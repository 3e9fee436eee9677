"""A Yaniv room on the unchanged platform: created over HTTP, six people on real sockets,
played to the final ranking, its match stored with its game, rules version and config."""

from __future__ import annotations

import json
import random
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import text

from tests.games.yaniv.helpers import quick_choice
from tests.server.conftest import Table
from yanniv.games import get_game


class YanivTable(Table):
    """The server tests' table, choosing like a beginner: Yaniv whenever it may."""

    def choose(self, legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
        return quick_choice(legal, rng)


def test_a_six_seat_yaniv_room_plays_to_the_end(client: TestClient) -> None:
    table = YanivTable(client, 1, {"game": "yaniv", "threshold": 50, "two_decks": True},
                       start=False)
    try:
        for n in range(1, 6):
            joined = client.post(f"/api/rooms/{table.code}/join", json={"pseudo": f"Joueur{n}"})
            assert joined.status_code == 200, joined.text
            table.tokens.append(joined.json()["token"])
        started = client.post(f"/api/rooms/{table.code}/start", headers=table.host)
        assert started.status_code == 200, started.text
        table.connect()
        final = table.play_to_end(random.Random(6), max_steps=20000)
        assert final["room"]["settings"]["game"] == "yaniv"
        assert final["view"]["decks"] == 2 and len(final["view"]["ranking"]) == 6
    finally:
        table.close()
    with client.app.state.db.engine.connect() as conn:
        game, version, config = conn.execute(text(
            "SELECT game, rules_version, config FROM finished_matches")).one()
    config = json.loads(config) if isinstance(config, str) else config
    assert (game, version) == ("yaniv", "yaniv-1")
    assert get_game("yaniv").config_from_data(config, version).decks == 2


def test_a_draw_before_putting_down_is_refused_with_its_reason(client: TestClient) -> None:
    table = YanivTable(client, 2, {"game": "yaniv"}, start=True)
    try:
        players = table.connect()
        state = table.sync()
        actor = players[state["view"]["pending"]["seat"]]
        assert actor.last_state is not None
        answer = actor.act({"type": "TakeDiscard", "card": "KS"}, actor.last_state["version"])
        assert answer["type"] == "error" and answer["code"] == "play_first"
        assert answer["message"] and answer["message_en"]
    finally:
        table.close()


def test_a_person_plays_yaniv_against_seven_bots(app_factory: Any) -> None:
    """Bots of the game's own levels fill seven seats of an 8-seat room and play to the end."""
    import contextlib

    from tests.server.conftest import Player

    with TestClient(app_factory(bot_delay_scale=0.0)) as client, \
            contextlib.ExitStack() as stack:
        created = client.post("/api/rooms", json={"pseudo": "Léa", "game": "yaniv"}).json()
        code, host = created["code"], {"X-Seat-Token": created["token"]}
        for n in range(7):
            added = client.post(f"/api/rooms/{code}/bots",
                                json={"level": ("facile", "moyen")[n % 2]}, headers=host)
            assert added.status_code == 200, added.text
        assert client.patch(f"/api/rooms/{code}/settings", json={"threshold": 50},
                            headers=host).status_code == 200
        assert client.post(f"/api/rooms/{code}/start", headers=host).status_code == 200
        me = Player(client, code, created["token"], 0, stack)
        rng = random.Random(8)
        for _ in range(100_000):
            state = me.last_state
            view = state["view"] if state else None
            if view is not None and view["finished"]:
                break
            if view is not None and view["pending"]["seat"] == 0 and view["legal_actions"]:
                legal = view["legal_actions"]
                calls = [a for a in legal if a["type"] == "CallYaniv"]
                answer = me.act(calls[0] if calls else rng.choice(legal), state["version"])
                assert answer["type"] == "ack", answer
                me.wait_version(answer["version"])
            else:
                me.recv()
        assert view is not None and view["finished"] and len(view["ranking"]) == 8
        assert view["decks"] == 2
