"""Texts of the client, one JSON file per language in `web/i18n/` (French is the default).

Templates call `t("key")`; the scripts fetch the same dictionary once, as a file under a
hashed URL that browsers keep (`dictionary`, `i18n_url()`, served by `pages`), instead of a
copy inlined in every page; every text lives in exactly one place per language.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from jinja2 import pass_context

from yanniv import french
from yanniv.lang import DEFAULT_LANG, LANGS, lang_of
from yanniv.server.rooms.pseudos import parse_bot_name
from yanniv.webapp.assets import digest_of

WEB_DIR = Path(__file__).resolve().parents[2] / "web"


@cache
def strings(lang: str) -> dict[str, str]:
    path = WEB_DIR / "i18n" / f"{lang}.json"
    data: dict[str, str] = json.loads(path.read_text(encoding="utf-8"))
    if lang != DEFAULT_LANG:
        # Any text missing from a translation falls back to French.
        return {**strings(DEFAULT_LANG), **data}
    return data


def translate(lang: str, key: str, **params: Any) -> str:
    text = strings(lang).get(key, key)
    if params and lang == "fr":
        text = french.elide(text, params)
    if params:
        for name, value in params.items():
            text = text.replace("{" + name + "}", str(value))
    return text


def _ctx_lang(ctx: Any) -> str:
    lang = ctx.get("lang")
    if lang in LANGS:
        return lang
    return lang_of(ctx.get("request"))


@pass_context
def t(ctx: Any, key: str, **params: Any) -> str:
    """Jinja global: the text `key` in the page's language."""
    return translate(_ctx_lang(ctx), key, **params)


@cache
def dictionary(lang: str) -> tuple[bytes, str]:
    """The scripts' dictionary of `lang` (French filling its gaps) as JSON, and its hash."""
    data = json.dumps(strings(lang), ensure_ascii=False, separators=(",", ":")).encode()
    return data, digest_of(data)


@pass_context
def i18n_url(ctx: Any) -> str:
    """Jinja global: the hashed URL of the page language's dictionary, for the scripts."""
    lang = _ctx_lang(ctx)
    return f"/i18n/{lang}.{dictionary(lang)[1]}.json"


@pass_context
def current_lang(ctx: Any) -> str:
    return _ctx_lang(ctx)


def player_name(lang: str, pseudo: str, is_bot: bool) -> str:
    """A computer player named in `lang` from its French pseudo (« Ordinateur 2 (moyen) »,
    "Computer 2 (medium)"), as the browser client names it; a person keeps their pseudo."""
    parsed = parse_bot_name(pseudo) if is_bot else None
    if parsed is None:
        return pseudo
    level, number = parsed
    name = translate(lang, f"bot.level.{level}")
    if number == 1:
        return translate(lang, "bot.name", level=name)
    return translate(lang, "bot.name_n", n=number, level=name)


@pass_context
def player_name_of(ctx: Any, player: Any) -> str:
    """Jinja global: `player_name` of an object with `pseudo` and `is_bot`."""
    return player_name(_ctx_lang(ctx), player.pseudo, bool(getattr(player, "is_bot", False)))


def install(env: Any) -> None:
    """Add `t`, `i18n_url`, `current_lang` and `player_name` to a Jinja environment."""
    env.globals["t"] = t
    env.globals["player_name"] = player_name_of
    env.globals["i18n_url"] = i18n_url
    env.globals["current_lang"] = current_lang
