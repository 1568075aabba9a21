"""Rendering a page: the Jinja environment, the request's language and the shared context."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Mapping
from functools import cache
from pathlib import Path
from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse
from jinja2 import (
    BaseLoader,
    ChoiceLoader,
    Environment,
    FileSystemLoader,
    PrefixLoader,
    select_autoescape,
)

from meeple.games import GAME_NAMES, browser_folder, features_of, games_with
from meeple.i18n import LANG_COOKIE, LANGUAGE_NAMES, LANGUAGES, catalog, negotiate
from meeple.tables.facade import page_texts

TEMPLATES_DIR = Path(__file__).parent / "templates"

JS_PREFIXES = ("js.", "game.", "bot.", "pace.", "engine.")
"""The catalog keys the pages' scripts use; only these are sent to the browser."""


class GameFolders(Mapping[str, BaseLoader]):
    """Each registered game's browser folder as a template loader, by the game's name.

    Looked up when a template is asked for, so a game registered after this
    module was imported (a plugin) is found too: ``"<game>/rules.html"`` is
    the file ``rules.html`` of that game's folder.
    """

    def __getitem__(self, game: str) -> BaseLoader:
        if game not in GAME_NAMES:
            raise KeyError(game)
        return FileSystemLoader(browser_folder(game))

    def __iter__(self) -> Iterator[str]:
        return iter(list(GAME_NAMES))

    def __len__(self) -> int:
        return len(GAME_NAMES)


ENVIRONMENT = Environment(
    loader=ChoiceLoader([FileSystemLoader(TEMPLATES_DIR), PrefixLoader(GameFolders())]),
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


def catalog_json(lang: str) -> tuple[bytes, str]:
    """The scripts' catalog of ``lang`` as JSON bytes, and a version that changes with it."""
    return _catalog_json(lang, tuple(GAME_NAMES))


@cache
def _catalog_json(lang: str, games: tuple[str, ...]) -> tuple[bytes, str]:
    """:func:`catalog_json` made once for the games registered (whose texts it holds)."""
    body = json.dumps(js_catalog(lang), ensure_ascii=False, sort_keys=True).encode("utf-8")
    return body, hashlib.sha256(body).hexdigest()[:12]


def catalog_url(lang: str) -> str:
    """Where the pages' scripts fetch their catalog: a versioned, cacheable URL."""
    return f"/i18n/{lang}.json?v={catalog_json(lang)[1]}"


def game_file_url(game: str, file: str) -> str:
    """Where the browser fetches a file of ``game``'s browser folder (built in or not)."""
    return f"/static/js/games/{game}/{file}"


def game_template(game: str, feature: str) -> str | None:
    """The template of ``game``'s page ``feature`` (``"rules_page"``, ``"analysis_page"``), as
    :data:`ENVIRONMENT`'s loader finds it; ``None`` if the game declares none."""
    file = getattr(features_of(game), feature)
    return None if file is None else f"{game}/{file}"


def game_pictures() -> dict[str, str]:
    """Where each registered game's picture is, for the games that declare one."""
    return {
        name: game_file_url(name, picture)
        for name in GAME_NAMES
        if (picture := features_of(name).picture) is not None
    }


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
        rules_games=[name for name in GAME_NAMES if features_of(name).rules_page],
        learn_games=games_with("tutorial"),
        notification_texts=page_texts(),
        **context,
    )
    return HTMLResponse(html, headers={"Content-Language": lang, "Vary": "Accept-Language, Cookie"})
