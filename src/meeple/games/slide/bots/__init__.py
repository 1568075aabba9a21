"""Slide's bots at four levels (``FEATURES.bots``), and the play-outs they and the reviewer share.

:mod:`.basic` (``random``, ``greedy``), :mod:`.strong` (weighs the reveal,
future pairs and what it leaves the next player), :mod:`.expert`
(determinized Monte Carlo over the unseen cards); :mod:`.seen` reads a seat's
view, :mod:`.evaluate` scores a grid, :mod:`.sim` plays a determinized deal
out, with an optional compiled core chosen in :mod:`.playout_engine`.
docs/bots.md describes each level.
"""
