"""Pseudos a person may not take: a computer player's name, a look-alike of a seated player,
invisible characters. Every refusal is checked by its code and texts, and changes nothing.

Expected codes and texts are written here by hand, not imported from the server.
"""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

RESERVED_FR = ("Les pseudos commençant par « Ordinateur » sont réservés aux joueurs "
               "ordinateur : choisissez-en un autre.")
RESERVED_EN = ("Pseudos starting with “Ordinateur” are reserved for computer players: "
               "choose another one.")
#: The English page names computers "Computer (medium)": that word is theirs too.
RESERVED_COMPUTER = (
    "Les pseudos commençant par « Computer » sont réservés aux joueurs ordinateur : "
    "choisissez-en un autre.",
    "Pseudos starting with “Computer” are reserved for computer players: choose another one.")
CHARS_FR = "Le pseudo ne peut contenir ni caractère invisible ni caractère de contrôle."
CHARS_EN = "The pseudo may not contain invisible or control characters."


def confusable_texts(seated: str) -> tuple[str, str]:
    return (f"Ce pseudo ressemble trop à celui de « {seated} », déjà dans cette salle : "
            "choisissez-en un autre.",
            f"This pseudo looks too much like that of “{seated}”, already in this room: "
            "choose another one.")


BOT_LIKE = [
    "Ordinateur (moyen)",
    "Ordinateur 2 (moyen)",
    "Ordinateur 3 (moyen)",
    "ordinateur (FACILE)",
    "ORDINATEUR 2 (MOYEN)",
    "Ordinateur",
    "  Ordinateur 2 (moyen)  ",
    "0rdinateur 2 (moyen)",  # digit zero
    "Оrdinateur (moyen)",  # Cyrillic О
    "Ｏｒｄｉｎａｔｅｕｒ",  # full-width
    "𝐎𝐫𝐝𝐢𝐧𝐚𝐭𝐞𝐮𝐫",  # mathematical bold
    "O r d i n a t e u r",
    "Ordinateur-2 (moyen)",
    "Ordinateur 9 (pro)",
    "Ordïnateur 2 (moyen)",
    "Ordinateurs",
]
COMPUTER_LIKE = ["Computer", "Computer (medium)", "computer 2 (EASY)", "C0mputer",
                 "Cоmputer (hard)", "Computers"]  # the second: Cyrillic о
NOT_BOT_LIKE = ["Ordi", "Ordinatrice", "Mon ordinateur", "L'ordinateur", "Compu", "My computer"]

#: Looks like "Alice" (the host) but is not the same pseudo (not the same profile key: NFKC,
#: case-folded).
LOOK_ALIKES = [
    "Аlice",  # Cyrillic А
    "Аlicе",  # Cyrillic А and е
    "A l i c e",
    "AIice",  # capital I for l
    "A1ice",  # digit one for l
    "Alicé",
    "ÀLICE",
    "Alic\u0435",  # Cyrillic е at the end
]
#: Zero-width, joiner, filler, soft hyphen, bidi override…: refused anywhere.
INVISIBLE = [
    "Ali\u200bce", "Alice\u200d", "\u3164", "Ali\u00adce", "Ali\u034fce", "Ali\ufe0fce",
    "\u202eecilA", "Ali\u2060ce", "\u2800", "Ali\tce",
]


def refused(res: Any, status: int, code: str, fr: str, en: str) -> None:
    assert res.status_code == status, res.json()
    assert res.json() == {"code": code, "message": fr, "message_en": en}


def next_state(ws: Any) -> dict[str, Any]:
    """The next `state` message (presence messages, which change nothing, are skipped)."""
    while True:
        message = ws.receive_json()
        if message["type"] == "state":
            return message
        assert message["type"] == "presence", message


def room(client: TestClient, code: str) -> dict[str, Any]:
    return client.get(f"/api/rooms/{code}").json()


