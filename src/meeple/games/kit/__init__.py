"""What every game's own bots, analysis and commands build on, below the generic layers.

A game's package (``meeple.games.<game>``) is layer 0: its bots, its reviewer and
its ``meeple <game>`` commands may import nothing from ``meeple.bots``,
``meeple.analysis`` or ``meeple.cli``. What they share with those generic
layers lives here, and the generic layers import it from here too:

- :mod:`.bots`: the :class:`~.bots.Bot` protocol, the levels, :class:`~.bots.SeededBot`
  and :func:`~.bots.view_rng`;
- :mod:`.clock`: the safety stops of long searches (a bot's :class:`~.clock.Deadline`),
  the one module of ``meeple.games`` that reads a clock;
- :mod:`.search`: successive halving, the search the expert bots share;
- :mod:`.commands`: the command line's helpers (reading JSON input, failing in one line).
- :mod:`.notation`: a whole game as text around each game's move notation (docs/notation.md).
"""
