"""Which search the Summy move generator runs: the pure-Python reference or the compiled core.

The compiled core (``_movegen_c``, built by ``pip install`` where a C compiler
exists) runs the same depth-first search as
:func:`meeple.games.summy.movegen_solve._search`, many times faster; the
pure-Python search stays the reference and the fallback. Both give exactly
the same moves (the exactness tests run on both).

The choice: ``compiled`` when it is built, else ``python``; the environment
variable ``MEEPLE_SUMMY_ENGINE`` (``python`` or ``compiled``) or
:func:`use_engine` (``meeple summy moves --engine``) overrides it. Asking for
``compiled`` where it is not built is an error that says so.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from types import ModuleType

ENGINES = ("python", "compiled")
ENGINE_VARIABLE = "MEEPLE_SUMMY_ENGINE"

_compiled: ModuleType | None
try:
    _compiled = importlib.import_module("meeple.games.summy._movegen_c")
except ImportError:  # no compiler at install time: the Python search serves
    _compiled = None

Search = Callable[[str, str, int], "tuple[tuple[int, str], ...] | None"]
"""``(pattern, hand, min_end)`` -> every ``(end, filling)``, sorted; ``None``: not handled."""

_state: dict[str, str] = {}
_listeners: list[Callable[[], None]] = []


def compiled_available() -> bool:
    """Whether the compiled core was built on this machine."""
    return _compiled is not None


def use_engine(name: str) -> None:
    """Run the move generator's searches with ``name`` (``python`` or ``compiled``) from now on.

    Raises ``ValueError`` for an unknown name, or ``compiled`` where it is not built.
    """
    if name not in ENGINES:
        raise ValueError(f"unknown engine {name!r}: choose one of {', '.join(ENGINES)}")
    if name == "compiled" and _compiled is None:
        raise ValueError(
            "the compiled move generator is not built here (pip install needs a C compiler);"
            " use the python engine"
        )
    _state["engine"] = name
    for listener in _listeners:
        listener()  # caches hold the other engine's answers: same moves, but keep them apart


def engine() -> str:
    """The engine in use now."""
    if "engine" not in _state:
        default = "compiled" if _compiled is not None else "python"
        use_engine(os.environ.get(ENGINE_VARIABLE, "").strip() or default)
    return _state["engine"]


def compiled_search() -> Search | None:
    """The compiled search if it is the engine in use, else ``None``."""
    if engine() == "compiled" and _compiled is not None:
        search: Search = _compiled.search
        return search
    return None


def on_engine_change(listener: Callable[[], None]) -> None:
    """Call ``listener`` whenever the engine changes (to empty caches)."""
    _listeners.append(listener)
