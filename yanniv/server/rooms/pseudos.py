"""What a person may be called at a table, beyond length: no invisible characters, not a
computer player's name, not a look-alike of a pseudo already seated in the room.

Look-alikes follow Unicode TR39 ("skeletons"): every character is replaced by the prototype
it is confusable with (А Cyrillic -> A, I -> l, 0 -> O, m -> rn), using the confusables.txt
table that `confusable-homoglyphs` ships. The skeleton is taken of the pseudo made NFKC
(full-width and mathematical letters -> plain), without accents or spaces, in three cases:
as typed, case-folded and upper-cased; two pseudos are confusable when any of those looks
are equal. Only prototypes are used, never their transitive closure: chaining "looks like"
through odd characters would make T look like R.
"""

from __future__ import annotations

import unicodedata
from functools import cache

import regex

#: The word every computer player's pseudo starts with (`bot_name`); people may not use it.
BOT_WORD = "Ordinateur"
#: The words a computer player's name starts with on screen: its French pseudo, and the
#: English page's name for it (web/i18n/en.json `bot.name`, "Computer (medium)"). People may
#: use neither, or an English reader could take a person for the machine.
BOT_WORDS = (BOT_WORD, "Computer")

#: Characters that draw nothing: Unicode's default-ignorable code points (zero-width space and
#: joiners, soft hyphen, variation selectors, Hangul fillers…) and the blank Braille pattern.
#: Control, format and separator characters other than the space are refused as unprintable.
_INVISIBLE = regex.compile(r"[\p{Default_Ignorable_Code_Point}\u2800]")
#: The data file writes right-to-left characters between LEFT-TO-RIGHT MARKs, for display.
_LRM = "\u200e"


def bot_name(level: str, number: int) -> str:
    """"Ordinateur (moyen)" for the first computer player of a level, then "Ordinateur 2
    (moyen)", …"""
    return f"{BOT_WORD} ({level})" if number == 1 else f"{BOT_WORD} {number} ({level})"


_BOT_NAME = regex.compile(rf"{BOT_WORD}(?: (\d+))? \((\w+)\)")


def parse_bot_name(pseudo: str) -> tuple[str, int] | None:
    """(level, number) of a name made by `bot_name`, None for any other pseudo."""
    found = _BOT_NAME.fullmatch(pseudo)
    if found is None:
        return None
    return found.group(2), int(found.group(1) or 1)


def has_invisible(pseudo: str) -> bool:
    """Whether the pseudo holds a character that shows nothing (a zero-width space…)."""
    return _INVISIBLE.search(pseudo) is not None


@cache
def _prototypes() -> dict[str, str]:
    """Character -> its TR39 prototype, for the characters that are not their own.

    The package stores each "source ; prototype" line both ways, so a prototype is the side
    with several partners; in a pair with one partner each, the multi-character side, else
    the smaller code point, stands for both.

    The package's data file is read here rather than through its `confusables` module, which
    keeps the whole table (~6 MB of dicts and strings) alive for good: only this map
    (~0.4 MB) stays.
    """
    from confusable_homoglyphs.utils import load

    partners: dict[str, list[str]] = {}
    for char, glyphs in load("confusables.json").items():
        partners.setdefault(char.strip(_LRM), []).extend(g["c"].strip(_LRM) for g in glyphs)
    out: dict[str, str] = {}
    for char, glyphs in partners.items():
        if len(char) != 1 or len(glyphs) != 1:
            continue
        target = glyphs[0]
        pair = partners.get(target, []) == [char]
        if pair and len(target) == 1 and char < target:
            continue  # `char` stands for the pair
        out[char] = target
    return out


def prepare() -> None:
    """Build the table now (at start-up), not on the first room's pseudo: that request
    would wait ~0.3 s for it, and the memory it frees would be counted against the rooms."""
    _prototypes()


def _skeleton(text: str) -> str:
    protos = _prototypes()
    decomposed = unicodedata.normalize("NFD", text)
    mapped = "".join(protos.get(c, c) for c in decomposed)
    return "".join(
        c for c in unicodedata.normalize("NFD", mapped)
        if not c.isspace() and unicodedata.category(c) != "Mn" and not has_invisible(c)
    )


def looks(pseudo: str) -> frozenset[str]:
    """The ways `pseudo` may look (see the module docstring); equal looks = confusable."""
    plain = unicodedata.normalize("NFKC", pseudo)
    return frozenset(_skeleton(v) for v in (plain, plain.casefold(), plain.upper()))


def confusable(a: str, b: str) -> bool:
    """Whether a reader could take one pseudo for the other ("Alice", "ALICE", "Аlice")."""
    return not looks(a).isdisjoint(looks(b))


def bot_word_of(pseudo: str) -> str | None:
    """The word of `BOT_WORDS` that `pseudo` starts with (or a look-alike of it), whatever
    follows ("Ordinateur 2 (moyen)", "ORDINATEUR", "0rdinateur-9", "Computer (easy)")."""
    seen = looks(pseudo)
    for bot_word, words in _bot_looks():
        if any(look.startswith(word) for look in seen for word in words):
            return bot_word
    return None


@cache
def _bot_looks() -> tuple[tuple[str, frozenset[str]], ...]:
    """Each word of `BOT_WORDS` with its looks, worked out once: every pseudo taken is
    checked against them (at 4,000 pseudos, they were 95 % of the looks computed)."""
    return tuple((word, looks(word)) for word in BOT_WORDS)


def is_bot_name(pseudo: str) -> bool:
    """Whether `pseudo` reads as a computer player's name (`bot_word_of`)."""
    return bot_word_of(pseudo) is not None
