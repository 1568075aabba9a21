"""Summy: make true equations with number and sign tiles; score the digits.

The rules engine follows ``docs/rules-summy.md``: :mod:`.equation` (rules 6
and 7), :mod:`.rules` (``check_placement``, rules 1-7), :mod:`.formats`
(position and move JSON), :mod:`.state` and :mod:`.game` (``GAME``, the game
contract), :mod:`.notation` (``H 0,-3 1+1[=]2``); :mod:`.movegen` lists every
legal placement; :mod:`.tracker` counts the tiles a seat has not seen. Around
the rules, everything else of Summy, named in its ``FEATURES``: its bots
(:mod:`.bots`), its reviewer, puzzles, analysis board and hint
(:mod:`.analysis`), its ``meeple summy`` commands (:mod:`.cli`), and its browser
folder ``browser/`` (``ui.js``, ``game.css``, its texts in ``messages/``, its
rules and analysis pages).

>>> GAME.name, GAME.min_players, GAME.max_players
('summy', 1, 2)
"""

from meeple.games.base import GameFeatures
from meeple.games.summy.game import GAME, SummyGame, position
from meeple.games.summy.state import SummyState

__all__ = ["FEATURES", "GAME", "SummyGame", "SummyState", "position"]

FEATURES = GameFeatures(
    bots={
        "random": "meeple.games.summy.bots.basic:RandomSummyBot",
        "greedy": "meeple.games.summy.bots.basic:GreedySummyBot",
        "strong": "meeple.games.summy.bots.strong:StrongSummyBot",
        "expert": "meeple.games.summy.bots.expert:ExpertSummyBot",
    },
    reviewer="meeple.games.summy.analysis.review:REVIEWER",
    puzzles="meeple.games.summy.analysis.puzzles:CUTTER",
    analysis="meeple.games.summy.analysis.position:BOARD",
    hint="meeple.games.summy.analysis.hint:HINTER",
    commands="meeple.games.summy.cli",
    tutorial="meeple.games.summy.tutorial:TUTORIAL",
    notation="meeple.games.summy.game_text:NOTATION",
    stylesheet="game.css",
    messages="messages",
    rules_page="rules.html",
    picture="picture.svg",
    analysis_page="analysis.html",
)
"""What Summy offers beyond the contract: its bots, a review, puzzles, the analysis board,
hints, its commands, and its page files (its browser folder, ``browser/``)."""