@pytest.mark.parametrize("pseudo", BOT_LIKE)
def test_a_person_cannot_create_or_join_as_a_computer(client: TestClient, pseudo: str) -> None:
    refused(client.post("/api/rooms", json={"pseudo": pseudo}),
            422, "pseudo_reserved", RESERVED_FR, RESERVED_EN)
    code = client.post("/api/rooms", json={"pseudo": "Hôte"}).json()["code"]
    before = room(client, code)
    refused(client.post(f"/api/rooms/{code}/join", json={"pseudo": pseudo}),
            422, "pseudo_reserved", RESERVED_FR, RESERVED_EN)
    assert room(client, code) == before


@pytest.mark.parametrize("pseudo", COMPUTER_LIKE)
def test_a_person_cannot_take_the_english_name_of_a_computer(client: TestClient,
                                                            pseudo: str) -> None:
    refused(client.post("/api/rooms", json={"pseudo": pseudo}), 422, "pseudo_reserved",
            *RESERVED_COMPUTER)
    code = client.post("/api/rooms", json={"pseudo": "Hôte"}).json()["code"]
    before = room(client, code)
    refused(client.post(f"/api/rooms/{code}/join", json={"pseudo": pseudo}),
            422, "pseudo_reserved", *RESERVED_COMPUTER)
    assert room(client, code) == before


def test_names_near_the_computers_stay_free(client: TestClient) -> None:
    for pseudo in NOT_BOT_LIKE:
        assert client.post("/api/rooms", json={"pseudo": pseudo}).status_code == 201, pseudo
    code = client.post("/api/rooms", json={"pseudo": "Hôte"}).json()["code"]
    for pseudo in NOT_BOT_LIKE[:3]:
        res = client.post(f"/api/rooms/{code}/join", json={"pseudo": pseudo})
        assert res.status_code == 200, (pseudo, res.json())


def test_the_names_given_to_computers_are_refused_to_people(client: TestClient) -> None:
    created = client.post("/api/rooms", json={"pseudo": "Léa"}).json()
    code, host = created["code"], {"X-Seat-Token": created["token"]}
    for level in ("moyen", "moyen", "facile"):  # "Ordinateur (difficile)" is over 20
        assert client.post(f"/api/rooms/{code}/bots", json={"level": level},
                           headers=host).status_code == 200
    names = [s["pseudo"] for s in room(client, code)["seats"][1:]]
    assert names == ["Ordinateur (moyen)", "Ordinateur 2 (moyen)", "Ordinateur (facile)"]
    client.delete(f"/api/rooms/{code}/seats/3", headers=host)  # a free seat
    before = room(client, code)
    for pseudo in [*names, "Ordinateur 3 (moyen)", "ordinateur 2 (facile"]:
        refused(client.post(f"/api/rooms/{code}/join", json={"pseudo": pseudo}),
                422, "pseudo_reserved", RESERVED_FR, RESERVED_EN)
    assert room(client, code) == before


