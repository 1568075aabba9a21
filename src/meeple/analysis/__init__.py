"""Game analysis, for every game alike: what a game's reviewer, puzzle cutter and analysis board
must do (:mod:`.features`), the background review of finished games (:mod:`.review`) and the
bot games that feed the puzzles (:mod:`.bot_games`).

Each game's own reviewer, cutter and board live in its package and are named in its
``FEATURES``. Like the games they read, they are pure: a review depends only on the record
and a seed, never on a clock or global randomness, so it can be stored once and served again.
"""
