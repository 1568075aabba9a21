"""Request and response bodies of the tutorial routes (``/api/tutorials/{game}``)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from meeple.web.schemas import Input


class TutorialStepOut(BaseModel):
    """One step: what to do, in the page's language, and the position to do it in."""

    index: int = Field(description="0 for the first step")
    key: str = Field(description="names the step (Summy: place, equals, build, discard, pass)")
    title: str
    text: str = Field(description="what the step asks, in the page's language")
    done: str = Field(description="what it taught, shown once the move is made")
    seat: int = Field(description="the learner's seat")
    view: dict[str, Any] = Field(description="the position: the game's view for that seat")


class TutorialOut(BaseModel):
    """A game's tutorial, every step in order."""

    game: str
    steps: list[TutorialStepOut]


class TutorialMoveIn(Input):
    """The learner's move at one step."""

    action: Any = Field(description="the game's action JSON, as at a table")


class TutorialVerdictOut(BaseModel):
    """The step done, with the position after the move; or refused, with the rule's code."""

    ok: bool
    view: dict[str, Any] | None = Field(
        default=None, description="the learner's view after the move (when ok)"
    )
    events: list[Any] = Field(default_factory=list, description="the move's public effects")
    reason: str | None = Field(
        default=None,
        description="the refusal's code: the engine's rule, or the step's own (learn_*)",
    )
    message: str | None = Field(default=None, description="the refusal in the page's language")
    message_en: str | None = None
    params: dict[str, Any] | None = Field(default=None, description="the blanks of its sentence")