def test_look_alikes_of_a_seated_player_are_refused(client: TestClient) -> None:
    created = client.post("/api/rooms", json={"pseudo": "Alice"}).json()
    code = created["code"]
    with client.websocket_connect(f"/ws/{code}?token={created['token']}") as host_ws:
        first = host_ws.receive_json()
        assert first["type"] == "state" and first["room"]["version"] == 1
        for pseudo in LOOK_ALIKES:
            fr, en = confusable_texts("Alice")
            refused(client.post(f"/api/rooms/{code}/join", json={"pseudo": pseudo}),
                    409, "pseudo_confusable", fr, en)
        # The same pseudo: the same profile key (full-width and mathematical letters are
        # Alice's profile under NFKC, so they are taken, not merely look-alikes).
        for pseudo in ("alice", "ALICE", " Alice ", "Ａｌｉｃｅ", "𝐀𝐥𝐢𝐜𝐞"):
            refused(client.post(f"/api/rooms/{code}/join", json={"pseudo": pseudo}),
                    409, "pseudo_taken",
                    "Ce pseudo est déjà pris dans cette salle : choisissez-en un autre.",
                    "This pseudo is already taken in this room: choose another one.")
        for pseudo in INVISIBLE:
            refused(client.post(f"/api/rooms/{code}/join", json={"pseudo": pseudo}),
                    422, "pseudo_chars", CHARS_FR, CHARS_EN)
        assert room(client, code)["version"] == 1
        # Different pseudos still sit down; the host's socket saw nothing before that.
        assert client.post(f"/api/rooms/{code}/join", json={"pseudo": "Bob"}).status_code == 200
        joined = next_state(host_ws)
        assert joined["room"]["version"] == 2
        assert [s["pseudo"] for s in joined["room"]["seats"]] == ["Alice", "Bob"]
        # A look-alike of any seated player, not only of the host.
        fr, en = confusable_texts("Bob")
        refused(client.post(f"/api/rooms/{code}/join", json={"pseudo": "B0B"}),
                409, "pseudo_confusable", fr, en)
        for pseudo in ("Alicia", "Иван"):
            res = client.post(f"/api/rooms/{code}/join", json={"pseudo": pseudo})
            assert res.status_code == 200, (pseudo, res.json())
        assert [s["pseudo"] for s in room(client, code)["seats"]] == [
            "Alice", "Bob", "Alicia", "Иван"]


def test_look_alikes_are_a_matter_of_one_room(client: TestClient) -> None:
    client.post("/api/rooms", json={"pseudo": "Alice"})
    elsewhere = client.post("/api/rooms", json={"pseudo": "Аlice"})  # Cyrillic А
    assert elsewhere.status_code == 201
    assert elsewhere.json()["room"]["seats"][0]["pseudo"] == "Аlice"


def test_invisible_characters_are_refused_at_creation(client: TestClient) -> None:
    for pseudo in INVISIBLE:
        refused(client.post("/api/rooms", json={"pseudo": pseudo}),
                422, "pseudo_chars", CHARS_FR, CHARS_EN)


def test_reconnecting_is_not_joining(client: TestClient) -> None:
    """A seat comes back with its token (no pseudo check); asking to join again under the
    same pseudo, even from the same browser, would be a second seat and is refused."""
    created = client.post("/api/rooms", json={"pseudo": "Alice"}).json()
    code, token = created["code"], created["token"]
    bob = client.post(f"/api/rooms/{code}/join", json={"pseudo": "Bob"}).json()
    for seat_token, seat in ((token, 0), (bob["token"], 1)):
        for _ in range(2):
            with client.websocket_connect(f"/ws/{code}?token={seat_token}") as ws:
                state = ws.receive_json()
                assert state["type"] == "state" and state["room"]["your_seat"] == seat
    again = client.post(f"/api/rooms/{code}/join", json={"pseudo": "Alice"})  # same cookie
    assert again.status_code == 409 and again.json()["code"] == "pseudo_taken"
    assert len(room(client, code)["seats"]) == 2


@pytest.mark.parametrize(("seated", "joining"), [
    ("L\u00e9a", "Le\u0301a"),  # composed é, then e + combining acute
    ("Le\u0301a", "L\u00e9a"),
    ("Le\u0301a", "L\u00c9A"),
    ("\ufb01lou", "FILOU"),  # the ﬁ ligature
])
def test_one_profile_key_is_one_pseudo_in_a_room(client: TestClient, seated: str,
                                                 joining: str) -> None:
    """Pseudos compare as profiles do (NFKC, case-folded): two spellings of one profile cannot
    both sit in a room, and the second is `pseudo_taken` (not a look-alike)."""
    assert seated != joining
    created = client.post("/api/rooms", json={"pseudo": seated}).json()
    code = created["code"]
    refused(client.post(f"/api/rooms/{code}/join", json={"pseudo": joining}),
            409, "pseudo_taken",
            "Ce pseudo est déjà pris dans cette salle : choisissez-en un autre.",
            "This pseudo is already taken in this room: choose another one.")
    assert [s["pseudo"] for s in room(client, code)["seats"]] == [seated]
    assert room(client, code)["version"] == 1
