"""The one kind of error a game's rules raise: an illegal action, as a code and parameters.

Rules never hold sentences. They raise their game's subclass of `IllegalAction` with a stable
code and the facts that explain it (`NotInHand(card=...)`-like parameters); the subclass names
its game's catalogue of words (`Texts`), which renders the French and English reasons when the
server or a tool asks for them. The state is never changed by a refused action.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar


@dataclass(frozen=True, slots=True)
class Words:
    """A parameter said differently in each language (a card's or a rank's name)."""

    fr: str
    en: str

    def __str__(self) -> str:
        return self.fr


class Texts:
    """A game's catalogue: code → (French template, English template), `str.format` style.

    A parameter that is `Words` takes its French or English form; a callable template
    receives the language and the parameters, for the few reasons built from parts.
    """

    def __init__(self, entries: Mapping[str, tuple[Any, Any]]) -> None:
        self.entries = dict(entries)

    def __contains__(self, code: str) -> bool:
        return code in self.entries

    def render(self, code: str, params: Mapping[str, Any], lang: str = "fr") -> str:
        """The words for `code` in `lang` ("fr" or "en"); KeyError for an unknown code."""
        template = self.entries[code][0 if lang == "fr" else 1]
        said = {name: _said(value, lang) for name, value in params.items()}
        if callable(template):
            return str(template(**said))
        return str(template).format(**said)


def _said(value: Any, lang: str) -> Any:
    if isinstance(value, Words):
        return value.fr if lang == "fr" else value.en
    return value


class IllegalAction(ValueError):
    """Raised by a game's `apply` for an action that is not legal now (state untouched).

    `code` is stable and machine-readable, `params` the facts behind it; `message` (French,
    ready for the player) and `message_en` come from the subclass's `texts` catalogue.
    """

    texts: ClassVar[Texts] = Texts({})

    def __init__(self, code: str, **params: Any) -> None:
        self.code = code
        self.params = params
        super().__init__(code)

    @property
    def message(self) -> str:
        return self.texts.render(self.code, self.params, "fr")

    @property
    def message_en(self) -> str:
        return self.texts.render(self.code, self.params, "en")

    def __str__(self) -> str:
        return self.message


def catalogue_of(*parts: Mapping[str, tuple[Any, Any]]) -> Texts:
    """One catalogue from several tables of entries (a shared family's and a game's own)."""
    merged: dict[str, tuple[Any, Any]] = {}
    for part in parts:
        merged.update(part)
    return Texts(merged)


Template = str | Callable[..., str]
