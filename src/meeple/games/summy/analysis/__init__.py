"""Summy's analysis features (``FEATURES``): reviewer, puzzle cutter, analysis board, hint.

:mod:`.review` judges every action of a finished game against the best
placement the mover had; :mod:`.puzzles` cuts puzzles from reviewed games;
:mod:`.position` ranks every move of a position set up by hand; :mod:`.hint`
suggests the best move to the seat to move, from its view. They follow
the protocols of ``meeple.analysis.features`` (docs/analysis.md).
"""
