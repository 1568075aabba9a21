"""Stopping a Summy move search when its caller no longer wants the answer.

The rules read no clock: a caller that must not wait past some point (the
analysis board, for a stranger's position) hands the move generator a
``stop``, any function that says whether to give up, built on the caller's
own clock. The generator asks it between stretches and the depth-first
search asks it every :data:`STOP_EVERY` steps; once it says so the search
raises :class:`SearchStopped` and caches nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

Stop = Callable[[], bool]
"""Asked during a search: ``True`` once the caller no longer wants the answer."""

STOP_EVERY = 1024
"""Steps of the depth-first search between two asks of its ``stop`` (a step takes a few
microseconds in Python, so a stop is seen within milliseconds)."""

_stop: ContextVar[Stop | None] = ContextVar("summy_search_stop", default=None)


class SearchStopped(Exception):
    """The caller's ``stop`` said to give up: the search ended without an answer."""


@contextmanager
def stopping_when(stop: Stop | None) -> Iterator[None]:
    """Searches run inside this block (in this thread or task) ask ``stop`` as they go."""
    token = _stop.set(stop)
    try:
        yield
    finally:
        _stop.reset(token)


def current_stop() -> Stop | None:
    """The ``stop`` of the block the search runs in, if any."""
    return _stop.get()
