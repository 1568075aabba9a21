"""The browser pages: a FastAPI router serving HTML, plus the static scripts and styles.

The app factory mounts :data:`router` and the static files (:func:`mount_static`:
each game's browser folder, then :data:`STATIC_DIR` at ``/static``). Pages are
rendered in the request's language (cookie, then Accept-Language); everything
live (the lobby, a table) is done by the scripts in ``static/js`` over the
server's REST routes and WebSocket.
"""

from __future__ import annotations

import json
from pathlib import Path

from fastapi import APIRouter, FastAPI, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles

from meeple.games import BROWSER_DIRS, GAME_NAMES, features_of, games_with
from meeple.i18n import LANG_COOKIE, LANGUAGES
from meeple.tables.facade import EMAILED, PROVISIONAL_GAMES
from meeple.web.pages.render import catalog_json, game_pictures, game_template, render
from meeple.web.routes.games import describe_game

STATIC_DIR = Path(__file__).parent.parent / "static"
"""The scripts, styles and pictures, served at ``/static``."""

LANG_COOKIE_SECONDS = 365 * 24 * 3600

router = APIRouter(include_in_schema=False)


def mount_static(app: FastAPI) -> None:
    """Serve each registered game's browser folder at ``/static/js/games/<game>/`` (the
    registry's, built-in games' included), then :data:`STATIC_DIR` at ``/static``."""
    for name, folder in BROWSER_DIRS.items():
        app.mount(f"/static/js/games/{name}", StaticFiles(directory=folder), name=f"game-{name}")
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")


def _known_game(game: str) -> str:
    if game not in GAME_NAMES:
        raise HTTPException(404, f"unknown game {game!r}")
    return game


def analysis_games() -> list[str]:
    """The games with an analysis board and its page (both declared in their features)."""
    return [name for name in games_with("analysis") if game_template(name, "analysis_page")]


@router.get("/", response_class=HTMLResponse)
def home(request: Request) -> HTMLResponse:
    """The home page and lobby: the games, quick play, open tables, create a table."""
    return render(
        request,
        "home.html",
        "home",
        game_infos=[describe_game(name) for name in GAME_NAMES],
        analysis_games=analysis_games(),
        pictures=game_pictures(),
    )


@router.get("/signin", response_class=HTMLResponse)
def sign_in(request: Request) -> HTMLResponse:
    """The sign-in form."""
    return render(
        request, "account.html", "signin", mode="signin", email_enabled=_email_on(request)
    )


@router.get("/signup", response_class=HTMLResponse)
def sign_up(request: Request) -> HTMLResponse:
    """The sign-up form (a guest signing up keeps their games)."""
    return render(request, "account.html", "signup", mode="signup")


@router.get("/account", response_class=HTMLResponse)
def account_page(request: Request) -> HTMLResponse:
    """One's own account: change the password, sign out everywhere, download or delete it."""
    return render(
        request, "account_page.html", "account", email_enabled=_email_on(request), emailed=EMAILED
    )


@router.get("/my-games", response_class=HTMLResponse)
def my_games(request: Request) -> HTMLResponse:
    """The player's live tables, those waiting for their move first (``/api/me/tables``)."""
    return render(request, "my_games.html", "my-games")


@router.get("/friends", response_class=HTMLResponse)
def friends(request: Request) -> HTMLResponse:
    """The players one follows: who is online and what they play, a challenge to each
    (``static/js/friends.js`` over ``/api/me/following``)."""
    return render(request, "friends.html", "friends")


def _email_on(request: Request) -> bool:
    """Whether this server sends email (the pages then offer the email features)."""
    services = getattr(request.app.state, "services", None)
    return services is not None and bool(services.settings.email_enabled)


@router.get("/rules/{game}", response_class=HTMLResponse)
def rules(request: Request, game: str) -> HTMLResponse:
    """A game's rules, with pictures of example moves: the game's ``rules_page``."""
    template = game_template(_known_game(game), "rules_page")
    if template is None:
        raise HTTPException(404, f"there is no rules page for {game!r} yet")
    return render(request, template, f"rules-{game}")


@router.get("/learn/{game}", response_class=HTMLResponse)
def learn(request: Request, game: str) -> HTMLResponse:
    """A game's tutorial: its scripted steps on the game's own board, each move checked by
    its engine (``static/js/learn.js`` over ``/api/tutorials/{game}``)."""
    if game not in games_with("tutorial"):
        raise HTTPException(404, f"there is no tutorial for {game!r}")
    return render(request, "learn.html", "learn", game=game)


@router.get("/leaderboard/{game}", response_class=HTMLResponse)
def leaderboard(request: Request, game: str) -> HTMLResponse:
    """A game's leaderboard."""
    return render(
        request,
        "leaderboard.html",
        "leaderboard",
        game=_known_game(game),
        provisional_games=PROVISIONAL_GAMES,
    )


