"""Summy's analysis features (``FEATURES``): its reviewer, its puzzle cutter, its analysis board.

:mod:`.review` judges every action of a finished game against the best
placement the mover had; :mod:`.puzzles` cuts puzzles from reviewed games;
:mod:`.position` ranks every move of a position set up by hand. They follow
the protocols of ``meeple.analysis.features`` (docs/analysis.md).
"""
