"""The tutorial's hint (docs/server.md, the tutorial routes): at every step of a game that
gives hints, the move it suggests does what the step asks (the engine's best move where it
is the lesson, else the step's own); a game without hints, and a step that does not exist,
are refused with their codes."""

from __future__ import annotations

import httpx
import pytest
from server_harness import LiveServer

from meeple.analysis.features import hinter_of
from meeple.games import games_with
from meeple.games.kit.tutorial import tutorial_of


@pytest.mark.parametrize("game", games_with("tutorial"))
def test_every_steps_hint_does_what_the_step_asks(server: LiveServer, game: str) -> None:
    tutorial = tutorial_of(game)
    assert tutorial is not None
    with httpx.Client(base_url=server.url, timeout=30) as http:
        if hinter_of(game) is None:
            refused = http.post(f"/api/tutorials/{game}/0/hint")
            assert (refused.status_code, refused.json()["code"]) == (404, "no_feature")
            return
        for index in range(len(tutorial.steps)):
            hint = http.post(f"/api/tutorials/{game}/{index}/hint")
            assert hint.status_code == 200, hint.text
            body = hint.json()
            verdict = http.post(f"/api/tutorials/{game}/{index}", json={"action": body["action"]})
            assert verdict.json()["ok"] is True, (index, body, verdict.json())
        missing = http.post(f"/api/tutorials/{game}/{len(tutorial.steps)}/hint")
        assert (missing.status_code, missing.json()["code"]) == (404, "no_path")
