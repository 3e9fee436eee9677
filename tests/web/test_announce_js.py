"""The live region's sentences (web/static/js/table/announce.js) run by Node on the module
itself with the real dictionaries, for the events a browser test does not easily reach: runs
and sets in words, the powers seen by a party or by a bystander, constraints, the viewer's own
forms, French elision (« n'a pas d'As ») and plurals. Every expected sentence is written out
here by hand."""

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
// A virtual clock: the announcer's timers fire when `pause` moves it on, in the order they
// are due, instead of the script waiting for them in real time.
let now = 0;
let lastId = 0;
const timers = new Map();
globalThis.setTimeout = (fn, ms = 0) => { timers.set(++lastId, [now + ms, fn]); return lastId; };
globalThis.clearTimeout = (id) => { timers.delete(id); };
const advance = (ms) => {
  const until = now + ms;
  for (;;) {
    const due = [...timers].filter(([, [at]]) => at <= until)
      .sort(([a, [atA]], [b, [atB]]) => atA - atB || a - b)[0];
    if (!due) break;
    timers.delete(due[0]);
    now = due[1][0];
    due[1][1]();
  }
  now = until;
};
const i18n = await import(process.argv[1]);
const announce = await import(process.argv[2]);
const [fr, en, lang, me, steps, pause] = JSON.parse(process.argv[3]);
i18n.setStrings(lang === 'fr' ? fr : { ...fr, ...en }, lang);
const room = { limits: { call_limit: 5, winner_bonus: -5 }, seats: [
  { seat: 0, pseudo: 'Léa', is_bot: false },
  { seat: 1, pseudo: 'Ordinateur (moyen)', is_bot: true, bot_level: 'moyen' },
  { seat: 2, pseudo: 'Hugo', is_bot: false }] };
