"""Optional compiled cores: which one runs, the pure-Python reference or its C build.

A compiled core (a C extension built by ``pip install`` where a C compiler
exists, see ``setup.py``) computes exactly what a pure-Python function does,
many times faster; the Python code stays the reference and the fallback.

:class:`EngineChoice` holds the choice for one core: ``compiled`` when it is
built, else ``python``; an environment variable (``python`` or ``compiled``)
or :meth:`EngineChoice.use` overrides it. Asking for ``compiled`` where it is
not built is an error that says so.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from types import ModuleType

ENGINES = ("python", "compiled")


def load_optional(module: str) -> ModuleType | None:
    """The compiled module ``module``, or ``None`` where it was not built."""
    try:
        return importlib.import_module(module)
    except ImportError:  # no compiler at install time: the Python code serves
        return None


class EngineChoice:
    """The engine one compiled core runs with, read from ``variable`` on first use."""

    def __init__(self, module: str, variable: str, what: str) -> None:
        self.compiled = load_optional(module)
        self.variable = variable
        self.what = what
        self._engine: str | None = None
        self._listeners: list[Callable[[], None]] = []

    def available(self) -> bool:
        """Whether the compiled core was built on this machine."""
        return self.compiled is not None

    def use(self, name: str) -> None:
        """Run with ``name`` (``python`` or ``compiled``) from now on.

        Raises ``ValueError`` for an unknown name, or ``compiled`` where it is not built.
        """
        if name not in ENGINES:
            raise ValueError(f"unknown engine {name!r}: choose one of {', '.join(ENGINES)}")
        if name == "compiled" and self.compiled is None:
            raise ValueError(
                f"{self.what} is not built here (pip install needs a C compiler);"
                " use the python engine"
            )
        self._engine = name
        for listener in self._listeners:
            listener()

    def engine(self) -> str:
        """The engine in use now."""
        if self._engine is None:
            default = "compiled" if self.compiled is not None else "python"
            self.use(os.environ.get(self.variable, "").strip() or default)
        assert self._engine is not None
        return self._engine

    def active(self) -> ModuleType | None:
        """The compiled module if it is the engine in use, else ``None``."""
        return self.compiled if self.engine() == "compiled" else None

    def on_change(self, listener: Callable[[], None]) -> None:
        """Call ``listener`` whenever the engine changes (to empty caches)."""
        self._listeners.append(listener)
