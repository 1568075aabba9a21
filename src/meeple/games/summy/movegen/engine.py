"""Which search the Summy move generator runs: the pure-Python reference or the compiled core.

The compiled core (``_movegen_c``, built by ``pip install`` where a C compiler
exists) runs the same depth-first search as
:func:`meeple.games.summy.movegen.solve._search`, many times faster; the
pure-Python search stays the reference and the fallback. Both give exactly
the same moves (the exactness tests run on both).

The choice: ``compiled`` when it is built, else ``python``; the environment
variable ``MEEPLE_SUMMY_ENGINE`` (``python`` or ``compiled``) or
:func:`use_engine` (``meeple summy moves --engine``) overrides it. Asking for
``compiled`` where it is not built is an error that says so.
"""

from __future__ import annotations

from collections.abc import Callable

from meeple.compiled import ENGINES as ENGINES  # re-exported: the CLI lists them
from meeple.compiled import EngineChoice

ENGINE_VARIABLE = "MEEPLE_SUMMY_ENGINE"

_choice = EngineChoice(
    "meeple.games.summy.movegen._movegen_c", ENGINE_VARIABLE, "the compiled move generator"
)

Search = Callable[[str, str, int], "tuple[tuple[int, str], ...] | None"]
"""``(pattern, hand, min_end)`` -> every ``(end, filling)``, sorted; ``None``: not handled."""


def compiled_available() -> bool:
    """Whether the compiled core was built on this machine."""
    return _choice.available()


def use_engine(name: str) -> None:
    """Run the move generator's searches with ``name`` (``python`` or ``compiled``) from now on.

    Raises ``ValueError`` for an unknown name, or ``compiled`` where it is not built.
    Caches hold the other engine's answers (the same moves), so they are emptied.
    """
    _choice.use(name)


def engine() -> str:
    """The engine in use now."""
    return _choice.engine()


def compiled_search() -> Search | None:
    """The compiled search if it is the engine in use, else ``None``."""
    compiled = _choice.active()
    if compiled is None:
        return None
    search: Search = compiled.search
    return search


def on_engine_change(listener: Callable[[], None]) -> None:
    """Call ``listener`` whenever the engine changes (to empty caches)."""
    _choice.on_change(listener)
