"""Game analysis: every action of a recorded game reviewed from its mover's point of view.

Pure, like the games it reads: a review depends only on the record (and, for
Slide, a seed), never on a clock or global randomness, so it can be stored
once and served again.
"""