@router.get("/profile/{name}", response_class=HTMLResponse)
def profile(request: Request, name: str) -> HTMLResponse:
    """A player's games, wins and rating over time."""
    return render(
        request, "profile.html", "profile", name=name, provisional_games=PROVISIONAL_GAMES
    )


@router.get("/tournaments/new", response_class=HTMLResponse)
def tournament_new(request: Request) -> HTMLResponse:
    """The form that creates a tournament (``static/js/tournament_new.js``)."""
    return render(
        request,
        "tournament_new.html",
        "tournament-new",
        game_infos=[describe_game(name) for name in GAME_NAMES],
    )


@router.get("/tournaments/{tournament_id}", response_class=HTMLResponse)
def tournament(request: Request, tournament_id: str, secret: str = "") -> HTMLResponse:
    """A tournament: countdown, standings, the newest round's games, join and withdraw
    (filled in by ``static/js/tournament.js`` from ``/api/tournaments``)."""
    return render(
        request, "tournament.html", "tournament", tournament_id=tournament_id, secret=secret
    )


@router.get("/table/{table_id}", response_class=HTMLResponse)
@router.get("/tables/{table_id}", response_class=HTMLResponse)
def table(request: Request, table_id: str, invite: str = "") -> HTMLResponse:
    """A table: waiting for players, playing, or the end-of-game summary.

    ``/tables/{id}?invite=TOKEN`` is the invite link the server hands out.
    """
    return render(request, "table.html", "table", table_id=table_id, invite=invite)


@router.get("/replay/{table_id}", response_class=HTMLResponse)
def replay(request: Request, table_id: str) -> HTMLResponse:
    """Step through a finished game, move by move, and download its text (docs/notation.md)."""
    return render(
        request, "replay.html", "replay", table_id=table_id, text_games=games_with("notation")
    )


@router.get("/analysis/{game}", response_class=HTMLResponse)
def analysis_board(request: Request, game: str) -> HTMLResponse:
    """A game's analysis board: set up any position and see every move, ranked.

    Only for a game whose registration names a board (``analysis``) and its
    page (``analysis_page``, a template in the game's folder that loads its script).
    """
    if game not in analysis_games():
        raise HTTPException(404, f"there is no analysis board for {game!r}")
    return render(request, f"{game}/{features_of(game).analysis_page}", "analysis", game=game)


@router.get("/puzzles/{game}", response_class=HTMLResponse)
@router.get("/puzzles/{game}/{puzzle_id}", response_class=HTMLResponse)
def puzzle(request: Request, game: str, puzzle_id: str = "") -> HTMLResponse:
    """A game's puzzle: the next one for the player, ``daily``, or one by its id."""
    if game not in games_with("puzzles"):
        raise HTTPException(404, f"there are no puzzles of {game!r}")
    rater_games = request.app.state.services.settings.puzzle_rater_games
    return render(
        request,
        "puzzle.html",
        "puzzle",
        game=game,
        puzzle_id=puzzle_id[:16],
        rater_games=rater_games,
        has_analysis=game in analysis_games(),
    )


@router.get("/lang")
def switch_language(code: str, next: str = "/") -> RedirectResponse:
    """Remember the chosen language in a cookie and go back to the page."""
    if code not in LANGUAGES:
        raise HTTPException(400, f"unknown language {code!r}")
    if not next.startswith("/") or next.startswith("//"):
        next = "/"
    response = RedirectResponse(next, status_code=303)
    response.set_cookie(
        LANG_COOKIE, code, max_age=LANG_COOKIE_SECONDS, samesite="lax", httponly=True
    )
    return response


@router.get("/i18n/{lang}.json")
def script_catalog(lang: str, v: str | None = None) -> Response:
    """The messages the scripts need, for one language (refusals keyed by code).

    The pages ask for it with its version (``?v=``): that answer may be cached
    for good, since a new catalog has a new version.
    """
    if lang not in LANGUAGES:
        raise HTTPException(404, f"unknown language {lang!r}")
    body, version = catalog_json(lang)
    cache_control = "public, max-age=31536000, immutable" if v == version else "no-cache"
    return Response(body, media_type="application/json", headers={"Cache-Control": cache_control})


@router.get("/js/games.js", include_in_schema=False)
def game_modules() -> Response:
    """The browser module of every registered game, by name, from the registry.

    Each game keeps its browser code in its browser folder, served at
    ``/static/js/games/<game>/`` (``meeple.games.browser_folder``); its
    ``ui.js`` exports ``createUi``, ``shownScores`` and ``seatNotes``. The
    table, replay and profile pages import ``GAMES`` from here, so they name
    no game and a new one needs no edit outside its own folders.
    """
    lines = [
        f'import * as game{index} from "/static/js/games/{name}/ui.js";'
        for index, name in enumerate(GAME_NAMES)
    ]
    entries = ", ".join(f"{json.dumps(name)}: game{index}" for index, name in enumerate(GAME_NAMES))
    lines.append(f"export const GAMES = {{ {entries} }};")
    return Response("\n".join(lines) + "\n", media_type="text/javascript")
