"""The pages without a browser: reference wording, size budget, rules page, language switch."""

from __future__ import annotations

import gzip
import html as html_mod
import json
import re
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from yanniv.server.api.games import router as games_router
from yanniv.webapp.pages import mount_static, router

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "web"
FR = json.loads((WEB / "i18n" / "fr.json").read_text(encoding="utf-8"))
EN = json.loads((WEB / "i18n" / "en.json").read_text(encoding="utf-8"))

#: Every element of the reference page (shared/rules/002), in its French wording.
REFERENCE = [
    "YANNIV",
    # The reference's wording; its seat counts span every game (classic Yaniv seats 8).
    "Le jeu de cartes, en ligne de 2 à 8 joueurs",
    "Votre pseudo",
    "créer une salle",
    "Privée : sur invitation (code ou lien). Publique : elle apparaît dans la liste des salles, "
    "tout le monde peut s'y asseoir.",
    "ou rejoindre une salle",
    # The reference's emoji are drawn as inline SVG icons (no emoji font needed).
    "Classement et profils",
    "Règles du jeu",
    "Salles publiques",
    "Aucune salle publique ouverte pour l'instant : créez-en une, elle apparaîtra ici.",
    "Code de la salle",
    "Joueurs",
    "Salle publique (visible dans la liste des salles de l'accueil)",
    "Nombre de manches",
    "Premier joueur",
    "Montrer sous chaque adversaire les cartes que l'on connaît de son jeu",
    "Journal de la partie visible",
    "Chrono par joueur",
    "En attente du lancement par l'hôte…",
    "Pioche",
    "Scores",
    "Journal",
    "Cartes pouvoir",
    "Sans pouvoir : As, 2, 3, 5, 10. Une suite qui contient plusieurs pouvoirs différents : "
    "on en choisit un seul.",
    "Demandez une valeur (sans la couleur) à un joueur. S'il en a, il vous en donne une (il "
    "choisit laquelle) et vous lui donnez une carte en échange. Une demande par 4 posé.",
    "Le joueur suivant doit jouer au moins une carte de la couleur du 6 visible (rouge ou "
    "noire), sinon il pioche sans jouer. Il peut dire YANNIV.",
    "Le joueur suivant ne joue que des cartes de 7 ou moins, sinon il pioche sans jouer. Il ne "
    "peut pas dire YANNIV.",
    "Vous ne piochez pas.",
    "Le sens du jeu change (nombre impair de 9).",
    "Au lieu de piocher, reprenez une carte (même pouvoir) posée par l'un des 2 derniers "
    "joueurs qui ont posé ; +1 joueur par Valet en plus.",
    "Piochez une carte de plus qu'il n'y a de Dames, gardez-en une, remettez les autres sur la "
    "pioche dans l'ordre de votre choix.",
    "Donnez une carte à un joueur, puis prenez-lui une carte au hasard. Une fois par Roi posé.",
    "Tour de jeu",
    "Jouer : une carte, un double / triple / carré, ou une suite d'au moins 3 cartes de même "
    "couleur (l'As est la plus petite : Dame-Roi-As n'est pas une suite).",
    "Piocher : dans la pioche, ou une carte jouée par le joueur précédent si ce n'est pas une "
    "carte pouvoir. Une carte tirée de la pioche de même valeur que celles jouées (ou qui "
    "prolonge la suite) peut être posée aussitôt, sans effet.",
    "Pouvoir des cartes jouées.",
    "YANNIV et points",
    "Avec 5 points ou moins en main, dites YANNIV à la place de jouer. Les autres jouent encore "
    "une fois (sans pouvoir dire YANNIV). Si vous avez toujours 5 ou moins, la manche s'arrête "
    "; sinon elle continue.",
    "As = 1, 2 à 10 = leur valeur, figures = 10.",
    "La plus petite main gagne la manche : −5 points ; les autres marquent leur main. Égalité : "
    "le moins de cartes, puis celui qui a dit YANNIV ; sinon 0 point chacun.",
    "Le moins de points à la fin gagne. Égalité en tête : manche de départage.",
    "Règles complètes ↗",
]


