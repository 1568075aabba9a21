"""Rendering a page: the Jinja environment, the request's language and the shared context."""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path
from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse
from jinja2 import Environment, FileSystemLoader, select_autoescape

from meeple.games import GAME_NAMES, features_of, games_with
from meeple.i18n import LANG_COOKIE, LANGUAGE_NAMES, LANGUAGES, catalog, negotiate

TEMPLATES_DIR = Path(__file__).parent / "templates"

JS_PREFIXES = ("js.", "game.", "bot.", "pace.", "engine.")
"""The catalog keys the pages' scripts use; only these are sent to the browser."""

ENVIRONMENT = Environment(
    loader=FileSystemLoader(TEMPLATES_DIR),
    autoescape=select_autoescape(["html"]),
    trim_blocks=True,
    lstrip_blocks=True,
)


def request_language(request: Request) -> str:
    """The language of this request: the cookie's choice, else the browser's, else English."""
    return negotiate(request.headers.get("accept-language"), request.cookies.get(LANG_COOKIE))


def js_catalog(lang: str) -> dict[str, Any]:
    """What the pages' scripts need to translate: the messages, by key (refusals by code)."""
    messages = catalog(lang).with_prefix(*JS_PREFIXES)
    return {"lang": lang, "messages": messages}


@cache
def catalog_json(lang: str) -> tuple[bytes, str]:
    """The scripts' catalog of ``lang`` as JSON bytes, and a version that changes with it."""
    body = json.dumps(js_catalog(lang), ensure_ascii=False, sort_keys=True).encode("utf-8")
    return body, hashlib.sha256(body).hexdigest()[:12]


def catalog_url(lang: str) -> str:
    """Where the pages' scripts fetch their catalog: a versioned, cacheable URL."""
    return f"/i18n/{lang}.json?v={catalog_json(lang)[1]}"


def game_file_url(game: str, file: str) -> str:
    """Where the browser fetches a file of ``game``'s browser folder (built in or not)."""
    return f"/static/js/games/{game}/{file}"


def game_stylesheets() -> list[str]:
    """The stylesheet of every registered game that declares one, linked on every page."""
    return [
        game_file_url(name, sheet)
        for name in GAME_NAMES
        if (sheet := features_of(name).stylesheet) is not None
    ]


def render(request: Request, template: str, page: str, **context: Any) -> HTMLResponse:
    """The page ``template`` in the request's language."""
    lang = request_language(request)
    here = request.url.path + (f"?{request.url.query}" if request.url.query else "")
    html = ENVIRONMENT.get_template(template).render(
        _=catalog(lang).gettext,
        lang=lang,
        languages=[(code, LANGUAGE_NAMES[code]) for code in LANGUAGES],
        catalog_url=catalog_url(lang),
        here=here,
        page=page,
        games=GAME_NAMES,
        puzzle_games=games_with("puzzles"),
        game_stylesheets=game_stylesheets(),
        **context,
    )
    return HTMLResponse(html, headers={"Content-Language": lang, "Vary": "Accept-Language, Cookie"})
