"""Fuzzing the live server (issue 10): WebSocket messages, game actions, the REST routes.

Each test is one run of a few dozen inputs planned by hypothesis (fixed
draws, so CI is reproducible) against one server for the module: valid,
nearly valid and hostile actions of both games, every message type with
valid and corrupted fields, hostile REST bodies, and schemathesis over
``/openapi.json`` signed in and anonymous. A run tries every input and
fails at the end with the list of what went wrong; each prints how many
inputs it tried (``pytest -s``) and records it as the ``inputs`` property.
Afterwards every table used must still play to the end, with its events
readable. ``bench/fuzz_server.py`` runs the same with many more inputs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fuzz_runs import Report, fuzz_server, run_rest, run_schemathesis, run_ws
from fuzz_strategies import GAMES, WS_RUNS
from server_harness import LiveServer

WS_EXAMPLES = 100
"""Inputs per WebSocket run in the suite (8 runs: 2 games x 4 kinds)."""

REST_EXAMPLES = 150
"""Inputs per hostile REST run in the suite (one per game)."""

PER_OPERATION = 8
"""Schemathesis cases per REST operation in the suite (24 operations, twice)."""


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """The module's live server is a fuzzing one: its rate limits are out of the way."""
    with fuzz_server(tmp_path_factory.mktemp("fuzz")) as server:
        yield server


def check(report: Report, record_property: Callable[[str, Any], None]) -> None:
    """Print the run's counts, record them, and fail with every kind of failure found."""
    print(report.summary())
    record_property("inputs", report.tried)
    record_property("failed", report.failed)
    assert report.tried > 0, report.summary()
    assert not report.failures, report.summary()


@pytest.mark.parametrize("kind", list(WS_RUNS))
@pytest.mark.parametrize("game", GAMES)
def test_websocket_messages_get_an_answer_and_the_table_plays_on(
    live: LiveServer,
    record_property: Callable[[str, Any], None],
    game: str,
    kind: str,
) -> None:
    """Every message is answered (errors for invalid ones), the socket stays open, strict JSON."""
    check(run_ws(live, game, kind, WS_EXAMPLES), record_property)


@pytest.mark.parametrize("game", GAMES)
def test_hostile_rest_bodies_get_a_4xx_and_the_connection_stays(
    live: LiveServer, record_property: Callable[[str, Any], None], game: str
) -> None:
    """Hostile and nearly valid bodies get a JSON 4xx; odd queries and paths never a 5xx."""
    check(run_rest(live, game, REST_EXAMPLES), record_property)


@pytest.mark.parametrize("signed_in", [True, False], ids=["guest", "anonymous"])
def test_schemathesis_over_the_openapi_schema_finds_no_5xx(
    live: LiveServer, record_property: Callable[[str, Any], None], signed_in: bool
) -> None:
    """Schemathesis cases of every ``/api`` operation get a 2xx/4xx JSON answer, never a 5xx."""
    pytest.importorskip("schemathesis")
    check(run_schemathesis(live, signed_in, PER_OPERATION), record_property)
