"""Summy's bots at four levels (``FEATURES.bots``), and the judgement they share.

:mod:`.basic` (``random``, ``greedy``), :mod:`.strong` (the score now plus the
hand kept, valued by the learned hand model of :mod:`.leave`), :mod:`.expert`
(Monte Carlo over the unseen tiles, with :mod:`.infer` and :mod:`.endgame`);
:mod:`.seen` reads a seat's view and writes actions, :mod:`.tactics` holds the
judgement ``strong`` and ``expert`` share. docs/bots.md describes each level.
"""
