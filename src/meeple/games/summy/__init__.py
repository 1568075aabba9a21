"""Summy: make true equations with number and sign tiles; score the digits.

The rules engine follows ``docs/rules-summy.md``: :mod:`.equation` (rules 6
and 7), :mod:`.rules` (``check_placement``, rules 1-7), :mod:`.formats`
(position and move JSON), :mod:`.state` and :mod:`.game` (``GAME``, the game
contract), :mod:`.notation` (``H 0,-3 1+1[=]2``); :mod:`.movegen` lists every
legal placement.

>>> GAME.name, GAME.min_players, GAME.max_players
('summy', 1, 2)
"""

from meeple.games.base import GameFeatures
from meeple.games.summy.game import GAME, SummyGame, position
from meeple.games.summy.state import SummyState

__all__ = ["FEATURES", "GAME", "SummyGame", "SummyState", "position"]

FEATURES = GameFeatures(
    reviewer="meeple.analysis.summy_review:REVIEWER",
    puzzles="meeple.analysis.summy_puzzles:CUTTER",
    analysis="meeple.analysis.summy_position:BOARD",
    commands="meeple.cli.summy",
    stylesheet="game.css",
    rules_page="rules.html",
    picture="picture.svg",
    analysis_page="analysis.html",
)
"""What Summy offers beyond the contract: a review, puzzles, the analysis board, commands."""
