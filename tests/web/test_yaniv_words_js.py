"""Classic Yaniv's words (web/static/js/games/yaniv/words.js) run by Node on the modules with
the real dictionaries: jokers in plays, the call, Assaf seen by the caller, by the one who
caught it and by a bystander, totals brought down, eliminations, and the moment's beats.
Every expected sentence is written out here by hand."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
JS = ROOT / "web" / "static" / "js"
FR = json.loads((ROOT / "web" / "i18n" / "fr.json").read_text(encoding="utf-8"))
EN = json.loads((ROOT / "web" / "i18n" / "en.json").read_text(encoding="utf-8"))
NN, NB = "\u202f", "\u00a0"

SCRIPT = """
const i18n = await import(process.argv[1]);
const announce = await import(process.argv[2]);
const words = await import(process.argv[3]);
const [fr, en, lang, me, steps] = JSON.parse(process.argv[4]);
i18n.setStrings(lang === 'fr' ? fr : { ...fr, ...en }, lang);
const room = { limits: { call_limit: 7 }, seats: [
  { seat: 0, pseudo: 'Léa', is_bot: false },
  { seat: 1, pseudo: 'Ordinateur (moyen)', is_bot: true, bot_level: 'moyen' },
  { seat: 2, pseudo: 'Hugo', is_bot: false }] };
const said = [];
const a = announce.createAnnouncer((text) => said.push(text), words.sentence);
for (const [events, pending] of steps) a.hear(events, { room, me, pending });
const all = steps.flatMap(([events]) => events);
const log = all.map((ev) => words.describe(ev, room)).filter(Boolean);
const beats = words.moment(all, room).map((b) => [b.kind, b.title, b.name]);
console.log(JSON.stringify({ said, log, beats, hold: words.holdMs(all) }));
process.exit(0);
"""

needs_node = pytest.mark.skipif(shutil.which("node") is None, reason="needs Node.js")


def _run(lang: str, me: int | None, steps: list) -> dict:
    out = subprocess.run(
        ["node", "--input-type=module", "-e", SCRIPT, (JS / "i18n.js").as_uri(),
         (JS / "table" / "announce.js").as_uri(), (JS / "games" / "yaniv" / "words.js").as_uri(),
         json.dumps([FR, EN, lang, me, steps])],
        capture_output=True, text=True, check=True, timeout=60)
    return json.loads(out.stdout)


def ended(**kw: object) -> dict:
    base = {"type": "MancheEnded", "manche": 2, "tiebreak": False, "participants": [0, 1, 2],
            "hands": [[], [], []], "points": [0, 0, 0], "deltas": [0, 0, 0],
            "brought_down": [], "eliminated": [], "totals": [0, 0, 0]}
    return {**base, **kw}


PLAYS = [
    [[{"type": "Played", "seat": 1, "cards": ["4H", "5H", "XR"]}], {"kind": "draw", "seat": 1}],
    [[{"type": "Drew", "seat": 1, "source": "discard", "card": "XB"},
      {"type": "TurnStarted", "seat": 2}], {"kind": "turn", "seat": 2}],
    [[{"type": "Played", "seat": 2, "cards": ["XR", "XB"]}], {"kind": "draw", "seat": 2}],
    [[{"type": "Drew", "seat": 2, "source": "pile", "card": None}], {"kind": "turn", "seat": 0}],
]
CAUGHT = [[{"type": "YanivCalled", "seat": 0, "points": 7},
           ended(caller=0, assaf=True, winner=2)], None]
HELD = [[{"type": "YanivCalled", "seat": 2, "points": 3},
         ended(caller=2, assaf=False, winner=2, brought_down=[1], totals=[220, 50, 3],
               eliminated=[0])], None]


@needs_node
def test_jokers_in_plays_and_a_caught_call_in_french() -> None:
    out = _run("fr", 0, [*PLAYS, CAUGHT])
    assert out["said"] == [
        "Ordinateur (moyen) pose la suite 4, 5, joker de cœur et pioche le joker noir dans "
        "la défausse.",
        "Hugo pose deux jokers et pioche.",
        "Vous annoncez Yaniv avec 7 points.",
        f"Fin de la manche 2{NB}: Assaf{NN}! Hugo a autant de points ou moins que vous.",
    ]
    # The journal speaks of everyone in the third person, with French elision.
    assert out["log"][-2:] == [
        "Léa annonce Yaniv avec 7 points.",
        f"Fin de la manche 2{NB}: Assaf{NN}! Hugo a autant de points ou moins que Léa.",
    ]
    assert out["beats"] == [["call", f"Yaniv{NN}!", "Léa"], ["assaf", f"Assaf{NN}!", "Hugo"]]
    assert out["hold"] == 3000


@needs_node
def test_the_one_who_caught_the_call_and_a_held_call_with_its_aftermath() -> None:
    caught = _run("fr", 2, [CAUGHT])
    assert caught["said"][-1] == (
        f"Fin de la manche 2{NB}: Assaf{NN}! Vous avez autant de points ou moins que Léa.")
    held = _run("fr", 0, [HELD])
    assert held["said"] == [
        "Hugo annonce Yaniv avec 3 points.",
        f"Fin de la manche 2{NB}: le Yaniv d'Hugo tient. Le total d'Ordinateur (moyen) tombe "
        "pile et revient à 50. Vous êtes éliminé.",
    ]
    assert held["beats"] == [["call", f"Yaniv{NN}!", "Hugo"]]
    # The journal names everyone; Ordinateur's own page says « votre total ».
    assert held["log"][-1].endswith(f"Éliminé{NB}: Léa.")
    assert _run("fr", 1, [HELD])["said"][-1].endswith(
        f"Votre total tombe pile et revient à 50. Éliminé{NB}: Léa.")


@needs_node
def test_the_same_in_english() -> None:
    out = _run("en", 0, [*PLAYS, CAUGHT, HELD])
    assert out["said"] == [
        "Computer (medium) plays the run 4, 5, joker of hearts and takes the black joker from "
        "the discard.",
        "Hugo plays two jokers and draws.",
        "You call Yaniv with 7 points.",
        "End of round 2: Assaf! Hugo has as many points as you or fewer.",
        "Hugo calls Yaniv with 3 points.",
        "End of round 2: Hugo's Yaniv holds. Computer (medium)'s total lands exactly and goes "
        "back to 50. You are eliminated.",
    ]
