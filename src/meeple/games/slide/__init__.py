"""Slide: draft revealed cards and slide them into a hidden 4x4 grid; lowest score wins.

The rules followed are ``rules/slide.md`` of the shared notes; ``docs/slide.md``
describes the actions, their notation, the view and the decisions taken.

>>> GAME.name, GAME.min_players, GAME.max_players
('slide', 2, 6)
"""

from __future__ import annotations

from meeple.games.base import GameFeatures
from meeple.games.slide.actions import Action, Reveal, Take
from meeple.games.slide.game import GAME, SlideGame
from meeple.games.slide.state import Options, State

__all__ = ["FEATURES", "GAME", "Action", "Options", "Reveal", "SlideGame", "State", "Take"]

FEATURES = GameFeatures(
    reviewer="meeple.analysis.slide_review:REVIEWER",
    commands="meeple.cli.slide",
    stylesheet="game.css",
    rules_page="rules.html",
    picture="picture.svg",
)
"""What Slide offers beyond the contract: a review by play-outs, and its commands."""
