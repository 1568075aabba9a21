"""A table's life: seats, options, start, clocks, bots, the versioned event log, ratings.

:class:`~meeple.tables.manager.TableManager` holds the tables of a server;
each :class:`~meeple.tables.core.table.Table` has a single writer.
"""
