"""French grammar that a filled-in name changes: « de » / « que » elide before a vowel sound
(« Profil d'Alice », « au tour d'Ordinateur », « de Yann »). Pure text, no dependency, so
that the pages (`webapp.i18n`) and the profiles' texts share it; the browser client has the
same rule in web/static/js/i18n.js.
"""

from __future__ import annotations

import re
import unicodedata

# « de {name} », « que {name} » at a word start (« De {name} » too).
_ELIDABLE = re.compile(r"(^|[\s(«\u00a0])([dD]e|[qQ]ue) \{(\w+)\}")


def elides(word: str) -> bool:
    """A vowel or a mute h (« d'Hugo », « d'Élise »), a Y before a consonant (« d'Yves »);
    never a digit or a symbol (« de 8♥ »)."""
    plain = "".join(c for c in unicodedata.normalize("NFD", word.strip())
                    if unicodedata.category(c) != "Mn").lower()
    return bool(re.match(r"[aeiouh]", plain) or re.match(r"y[^aeiouy]", plain))


def elide(template: str, params: dict[str, object]) -> str:
    """`template` with « de {x} » made « d'{x} » where the value of x elides (before filling)."""
    def repl(m: re.Match[str]) -> str:
        before, word, name = m.groups()
        if name in params and elides(str(params[name])):
            return f"{before}{word[:-1]}'{{{name}}}"
        return m.group(0)

    return _ELIDABLE.sub(repl, template)
