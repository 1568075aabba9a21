"""A game's tutorial over HTTP: its steps, and the learner's move at one of them judged by the
game's own engine. Generic: the registry says which games have one
(:func:`meeple.games.kit.tutorial.tutorial_of`); any other answers 404 ``no_feature``.

Nothing here is stored or remembered: a step's position is fixed data of the
game, so checking a move is a pure function of the game, the step and the move.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from meeple.analysis.features import hint_for, hinter_of, no_feature
from meeple.errors import Code
from meeple.games.base import Refusal
from meeple.games.kit.tutorial import Tutorial, tutorial_of
from meeple.i18n import catalog
from meeple.i18n.messages import translate
from meeple.web.deps import ServicesDep, client_address
from meeple.web.errors import busy_answer
from meeple.web.pages.render import request_language
from meeple.web.routes.analysis import ANALYSIS_SECONDS, TURN_BASED
from meeple.web.routes.hints import HintOut
from meeple.web.schemas import ERRORS
from meeple.web.tutorial_schemas import (
    TutorialMoveIn,
    TutorialOut,
    TutorialStepOut,
    TutorialVerdictOut,
)

router = APIRouter(prefix="/api/tutorials", tags=["games"], responses=ERRORS)


def _tutorial(game: str) -> Tutorial:
    """The game's tutorial; 404 ``no_feature`` for a game without one (or no such game)."""
    tutorial = tutorial_of(game)
    if tutorial is None:
        raise no_feature(game[:20], "tutorial", "tutorial")
    return tutorial


@router.get("/{game}", response_model=TutorialOut)
def steps(game: str, request: Request) -> TutorialOut:
    """Every step of the game's tutorial, in order: its title, what it asks and what it
    teaches (in the page's language), the learner's seat and the position, as the game's
    view for that seat (the same JSON a table sends)."""
    tutorial = _tutorial(game)
    texts = catalog(request_language(request))
    return TutorialOut(
        game=game,
        steps=[
            TutorialStepOut(
                index=index,
                key=step.key,
                title=texts.gettext(step.text_key(game, "title"), **step.params),
                text=texts.gettext(step.text_key(game, "text"), **step.params),
                done=texts.gettext(step.text_key(game, "done"), **step.params),
                seat=step.seat,
                view=dict(tutorial.game.view(step.state, step.seat)),
            )
            for index, step in enumerate(tutorial.steps)
        ],
    )


@router.post(
    "/{game}/{step}",
    response_model=TutorialVerdictOut,
    response_model_exclude_none=True,
    responses={404: {"description": "no such game, no tutorial, or no such step"}},
)
def check(game: str, step: int, body: TutorialMoveIn, request: Request) -> TutorialVerdictOut:
    """Whether ``action`` does what step ``step`` asks: the game's engine judges it first
    (its refusal's code names the rule broken), then the step (a legal move that is not the
    lesson: its own ``learn_*`` code). Done: the learner's view after the move, and the
    move's public effects. Open to anyone; nothing is stored."""
    tutorial = _tutorial(game)
    if not 0 <= step < len(tutorial.steps):
        raise Code.NO_PATH.error(f"the tutorial of {game!r} has no step {step}")
    try:
        after, effects = tutorial.attempt(step, body.action)
    except Refusal as exc:
        english = str(exc)
        return TutorialVerdictOut(
            ok=False,
            reason=exc.code,
            message=translate(request_language(request), exc.code, exc.params, english),
            message_en=english,
            params=dict(exc.params),
        )
    seat = tutorial.steps[step].seat
    return TutorialVerdictOut(ok=True, view=dict(tutorial.game.view(after, seat)), events=effects)


@router.post(
    "/{game}/{step}/hint",
    response_model=HintOut,
    responses={404: {"description": "no such game, no tutorial or hint, or no such step"}},
)
async def step_hint(
    game: str, step: int, request: Request, services: ServicesDep
) -> HintOut | JSONResponse:
    """A hint at step ``step``: the game's hint for its position (the analysis engine's best
    move, as at a table) when that move does what the step asks; else the step's own
    move (``details``: ``{"kind": "lesson", "effects": [its public effects]}``), so a hint
    never leads away from the lesson. Rate limited with the analysis board; open to anyone."""
    tutorial = _tutorial(game)
    if hinter_of(game) is None:
        raise no_feature(game[:20], "hint", "hint")
    if not 0 <= step < len(tutorial.steps):
        raise Code.NO_PATH.error(f"the tutorial of {game!r} has no step {step}")
    await services.limits.hit("analysis", client_address(request))
    lesson = tutorial.steps[step]
    view = dict(tutorial.game.view(lesson.state, lesson.seat))
    try:
        work = services.bots.run_until(ANALYSIS_SECONDS, hint_for, game, view, rank=TURN_BASED)
        answer = await work
    except TimeoutError:
        return busy_answer("the server is too busy to find a hint now; try again")
    try:
        tutorial.attempt(step, answer["action"])
    except Refusal:
        _after, effects = tutorial.attempt(step, lesson.example)
        answer = {
            "action": lesson.example,
            "text": "the move this step teaches",
            "details": {"kind": "lesson", "effects": effects},
        }
    return HintOut.model_validate(answer)
