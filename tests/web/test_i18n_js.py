"""The client's grammar helpers (web/static/js/i18n.js) run by Node on the module itself, with
the real dictionaries: French elision, plurals by language, computer players named in the
page's language, and French spacing in French only. Expected texts are written out here."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
I18N_JS = ROOT / "web" / "static" / "js" / "i18n.js"
FR = json.loads((ROOT / "web" / "i18n" / "fr.json").read_text(encoding="utf-8"))
EN = json.loads((ROOT / "web" / "i18n" / "en.json").read_text(encoding="utf-8"))
NNBSP, NBSP = "\u202f", "\u00a0"

SCRIPT = """
const m = await import(process.argv[1]);
const [fr, en, calls] = JSON.parse(process.argv[2]);
const out = [];
for (const [language, fn, args] of calls) {
  m.setStrings(language === 'fr' ? fr : { ...fr, ...en }, language);
  out.push(fn === 'plural' ? m.plural(...args) : m[fn](...args));
}
console.log(JSON.stringify(out));
"""

needs_node = pytest.mark.skipif(shutil.which("node") is None, reason="needs Node.js")


def _run(calls: list[tuple[str, str, list]]) -> list:
    out = subprocess.run(
        ["node", "--input-type=module", "-e", SCRIPT, I18N_JS.as_uri(),
         json.dumps([FR, EN, calls])],
        capture_output=True, text=True, check=True, timeout=60)
    return json.loads(out.stdout)


def _bot(pseudo: str, level: str) -> dict:
    return {"seat": 2, "pseudo": pseudo, "is_bot": True, "bot_level": level}


@needs_node
def test_french_elides_before_a_vowel_sound_and_english_does_not() -> None:
    cases = [
        ("fr", "t", ["table.turn_of", {"name": "Ordinateur (moyen)"}],
         "C'est au tour d'Ordinateur (moyen)."),
        ("fr", "t", ["table.turn_of", {"name": "Hugo"}], "C'est au tour d'Hugo."),
        ("fr", "t", ["table.turn_of", {"name": "Élise"}], "C'est au tour d'Élise."),
        ("fr", "t", ["table.turn_of", {"name": "Yves"}], "C'est au tour d'Yves."),
        ("fr", "t", ["table.turn_of", {"name": "Yann"}], "C'est au tour de Yann."),
        ("fr", "t", ["table.turn_of", {"name": "Léa"}], "C'est au tour de Léa."),
        ("fr", "t", ["table.turn_of", {"name": "8 ans"}], "C'est au tour de 8 ans."),
        ("fr", "t", ["home.room_of", {"host": "Anne"}], "Salle d'Anne"),
        ("en", "t", ["table.turn_of", {"name": "Anne"}], "It is Anne's turn."),
    ]
    got = _run([c[:3] for c in cases])
    assert got == [c[3] for c in cases]


@needs_node
def test_plurals_follow_each_language() -> None:
    cases = [("fr", -5, "other"), ("fr", -1, "one"), ("fr", 0, "one"), ("fr", 1, "one"),
             ("fr", 2, "other"), ("fr", 38, "other"), ("en", 0, "other"), ("en", 1, "one"),
             ("en", -5, "other"), ("en", -1, "one")]
    assert _run([(lang, "plural", [n, lang]) for lang, n, _ in cases]) == [c[2] for c in cases]
    got = _run([("fr", "tn", ["table.score", -5]), ("fr", "tn", ["table.score", 38]),
                ("fr", "tn", ["table.score", 1]), ("en", "tn", ["table.points", 0]),
                ("en", "tn", ["table.score", -5])])
    assert got == ["−5 pts", "38 pts", "1 pt", "0 points", "−5 pts"]


@needs_node
def test_computer_players_are_named_in_the_pages_language() -> None:
    person = {"seat": 0, "pseudo": "Léa", "is_bot": False, "bot_level": None}
    calls = [
        ("fr", "playerName", [_bot("Ordinateur (moyen)", "moyen")]),
        ("fr", "playerName", [_bot("Ordinateur 2 (difficile)", "difficile")]),
        ("en", "playerName", [_bot("Ordinateur (moyen)", "moyen")]),
        ("en", "playerName", [_bot("Ordinateur 3 (facile)", "facile")]),
        ("en", "playerName", [person]),
    ]
    assert _run(calls) == ["Ordinateur (moyen)", "Ordinateur 2 (difficile)",
                           "Computer (medium)", "Computer 3 (easy)", "Léa"]


def test_french_spacing_in_french_only() -> None:
    """French puts a non-breaking space before ; : ! ? and inside « »; English none (the
    client's texts and the profile pages')."""
    from yanniv.profiles import texts

    for key, text in {**FR, **texts.FR}.items():
        assert not re.search(r" [;:!?»]|« ", text), (key, text)
    assert FR["act.yanniv"] == f"YANNIV{NNBSP}!" and EN["act.yanniv"] == "YANNIV!"
    for key, text in {**EN, **texts.EN}.items():
        assert not re.search(f"[{NNBSP}{NBSP}][;:!?]", text), (key, text)
        assert not re.search(r"\w [;:!?]", text), (key, text)


def test_the_server_pages_elide_and_name_computers_the_same_way() -> None:
    """yanniv/french.py and webapp.i18n, on cases written out here (the client's rule twin)."""
    from yanniv.profiles.texts import tr
    from yanniv.webapp.i18n import player_name, translate

    assert tr("fr", "profile.title", pseudo="Alice") == "Profil d'Alice"
    assert tr("fr", "profile.title", pseudo="Yann") == "Profil de Yann"
    assert tr("en", "profile.title", pseudo="Alice") == "Alice's profile"
    assert translate("fr", "table.turn_of", name="Ordinateur (moyen)") == (
        "C'est au tour d'Ordinateur (moyen).")
    assert translate("fr", "home.room_of", host="8 ans") == "Salle de 8 ans"
    assert player_name("en", "Ordinateur 2 (moyen)", True) == "Computer 2 (medium)"
    assert player_name("en", "Ordinateur (difficile)", True) == "Computer (hard)"
    assert player_name("fr", "Ordinateur 3 (facile)", True) == "Ordinateur 3 (facile)"
    assert player_name("en", "Ordinateur (moyen)", False) == "Ordinateur (moyen)"  # a person
