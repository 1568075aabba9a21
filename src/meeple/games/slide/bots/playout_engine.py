"""Which play-out the Slide expert runs: the pure-Python reference or the compiled core.

The compiled core (``_playout_c``, built by ``pip install`` where a C
compiler exists) plays a determinized deal to its end exactly as
:func:`meeple.games.slide.bots.sim.play_out_python` does, many times faster, so
the expert gets many more play-outs per move; the Python play-out stays the
reference and the fallback (``tests/games/slide/bots/test_bots_slide_playout.py`` plays
hundreds of deals through both and compares the points).

The choice: ``compiled`` when it is built, else ``python``; the environment
variable ``MEEPLE_SLIDE_PLAYOUT_ENGINE`` (``python`` or ``compiled``) or
:func:`use_engine` overrides it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from meeple.compiled import ENGINES as ENGINES  # re-exported for the tests and tools
from meeple.compiled import EngineChoice

ENGINE_VARIABLE = "MEEPLE_SLIDE_PLAYOUT_ENGINE"

_choice = EngineChoice(
    "meeple.games.slide.bots._playout_c", ENGINE_VARIABLE, "the compiled Slide play-out"
)

PlayOut = Callable[
    [int, int, int, int, Sequence[Sequence[int]], Sequence[int], Sequence[int], Sequence[int], int],
    "tuple[int, ...]",
]
"""``(players, rounds, round, first or -1, grids, pool, to_take, picks, seed)`` -> points."""


def compiled_available() -> bool:
    """Whether the compiled core was built on this machine."""
    return _choice.available()


def use_engine(name: str) -> None:
    """Run the play-outs with ``name`` (``python`` or ``compiled``) from now on.

    Raises ``ValueError`` for an unknown name, or ``compiled`` where it is not built.
    """
    _choice.use(name)


def engine() -> str:
    """The engine in use now."""
    return _choice.engine()


def compiled_play_out() -> PlayOut | None:
    """The compiled play-out if it is the engine in use, else ``None``."""
    compiled = _choice.active()
    if compiled is None:
        return None
    play_out: PlayOut = compiled.play_out
    return play_out
