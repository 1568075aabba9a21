"""Slide: draft revealed cards and slide them into a hidden 4x4 grid; lowest score wins.

The rules followed are ``rules/slide.md`` of the shared notes; ``docs/slide.md``
describes the actions, their notation, the view and the decisions taken.
Around the rules, everything else of Slide, named in its ``FEATURES``: its
bots (:mod:`.bots`), its reviewer (:mod:`.review`), its ``meeple slide``
commands (:mod:`.cli`), and its browser folder ``browser/`` (``ui.js``,
``game.css``, its texts in ``messages/``, its rules page).

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
    bots={
        "random": "meeple.games.slide.bots.basic:RandomSlideBot",
        "greedy": "meeple.games.slide.bots.basic:GreedySlideBot",
        "strong": "meeple.games.slide.bots.strong:StrongSlideBot",
        "expert": "meeple.games.slide.bots.expert:ExpertSlideBot",
    },
    reviewer="meeple.games.slide.review:REVIEWER",
    commands="meeple.games.slide.cli",
    tutorial="meeple.games.slide.tutorial:TUTORIAL",
    notation="meeple.games.slide.game_text:NOTATION",
    stylesheet="game.css",
    messages="messages",
    rules_page="rules.html",
    picture="picture.svg",
)
"""What Slide offers beyond the contract: its bots, a review by play-outs, its commands,
and its page files (its browser folder, ``browser/``)."""