@pytest.fixture(scope="module")
def client() -> TestClient:
    app = FastAPI()
    app.include_router(router)
    app.include_router(games_router)
    mount_static(app)
    return TestClient(app)


def _visible_text(html: str) -> str:
    body = re.sub(r"<script[^>]*>.*?</script>", " ", html, flags=re.S)
    body = re.sub(r"<[^>]+>", " ", body)
    return re.sub(r"\s+", " ", html_mod.unescape(body))


def test_every_reference_element_has_its_french_wording(client: TestClient) -> None:
    # Server-rendered text of the pages, plus the French texts the scripts render.
    text = " ".join(_visible_text(client.get(path).text) for path in ("/", "/r/ABCDEF", "/regles"))
    text += " " + " ".join(FR.values())
    # The lobby's game settings are labelled by the games' settings schemas.
    text += " " + " ".join(prop["label_fr"] for game in client.get("/api/games").json()
                           for prop in game["settings"]["properties"].values())
    folded = _plain(text).casefold()
    missing = [item for item in REFERENCE if _plain(item).casefold() not in folded]
    assert not missing, missing
    # The power panel keys, as on the reference page.
    room = client.get("/r/ABCDEF").text
    for key in ("4", "6", "7", "8", "9", "V", "D", "R"):
        assert f"<dt>{key}</dt>" in room


def test_translations_cover_every_french_text() -> None:
    """Both dictionaries hold the same keys, digits included (no text falls back)."""
    assert set(EN) == set(FR), sorted(set(FR) ^ set(EN))


def test_whole_client_is_under_150_kb_compressed() -> None:
    """Even a browser that fetched every file of the client, as the server sends them
    (gzip), would stay under the 150 KB of the table's first load (which
    `test_delivery.py` measures in the browser)."""
    size = sum(len(gzip.compress(p.read_bytes(), 6)) for p in WEB.rglob("*") if p.is_file())
    print(f"web/ gzipped: {size} bytes")
    assert size < 150 * 1024, size


def test_home_room_rules_pages(client: TestClient) -> None:
    home = client.get("/")
    assert home.status_code == 200
    assert 'lang="fr"' in home.text
    assert re.search(r'<script type="module" src="/static/js/home\.[0-9a-f]{12}\.js">', home.text)
    room = client.get("/r/ABCDEF")
    assert 'data-code="ABCDEF"' in room.text
    assert client.get("/r/<script>").status_code == 404
    assert client.get("/r/ABCD").status_code == 404  # not a code's spelling
    rules = client.get("/regles").text
    assert "YANNIV — Règles" in rules
    assert "Un paquet vidé ne compte pas" in rules
    assert client.get("/static/css/app.css").status_code == 200
    assert client.get("/static/js/room.js").headers["content-type"].startswith(
        ("text/javascript", "application/javascript"))


def test_pseudo_inputs_stop_at_the_servers_limit(client: TestClient) -> None:
    from yanniv.server.rooms.validation import PSEUDO_MAX

    for path, input_id in (("/", "pseudo"), ("/r/ABCDEF", "join-pseudo")):
        tag = re.search(rf'<input[^>]*id="{input_id}"[^>]*>', client.get(path).text)
        assert tag is not None and f'maxlength="{PSEUDO_MAX}"' in tag.group(0)


def test_language_switch(client: TestClient) -> None:
    res = client.get("/lang/en?next=/regles", follow_redirects=False)
    assert res.status_code == 303 and res.headers["location"] == "/regles"
    assert "lang=en" in res.headers["set-cookie"]
    client.cookies.set("lang", "en")
    english = client.get("/").text
    assert 'lang="en"' in english and "Create a room" in english
    assert "Français" in english
    # Only same-site paths are followed.
    evil = client.get("/lang/en?next=https://evil.example/", follow_redirects=False)
    assert evil.headers["location"] == "/"
    client.cookies.clear()


def _rule_book() -> str | None:
    """The rule book (shared/rules/003), beside the clone (CI) or the worktree's checkout."""
    for base in (ROOT.parent, ROOT.parents[1]):
        found = sorted((base / "shared" / "rules").glob("003_*.txt"))
        if found:
            return found[0].read_text(encoding="utf-8")
    return None


