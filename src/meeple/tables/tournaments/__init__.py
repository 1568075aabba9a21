"""Tournaments' pure core: pairing, points, standings and the round deadline's rule.

Everything here is a function of what it is given: no I/O, no clock, no global
random. Equal choices are settled by a fixed order (points, then rating, then
id), so the same tournament always pairs the same way. docs/tournaments.md
states the rules these modules implement.

- :mod:`.model`: the players, finished games and byes, and points by finishing place;
- :mod:`.records`: each player's past, read from the games and byes;
- :mod:`.swiss_costs` and :mod:`.swiss`: a Swiss round of a two-player game;
- :mod:`.swiss_tables`: a Swiss round of a game for three players or more;
- :mod:`.arena`: an arena's points with streaks and its pairing pass;
- :mod:`.standings`: Swiss and arena standings with their tie-breaks;
- :mod:`.deadline`: how a game unfinished at its round's deadline ends.
"""
