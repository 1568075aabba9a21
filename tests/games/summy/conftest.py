"""The move generator's two engines: every test that asks for ``summy_engine`` runs on both."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from meeple.games.summy.movegen import engine as movegen_engine


@pytest.fixture(params=movegen_engine.ENGINES)
def summy_engine(request: pytest.FixtureRequest) -> Iterator[str]:
    """Run the test with the pure-Python search, then with the compiled core.

    Where the compiled core is not built the second run is skipped, except in
    CI (``CI`` set), where it fails: both paths must be tested there.
    """
    name: str = request.param
    if name == "compiled" and not movegen_engine.compiled_available():
        message = "the compiled move generator is not built (pip install needs a C compiler)"
        if os.environ.get("MEEPLE_REQUIRE_COMPILED"):
            pytest.fail(message + "; CI tests both engines")
        pytest.skip(message)
    before = movegen_engine.engine()
    movegen_engine.use_engine(name)
    try:
        yield name
    finally:
        movegen_engine.use_engine(before)