def _plain(text: str) -> str:
    """Words only: French typography's non-breaking spaces read as spaces, `-5` as `−5`."""
    text = text.replace("\u00a0", " ").replace("\u202f", " ").replace("−", "-")
    return re.sub(r"\s+", " ", text).strip()


def _rules_page(client: TestClient, lang: str) -> str:
    client.cookies.set("lang", lang)
    try:
        return client.get("/regles").text
    finally:
        client.cookies.clear()


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_rules_pages_are_written_for_players(client: TestClient, lang: str) -> None:
    page = _rules_page(client, lang)
    main = page[page.index("<main"):page.index("</main>")]
    assert main.count("<h1") == 1
    # No trace of the project's files: test names, paths, code spans of Markdown.
    for leak in ("test_", ".py", "tests/", "QUESTIONS", "<code>", "shared/"):
        assert leak not in main, leak
    # Every power has an illustrated example, its cards named in the page's language.
    cards = re.findall(r'<span class="card-ph" data-card="([A2-9TJQK][SHDC])">([^<]+)</span>', main)
    for rank in "46789JQK":
        assert any(code[0] == rank for code, _ in cards), rank
    queen = "Dame de cœur" if lang == "fr" else "Queen of hearts"
    assert ("QH", queen) in cards
    assert re.search(r'<script type="module" src="/static/js/rules\.[0-9a-f]{12}\.js">', page)


def test_french_rules_page_holds_the_whole_rule_book(client: TestClient) -> None:
    book = _rule_book()
    if book is None:
        pytest.skip("shared/rules/003 is not beside this checkout")
    text = _plain(_visible_text(_rules_page(client, "fr")))
    # The book's last line sends readers to the project's files: the page says it in words.
    lines = [line for line in book.splitlines() if line.strip() and "QUESTIONS.md" not in line]
    # The book writes power names as "4: …" in a list; the page makes them headings.
    lines = [re.sub(r"^\w+: ", "", _plain(line)) for line in lines]
    sentences = [s for line in lines for s in re.split(r"(?<=[.:])\s+", line)]
    missing = [s for s in sentences if s not in text]
    assert not missing, missing
    assert "Précisions pour la version en ligne" in text


def test_english_rules_page_is_a_translation(client: TestClient) -> None:
    text = _plain(_visible_text(_rules_page(client, "en")))
    for phrase in ("YANNIV — Rules", "Instead of drawing, take back a card (even a power card)",
                   "Draw one card more than the number of Queens played",
                   "How the online game reads the rules", "Only you know the order"):
        assert phrase in text, phrase
    # No French sentence left in it (the French page's words for a turn and the pile).
    for french in ("Tour de jeu", "pioche", "Exemple", "défausse"):
        assert french not in text, french


def test_rules_markdown_escapes_html() -> None:
    from yanniv.webapp.rules import render_markdown

    out = render_markdown("fr", "<script>alert(1)</script>\n\n* a <b> `card:QH` `x<y>`")
    assert "<script>" not in out and "&lt;script&gt;" in out
    assert '<span class="card-ph" data-card="QH">Dame de cœur</span>' in out
    assert "<code>x&lt;y&gt;</code>" in out


def test_room_addresses_in_any_spelling_lead_to_the_canonical_one(client: TestClient) -> None:
    """Case, spaces and dashes do not matter: one address per room, so a seat is remembered
    under one code whatever the player typed."""
    for spelling in ("abcdef", "ABC-DEF", "abc%20def", "%20Ab-Cd%20eF", "abc–def"):
        answer = client.get(f"/r/{spelling}", follow_redirects=False)
        assert answer.status_code == 301, spelling
        assert answer.headers["location"] == "/r/ABCDEF", spelling
    assert client.get("/r/abc-def").text.count('data-code="ABCDEF"') == 1
    for wrong in ("ABC", "ABCDEFG", "ABCDE0", "ABC/DEF"):
        assert client.get(f"/r/{wrong}").status_code == 404, wrong
