"""POST /api/analysis/summy: any position in, every legal move out, ranked; bounded and limited."""

from __future__ import annotations

import json
from pathlib import Path

from server_harness import LiveServer, make_settings, running

from meeple.games.summy.formats import position_from_json
from meeple.games.summy.movegen import legal_moves

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def midgame() -> dict[str, object]:
    """The example mid-game position (docs/summy-position-format.md)."""
    data: dict[str, object] = json.loads((EXAMPLES / "summy-midgame.json").read_text())
    return data


def test_every_move_ranked_by_score(server: LiveServer) -> None:
    anyone = server.client("anyone")  # no sign-in needed
    position = midgame()
    answer = anyone.post("/api/analysis/summy?limit=500", position)
    every = sorted(legal_moves(position_from_json(position)), key=lambda m: -m.score)
    assert answer["count"] == len(every) > 5
    assert [m["score"] for m in answer["moves"]] == [m.score for m in every]
    assert [m["equation"] for m in answer["moves"]] == [m.equation_text for m in every]
    top = anyone.post("/api/analysis/summy?limit=3", position)
    assert top["count"] == len(every) and top["moves"] == answer["moves"][:3]
    # A hand with nothing to place: no move, and it says so.
    empty = anyone.post("/api/analysis/summy", {**position, "hand": ["+", "-"]})
    assert empty == {"count": 0, "moves": []}


def test_positions_that_cannot_happen_are_refused_naming_why(server: LiveServer) -> None:
    anyone = server.client("anyone")
    position = midgame()
    too_many = {**position, "hand": ["=", "=", "=", "=", "=", "=", "=", "="]}
    tiles = [{"row": 5, "col": c, "tile": "="} for c in range(10)]
    refused = anyone.post(
        "/api/analysis/summy", {**too_many, "tiles": position["tiles"] + tiles}, expect=422
    )
    assert "the bag holds 14 of '='" in refused["detail"]
    refused = anyone.post("/api/analysis/summy", {**position, "hand": ["7"] * 9}, expect=422)
    assert "at most 8" in refused["detail"]
    refused = anyone.post("/api/analysis/summy", {"tiles": "x"}, expect=422)
    assert "not valid" in refused["detail"]
    anyone.post("/api/analysis/summy?limit=501", position, expect=422)
    anyone.post("/api/analysis/summy", [1, 2], expect=422)


def test_analysis_is_rate_limited_per_address(tmp_path: Path) -> None:
    with running(make_settings(tmp_path, limit_analysis="3/minute")) as server:
        anyone = server.client("anyone")
        for _ in range(3):
            anyone.post("/api/analysis/summy?limit=1", midgame())
        refused = anyone.post("/api/analysis/summy?limit=1", midgame(), expect=429)
        assert refused["code"] == "rate_limited"
