"""The rules pages, one Markdown file per game and language, kept in the game's own folder
(`yanniv/games/<game>/rules.<lang>.md`, `Game.rules_file`), rendered with markdown-it-py.

French: the game's rule book, word for word, then the interpretations of QUESTIONS.md in words
for players (no test names, no paths). English: a translation of both. Raw HTML in the files is
escaped (`html` off); a code span `card:QH card:2S` becomes small card faces: a text
placeholder (`data-card`) that `web/static/js/rules.js` draws with the table's card art.
"""

from __future__ import annotations

import html
import re
from functools import cache
from pathlib import Path
from typing import Any

from markdown_it import MarkdownIt
from markupsafe import Markup

from yanniv.games import get_game
from yanniv.webapp import i18n

_CARDS = re.compile(r"card:[A2-9TJQK][SHDC](?: card:[A2-9TJQK][SHDC])*")
_RANKS = "A23456789TJQK"


def card_name(lang: str, code: str) -> str:
    """"Dame de cœur" / "Queen of hearts": the text of a card placeholder (and its name)."""
    rank = _RANKS.index(code[0]) + 1
    return i18n.translate(lang, "card.speech", rank=i18n.translate(lang, f"rank.name.{rank}"),
                          suit=i18n.translate(lang, f"suit.{code[1]}"))


def _cards_html(lang: str, content: str) -> str:
    codes = [word.removeprefix("card:") for word in content.split()]
    faces = "".join(
        f'<span class="card-ph" data-card="{c}">{html.escape(card_name(lang, c))}</span>'
        for c in codes)
    return f'<span class="cards-inline">{faces}</span>'


@cache
def _parser(lang: str) -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    default = md.renderer.rules["code_inline"]

    def code_inline(_self: Any, tokens: list[Any], idx: int, options: Any, env: Any) -> str:
        content = tokens[idx].content
        if _CARDS.fullmatch(content):
            return _cards_html(lang, content)
        return default(tokens, idx, options, env)

    md.add_render_rule("code_inline", code_inline)
    return md


def render_markdown(lang: str, source: str) -> str:
    """Markdown to HTML in `lang` (card spans named in that language); HTML in it is escaped."""
    return _parser(lang).render(source)


def rules_file(game: str, lang: str) -> Path:
    """Where the rules of `game` (a registry id) are written in `lang`."""
    return get_game(game).rules_file(lang)


@cache
def rules_html(lang: str, game: str) -> Markup:
    """The whole rules page body of `game` in `lang`, rendered once per process."""
    lang = lang if lang in i18n.LANGS else i18n.DEFAULT_LANG
    source = rules_file(game, lang).read_text(encoding="utf-8")
    # Safe: markdown-it escapes any HTML the source holds (`html` off).
    return Markup(render_markdown(lang, source))
