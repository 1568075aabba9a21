"""The table core: one table, its changes, its log, its clock-driven runtime, its bots and
the rating of its finish.
"""
