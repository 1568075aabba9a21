"""``meeple slide replay`` and ``meeple slide score``, through ``meeple.cli.main``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import meeple.cli
from meeple.cli import main
from meeple.games.base import JSON, Result
from meeple.games.slide import GAME
from meeple.games.slide.cli import format_result

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


@pytest.fixture(autouse=True)
def only_slide_commands(monkeypatch: pytest.MonkeyPatch) -> None:
    """Register only the slide commands, so these tests do not depend on other groups."""
    monkeypatch.setattr(meeple.cli, "command_modules", lambda: ["meeple.games.slide.cli"])


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """Exit status, standard output and standard error of ``meeple argv``."""
    try:
        status = main(argv)
    except SystemExit as exc:
        status = int(exc.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


def write(tmp_path: Path, data: object, name: str = "in.json") -> str:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize(
    ("grid", "expected"),
    [
        (
            [[5, 5, 5, 2], [1, 3, 1, 3], [3, 1, 3, 1], [1, 3, 1, 3]],
            {"points": 26, "cards_left": 13,
             "grid": [[None, None, None, 2], [1, 3, 1, 3], [3, 1, 3, 1], [1, 3, 1, 3]]},
        ),
        (
            [[4, 4, 9, 9], [7, 7, 2, 2], [1, 6, 6, 3], [1, 8, 8, 3]],
            {"points": 0, "cards_left": 0, "grid": [[None] * 4] * 4},
        ),
    ],
)  # fmt: skip
def test_score_prints_points_and_cards_left_as_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], grid: object, expected: object
) -> None:
    status, out, err = run(["slide", "score", write(tmp_path, grid)], capsys)
    assert (status, err) == (0, "")
    assert json.loads(out) == expected


def test_score_reads_the_example_grid(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _err = run(["slide", "score", str(EXAMPLES / "slide-grid.json")], capsys)
    assert status == 0 and json.loads(out)["points"] == 26


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("[[1, 2", "is not valid JSON"),
        ({"grid": []}, "a grid must be a JSON list of 4 rows"),
        ([[1, 2, 3, 4]] * 3, "a grid must be a JSON list of 4 rows"),
        ([[1, 2, 3, 4]] * 3 + [[1, 2, 3]], "row 3 must be a list of 4 card values"),
        ([[1, 2, 3, 4]] * 3 + [[1, 2, 3, 11]], "the card at (3,3) must be a value from 1 to 10"),
        ([[0, 2, 3, 4]] + [[1, 2, 3, 4]] * 3, "the card at (0,0) must be a value from 1 to 10"),
        ([[True, 2, 3, 4]] + [[1, 2, 3, 4]] * 3, "not True"),
    ],
)
def test_score_refuses_bad_grids_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], data: object, message: str
) -> None:
    status, out, err = run(["slide", "score", write(tmp_path, data)], capsys)
    assert (status, out) == (2, "")
    assert message in err and err.count("\n") == 1 and err.startswith("meeple: ")


def test_score_of_a_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, _out, err = run(["slide", "score", str(tmp_path / "nope.json")], capsys)
    assert status == 2 and "cannot read" in err


def test_replay_prints_final_grids_and_ranking(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(["slide", "replay", str(EXAMPLES / "slide-game.json")], capsys)
    assert (status, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "final grids after cancelling (. = cancelled):"
    assert lines[1] == "seat 0: 85 points, 14 cards left"
    assert lines[2:6] == ["  10  3  8  1", "   7  1  6  3", "  10  7 10  6", "   6  .  .  7"]
    assert lines[-4:] == [
        "ranking:",
        "  1. seat 2: 60 points, 11 cards left",
        "  2. seat 1: 61 points, 14 cards left",
        "  3. seat 0: 85 points, 14 cards left",
    ]


def test_replay_json_and_match(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _err = run(
        ["slide", "replay", "--json", str(EXAMPLES / "slide-match.json")], capsys
    )
    result = json.loads(out)
    assert status == 0
    assert result["scores"] == [92, 148] and result["ranks"] == [1, 2]
    assert result["details"]["deals"] == 2
    status, out, _err = run(["slide", "replay", str(EXAMPLES / "slide-match.json")], capsys)
    assert "running total 92 (48 points, 9 cards left in the last deal)" in out
    assert out.splitlines()[-1] == "deals played: 2"


def _example_record() -> dict[str, object]:
    data: dict[str, object] = json.loads((EXAMPLES / "slide-game.json").read_text())
    return data


@pytest.mark.parametrize(
    ("change", "status", "message"),
    [
        # Action 3 (the first take of round 1) made malformed.
        (lambda r: r["actions"].__setitem__(3, [r["actions"][3][0], {"type": "take", "value": 1,
                                                                    "side": "up"}]),
         1, "action 3: the side must be one of left, right, top, bottom"),
        (lambda r: r["actions"].__setitem__(1, [r["actions"][0][0], r["actions"][1][1]]),
         1, "action 1: seat"),
        (lambda r: r["actions"].pop(), 1, "the record stops before the end of the game"),
        (lambda r: r["actions"].append([0, {"type": "reveal", "cell": [0, 0]}]),
         1, "action 96: the game is already over"),
        (lambda r: r["actions"].__setitem__(5, "oops"), 1, "action 5: each action must be a pair"),
        (lambda r: r.__setitem__("game", "summy"), 2, "this is a 'summy' record, not 'slide'"),
        (lambda r: r["options"].__setitem__("players", 8), 2, "bad options"),
        (lambda r: r.pop("seed"), 2, "the record has no 'seed'"),
    ],
)  # fmt: skip
def test_replay_names_the_first_bad_action(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    change: object,
    status: int,
    message: str,
) -> None:
    record = _example_record()
    change(record)  # type: ignore[operator]
    got, out, err = run(["slide", "replay", write(tmp_path, record)], capsys)
    assert (got, out) == (status, "")
    assert message in err and err.count("\n") == 1


def test_replay_refuses_a_take_into_the_hole(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    reveals: list[tuple[int, JSON]] = [
        (0, {"type": "reveal", "cell": [0, 0]}),
        (1, {"type": "reveal", "cell": [0, 0]}),
    ]
    state = GAME.setup({"players": 2}, 5)
    for seat, action in reveals:
        state, _events = GAME.apply(state, seat, GAME.parse_action(action))
    take = {"type": "take", "value": state.pool[0], "side": "left"}
    record = {
        "game": "slide",
        "options": {"players": 2},
        "seed": 5,
        "actions": [*map(list, reveals), [state.first, take]],
    }
    status, out, err = run(["slide", "replay", write(tmp_path, record)], capsys)
    assert (status, out) == (1, "")
    assert err == (
        "meeple: action 2: you cannot slide a card straight into the hole: "
        "the hole is in column 0, so the card cannot enter from the left\n"
    )


def test_ranking_lists_shared_ranks_in_seat_order() -> None:
    empty: list[list[int | None]] = [[None] * 4] * 4
    result = Result(
        scores=(12, 12, 9),
        ranks=(2, 2, 1),
        reason="16 rounds played",
        details={"cards_left": [3, 3, 2], "deal_scores": [[12, 12, 9]], "final_grids": [empty] * 3},
    )
    assert format_result(result, match=False).splitlines()[-4:] == [
        "ranking:",
        "  1. seat 2: 9 points, 2 cards left",
        "  2. seat 0: 12 points, 3 cards left",
        "  2. seat 1: 12 points, 3 cards left",
    ]