const said = [];
const a = announce.createAnnouncer((text) => said.push(text));
for (const [events, pending] of steps) {
  a.hear(events, { room, me, pending });
  // `pause`: longer than a play is held for its draw, after each message.
  if (pause) advance(announce.HOLD_MS + 100);
}
console.log(JSON.stringify(said));
process.exit(0);
"""

needs_node = pytest.mark.skipif(shutil.which("node") is None, reason="needs Node.js")


def _said(lang: str, me: int | None, steps: list, pause: bool = False) -> list[str]:
    out = subprocess.run(
        ["node", "--input-type=module", "-e", SCRIPT, (JS / "i18n.js").as_uri(),
         (JS / "table" / "announce.js").as_uri(),
         json.dumps([FR, EN, lang, me, steps, pause])],
        capture_output=True, text=True, check=True, timeout=60)
    return json.loads(out.stdout)


def _turn(seat: int) -> dict:
    return {"kind": "turn", "seat": seat}


def _draw(seat: int) -> dict:
    return {"kind": "draw", "seat": seat}


def played(seat: int, *cards: str, at_once: bool = False) -> dict:
    return {"type": "Played", "seat": seat, "cards": list(cards), "at_once": at_once}


def drew(seat: int, card: str | None, source: str = "pile", without: bool = False) -> dict:
    return {"type": "Drew", "seat": seat, "source": source, "card": card,
            "without_playing": without}


#: A sequence of state messages (events, then the decision pending after them).
STEPS = [
    [[played(1, "3H", "4H", "5H")], _draw(1)],
    [[drew(1, None), {"type": "TurnStarted", "seat": 2}], _turn(2)],
    [[played(2, "QS", "QH", "QD")], _draw(2)],
    [[{"type": "QueenDrew", "seat": 2, "count": 4}], {"kind": "queen_keep", "seat": 2}],
    [[{"type": "QueenKept", "seat": 2, "returned_count": 3, "kept": None, "returned": None},
      {"type": "TurnStarted", "seat": 0}], _turn(0)],
    [[played(0, "6S", "6H")], {"kind": "choose_colour", "seat": 0}],
    [[{"type": "ColourChosen", "seat": 0, "colour": "black"}], _draw(0)],
    [[drew(0, "9C"), {"type": "ConstraintSet", "seat": 0, "target": 1, "kind": "six",
                      "colour": "black"}], _turn(1)],
    [[played(1, "AS"), drew(1, "5H", "discard")], _turn(2)],
    [[played(2, "KC")], _draw(2)],
    [[drew(2, None), {"type": "KingSwapped", "seat": 2, "target": 0, "given": "2C",
                      "taken": "KD"}], _turn(0)],
    [[played(0, "4S"), drew(0, "4D"), played(0, "4D", at_once=True)],
     {"kind": "four_ask", "seat": 0}],
    [[{"type": "FourAsked", "seat": 0, "target": 1, "rank": 1},
      {"type": "FourAnswered", "seat": 1, "asker": 0, "rank": 1, "given": False,
       "card": None}], _turn(1)],
    [[played(1, "9S", "9D"), {"type": "DirectionChanged", "seat": 1, "direction": -1},
      drew(1, None)], _turn(0)],
    [[{"type": "PileReshuffled", "count": 12}, drew(0, None, without=True)], _turn(2)],
    [[{"type": "YannivCalled", "seat": 2}], _turn(0)],
    [[{"type": "YannivChecked", "seat": 2, "holds": False}], _turn(2)],
    [[{"type": "MancheStarted", "manche": 2, "tiebreak": False, "starter": 1,
       "participants": [0, 1, 2], "flipped": "7H"}], _turn(1)],
]

FR_SAID = [
    "Ordinateur (moyen) pose la suite 3, 4, 5 de cœur et pioche.",
    "Hugo pose trois Dames.",
    "Hugo utilise la Dame et pioche 4 cartes.",
    "Hugo garde une carte et en remet 3 sur la pioche.",
    "Vous posez deux 6.",
    "Vous imposez la couleur noire.",
    "Vous piochez le 9 de trèfle.",
    "Ordinateur (moyen) doit jouer au moins une carte noire.",
    "Ordinateur (moyen) pose l'As de pique et pioche le 5 de cœur dans la défausse.",
    "Hugo pose le Roi de trèfle et pioche.",
    "Hugo vous donne le 2 de trèfle et vous prend le Roi de carreau.",
    "Vous posez le 4 de pique et piochez le 4 de carreau.",
    "Vous posez aussitôt le 4 de carreau.",
    "Vous demandez un As à Ordinateur (moyen).",
    "Ordinateur (moyen) n'a pas d'As.",
    "Ordinateur (moyen) pose deux 9.",
    "Le sens du jeu change.",
    "Ordinateur (moyen) pioche.",
    "La défausse est mélangée pour refaire la pioche (12 cartes).",
    "Vous piochez sans jouer.",
    f"Hugo dit YANNIV{NN}!",
    f"Hugo a plus de 5 points{NB}: la manche continue.",
    f"Manche 2{NB}: Ordinateur (moyen) commence{NN}; carte retournée{NB}: 7 de cœur.",
]

EN_SAID = [
    "Computer (medium) plays the run 3, 4, 5 of hearts and draws.",
    "Hugo plays three Queens.",
    "Hugo uses the Queen and draws 4 cards.",
    "Hugo keeps one card and puts 3 back on the pile.",
    "You play two 6s.",
    "You set the colour black.",
    "You draw the 9 of clubs.",
    "Computer (medium) must play at least one black card.",
    "Computer (medium) plays the Ace of spades and takes the 5 of hearts from the discard.",
    "Hugo plays the King of clubs and draws.",
    "Hugo gives you the 2 of clubs and takes the King of diamonds.",
    "You play the 4 of spades and draw the 4 of diamonds.",
    "You put down the 4 of diamonds at once.",
    "You ask Computer (medium) for an Ace.",
    "Computer (medium) has no Ace.",
    "Computer (medium) plays two 9s.",
    "The direction of play changes.",
    "Computer (medium) draws.",
    "The discard is shuffled into a new pile (12 cards).",
    "You draw without playing.",
    "Hugo calls YANNIV!",
    "Hugo has more than 5 points: the round goes on.",
    "Round 2: Computer (medium) starts; card turned up: 7 of hearts.",
]


@needs_node
@pytest.mark.parametrize(("lang", "expected"), [("fr", FR_SAID), ("en", EN_SAID)])
def test_each_event_is_said_in_words(lang: str, expected: list[str]) -> None:
    assert _said(lang, 0, STEPS) == expected


@needs_node
def test_a_bystander_hears_the_parties_without_their_cards() -> None:
    """A spectator (no seat): third person everywhere, no card of a King's swap."""
    steps = [
        [[played(0, "KS")], _draw(0)],
        [[drew(0, None), {"type": "KingSwapped", "seat": 0, "target": 2, "given": None,
                          "taken": None}], _turn(1)],
        [[{"type": "FourAsked", "seat": 1, "target": 0, "rank": 12},
          {"type": "FourAnswered", "seat": 0, "asker": 1, "rank": 12, "given": True,
           "card": None}], {"kind": "four_exchange", "seat": 1}],
        [[{"type": "FourExchanged", "seat": 1, "target": 0, "card": None}], _turn(2)],
        [[{"type": "MancheEnded", "manche": 1, "winner": 2}, {"type": "MatchEnded",
                                                             "ranking": [2, 0, 1]}], None],
    ]
    assert _said("fr", None, steps) == [
        "Léa pose le Roi de pique et pioche.",
        "Léa donne une carte à Hugo et lui en prend une au hasard.",
        "Ordinateur (moyen) demande une Dame à Léa.",
        "Léa donne une Dame à Ordinateur (moyen).",
        "Ordinateur (moyen) donne une carte en échange à Léa.",
        f"Fin de la manche 1{NB}: Hugo gagne.",
        f"Partie terminée{NB}: Hugo gagne{NN}!",
    ]


@needs_node
def test_a_play_waits_for_its_draw_only_while_that_draw_is_pending() -> None:
    """The held play is said alone when something else comes first (a power choice)."""
    steps = [
        [[played(2, "7H", "8H", "9H")], {"kind": "choose_power", "seat": 2}],
        [[{"type": "PowerChosen", "seat": 2, "rank": 8}], _turn(0)],
        [[played(0, "AS")], _draw(0)],
        [[drew(0, "QD")], _turn(1)],
    ]
    assert _said("en", 0, steps) == [
        "Hugo plays the run 7, 8, 9 of hearts.",
        "Hugo chooses the power: 8.",
        "You play the Ace of spades and draw the Queen of diamonds.",
    ]


@needs_node
def test_a_slow_opponents_play_is_said_without_waiting_for_its_draw() -> None:
    """An opponent who takes long to draw: the play is said after a few seconds, then the draw
    on its own; the viewer's own play waits for the viewer's draw, however long."""
    steps = [
        [[played(2, "5S", "5H")], _draw(2)],
        [[drew(2, "5D", "discard")], _turn(0)],
        [[played(0, "TS")], _draw(0)],
        [[drew(0, "3C")], _turn(1)],
    ]
    assert _said("fr", 0, steps, pause=True) == [
        "Hugo pose deux 5.",
        "Hugo pioche le 5 de carreau dans la défausse.",
        "Vous posez le 10 de pique et piochez le 3 de trèfle.",
    ]
