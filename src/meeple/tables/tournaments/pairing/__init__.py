"""Pairing a tournament's round (pure): who meets whom, at which tables.

- :mod:`.matching`: the cheapest pairs of a field, by networkx's maximum-weight matching;
- :mod:`.swiss_costs` and :mod:`.swiss`: a Swiss round of a two-player game;
- :mod:`.swiss_tables`: a Swiss round of a game for three players or more;
- :mod:`.arena`: an arena's points with streaks and its pairing pass.
"""
