"""Tournaments: a pure core (pairing, points, standings, the round deadline's rule) and
the two modules that serve it (I/O).

The pure modules are functions of what they are given: no I/O, no clock, no
global random. Equal choices are settled by a fixed order (points, then rating,
then id), so the same tournament always pairs the same way. docs/tournaments.md
states the rules they implement and the API the service answers.

Pure:

- :mod:`.model`: the players, finished games and byes, and points by finishing place;
- :mod:`.records`: each player's past, read from the games and byes;
- :mod:`.pairing`: a round's pairing (Swiss of two players or at tables of 3-6, arena);
- :mod:`.standings`: Swiss and arena standings with their tie-breaks;
- :mod:`.deadline`: how a game unfinished at its round's deadline ends;
- :mod:`.plan`: a new tournament's settings checked, and the tables it opens;
- :mod:`.shown`: stored rows read into the core's terms, and shown as JSON.

I/O (the store, the tables, the clock):

- :mod:`.service`: create, list, read, join, withdraw, pause, cancel;
- :mod:`.runner`: on the server holding a tournament's lease, its start, each round's
  pairing and tables, results from the tables' facts, deadlines, its end.
"""
