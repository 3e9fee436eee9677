"""The pages around the games, as the server writes them: each game's rules page (French:
the rule book word for word, then the online version's decisions; English: a translation),
each under its own address with a switch between them; the home page's game list and
tagline drawn from the registry; the leaderboard's and the profile's games."""

from __future__ import annotations

import html as html_mod
import re
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from yanniv.games import GAMES
from yanniv.games.yaniv.rules import model as yaniv_model
from yanniv.webapp.pages import mount_static, router

ROOT = Path(__file__).resolve().parents[2]
GAMES_DIR = ROOT / "yanniv" / "games"


@pytest.fixture(scope="module")
def client() -> TestClient:
    app = FastAPI()
    app.include_router(router)
    mount_static(app)
    return TestClient(app)


def _get(client: TestClient, path: str, lang: str = "fr") -> str:
    client.cookies.set("lang", lang)
    try:
        answer = client.get(path)
        assert answer.status_code == 200, path
        return answer.text
    finally:
        client.cookies.clear()


def _text(page: str) -> str:
    """The visible words of <main>, French typography's spaces read as spaces."""
    main = page[page.index("<main"):page.index("</main>")]
    body = re.sub(r"<[^>]+>", " ", main)
    text = html_mod.unescape(body).replace("\u00a0", " ").replace("\u202f", " ")
    return re.sub(r"\s+", " ", text)


def _book() -> str | None:
    """Classic Yaniv's rule book (shared/rules/001), beside the clone or the worktree."""
    for base in (ROOT.parent, ROOT.parents[1]):
        found = sorted((base / "shared" / "rules").glob("001_*.txt"))
        if found:
            return found[0].read_text(encoding="utf-8")
    return None


def test_every_game_has_its_rules_in_french_and_english() -> None:
    for game in GAMES:
        for lang in ("fr", "en"):
            assert (GAMES_DIR / game / f"rules.{lang}.md").is_file(), (game, lang)


def test_each_game_has_one_rules_address(client: TestClient) -> None:
    yanniv = _get(client, "/regles")
    yaniv = _get(client, "/regles/yaniv")
    assert "YANNIV — Règles" in yanniv and "<h1>Yaniv — Règles</h1>" in yaniv
    assert "<title>Yaniv — Règles du jeu</title>" in yaniv
    # The switch names both games and marks the page's own.
    for page, here in ((yanniv, "/regles"), (yaniv, "/regles/yaniv")):
        switch = re.search(r'<nav class="game-switch"[^>]*>(.*?)</nav>', page, re.S)
        assert switch is not None
        links = re.findall(r'<a [^>]*href="([^"]+)"\s*(aria-current="page")?', switch.group(1))
        assert [href for href, _ in links] == ["/regles", "/regles/yaniv"]
        assert [href for href, current in links if current] == [here]
    moved = client.get("/regles/yanniv", follow_redirects=False)
    assert moved.status_code == 301 and moved.headers["location"] == "/regles"
    assert client.get("/regles/belote").status_code == 404


def test_french_yaniv_rules_hold_the_whole_rule_book(client: TestClient) -> None:
    book = _book()
    if book is None:
        pytest.skip("shared/rules/001 is not beside this checkout")
    text = _text(_get(client, "/regles/yaniv"))
    # The book's last three lines are its web page's (a link to another game, comments).
    lines = [line.strip() for line in book.splitlines() if line.strip()]
    assert lines[-3:][0] == "À découvrir également" and lines[-1] == "Laisser un commentaire"
    lines = lines[:-3]
    # Its tables are written as tables: their cells are checked, not their `|` lines.
    cells = [c.strip() for line in lines if line.startswith("|") for c in line.split("|")]
    words = [c for c in cells if c and not set(c) <= {"-"}]
    lines = [line.lstrip("- ") for line in lines if not line.startswith("|")]
    sentences = [s for line in lines for s in re.split(r"(?<=[.:])\s+", line)]
    missing = [s for s in sentences + words if s.replace("\u00a0", " ") not in text]
    assert not missing, missing
    assert "Précisions pour la version en ligne" in text


def test_yaniv_rules_say_what_the_site_plays(client: TestClient) -> None:
    """The decisions (QUESTIONS.md §38–49) in words, with the engine's numbers."""
    fr = _text(_get(client, "/regles/yaniv"))
    m = yaniv_model
    for phrase in (
        f"de {m.MIN_SEATS} à {m.MAX_SEATS} joueurs", f"chacun reçoit {m.HAND_SIZE} cartes",
        f"à partir de {m.TWO_DECKS_FROM} joueurs", f"À {m.TWO_DECKS_ALWAYS} joueurs, deux jeux",
        f"{m.THRESHOLD} points par défaut", f"jusqu’à {m.MIN_THRESHOLD}",
        f"un As ({str(m.ACE_BONUS).replace('-', '−')} points)",
        f"un joker ({str(m.JOKER_BONUS).replace('-', '−')} points)",
        f"l’annonceur prend {m.ASSAF_PENALTY} points",
        "Un joker ne complète pas une paire", "Mode élimination", "manche de départage",
        "la première et la dernière carte posées", "défausse est mélangée",
    ):
        assert phrase in fr, phrase
    assert m.LANDINGS == {100: 50, 200: 100}
    assert "exactement 100 passe à 50, et exactement 200 passe à 100" in fr
    for leak in ("test_", ".py", "QUESTIONS", "shared/", "Hearts", "commentaire"):
        assert leak not in fr, leak


def test_english_yaniv_rules_are_a_translation(client: TestClient) -> None:
    en = _text(_get(client, "/regles/yaniv", "en"))
    for phrase in ("Yaniv — Rules", "The Assaf rule", "How the online game reads the rules",
                   "A joker does not complete a pair", "Elimination mode", "Game:"):
        assert phrase in en, phrase
    for french in ("pioche", "défausse", "Exemple", "manche", "joueur"):
        assert french not in en, french


def test_french_yaniv_rules_keep_french_typography() -> None:
    source = (GAMES_DIR / "yaniv" / "rules.fr.md").read_text(encoding="utf-8")
    prose = re.sub(r"`[^`]*`", "", source)
    for wrong in (" :", " ;", " ?", " !", "« ", " »", "...", "'"):
        assert wrong not in prose, repr(wrong)


def test_the_home_page_offers_the_registrys_games(client: TestClient) -> None:
    for lang, words in (("fr", "en ligne de 2 à 8 joueurs"), ("en", "online for 2 to 8 players")):
        page = _get(client, "/", lang)
        assert words in _text(page)
        select = re.search(r'<select id="game".*?</select>', page, re.S)
        assert select is not None
        options = re.findall(r'<option value="([^"]+)"([^>]*)>([^<]*)</option>', select.group(0))
        assert [value for value, _, _ in options] == list(GAMES)
        assert "selected" in options[0][1]  # YANNIV, the default game
        yaniv = next(o for o in options if o[0] == "yaniv")
        assert 'data-max-seats="8"' in yaniv[1] and 'data-bots="facile moyen"' in yaniv[1]
        assert 'data-rules="/regles/yaniv"' in yaniv[1]
        assert yaniv[2] == ("Yaniv (de 2 à 8 joueurs)" if lang == "fr" else
                            "Yaniv (2 to 8 players)")
        # The computer players of the default game: up to 3 opponents, its three levels.
        count = re.search(r'<select id="bots-count">(.*?)</select>', page, re.S)
        assert count is not None and re.findall(r'value="(\d)"', count.group(1)) == ["1", "2", "3"]
