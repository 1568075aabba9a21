"""``meeple summy moves | check | replay``, run through ``meeple.cli.main`` and a subprocess."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from meeple.cli import main
from meeple.games.base import GameRecord
from meeple.games.summy.formats import placement_from_json, position_from_json
from meeple.games.summy.movegen import legal_moves
from meeple.games.summy.notation import parse_move
from meeple.games.summy.rules import check_move

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = ROOT / "examples"
START = str(EXAMPLES / "summy-start.json")
MIDGAME = str(EXAMPLES / "summy-midgame.json")
MOVE = str(EXAMPLES / "summy-move.json")
RECORD = str(EXAMPLES / "summy-record.json")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Exit status, standard output and standard error of ``meeple ARGV``."""
    try:
        status = main(list(argv))
    except SystemExit as exc:
        status = int(exc.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


def write(tmp_path: Path, name: str, data: Any) -> str:
    """Write ``data`` (JSON, or text if a str) to a file; its path."""
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("position", [START, MIDGAME])
def test_moves_prints_every_legal_move_once_as_json(
    capsys: pytest.CaptureFixture[str], position: str
) -> None:
    status, out, err = run(capsys, "summy", "moves", position)
    assert (status, err) == (0, "")
    printed = json.loads(out)
    parsed = position_from_json(json.loads(Path(position).read_text(encoding="utf-8")))
    assert len(printed) == legal_moves(parsed).count() > 0
    placements = [placement_from_json(item) for item in printed]
    assert len(set(placements)) == len(placements)
    for item, placement in zip(printed, placements, strict=True):
        move = check_move(parsed, placement)
        assert (item["score"], item["equation"]) == (move.score, move.equation_text)


def test_moves_on_either_engine_print_the_same_moves(capsys: pytest.CaptureFixture[str]) -> None:
    from meeple.games.summy.movegen import engine as movegen_engine

    before = movegen_engine.engine()
    try:
        status, python_out, err = run(capsys, "summy", "moves", MIDGAME, "--engine", "python")
        assert (status, err) == (0, "")
        assert movegen_engine.engine() == "python"
        if movegen_engine.compiled_available():
            status, compiled_out, err = run(
                capsys, "summy", "moves", MIDGAME, "--engine", "compiled"
            )
            assert (status, err, compiled_out) == (0, "", python_out)
        status, _out, err = run(capsys, "summy", "moves", MIDGAME, "--engine", "fast")
        assert status == 2 and "invalid choice: 'fast'" in err
    finally:
        movegen_engine.use_engine(before)


def test_moves_best_n_are_the_highest_scores(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "summy", "moves", MIDGAME)
    scores = sorted((item["score"] for item in json.loads(out)), reverse=True)
    status, out, _ = run(capsys, "summy", "moves", MIDGAME, "--best", "3")
    assert status == 0
    assert [item["score"] for item in json.loads(out)] == scores[:3]


def test_moves_text_is_a_table_of_notation(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "summy", "moves", START, "--text", "--best", "2")
    lines = out.splitlines()
    assert status == 0
    assert lines[0].split() == ["score", "move", "equation"]
    assert len(lines) == 3
    for line in lines[1:]:
        score, direction, cell, run_text, equation = line.split()
        move = parse_move(f"{direction} {cell} {run_text}")
        assert (move.score, move.equation_text) == (int(score), equation)


def test_moves_text_says_when_there_is_none(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    empty_hand = write(tmp_path, "p.json", {"tiles": [{"row": 0, "col": 0, "tile": "="}],
                                             "equations": [], "hand": ["+", "x"]})  # fmt: skip
    assert run(capsys, "summy", "moves", empty_hand, "--text") == (0, "no legal placement\n", "")
    assert run(capsys, "summy", "moves", empty_hand) == (0, "[]\n", "")


GOOD = {"tiles": [{"row": 0, "col": 0, "tile": "="}], "equations": [], "hand": ["1"]}


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "is not valid JSON: Expecting property name enclosed in double quotes"),
        ({**GOOD, "hand": ["1"] * 9}, "the hand holds 9 tiles; at most 8"),
        ({**GOOD, "hand": ["?"]}, "hand[0] is an unknown tile: '?'"),
        ({**GOOD, "tiles": [{"row": 0, "col": 0, "tile": "="}, {"row": 0, "col": 0, "tile": "1"}]},
         "tiles overlap: the cell (0,0) holds = and 1"),
        ({**GOOD, "equations": [{"row": 0, "col": 0, "dir": "H", "length": 5}]},
         "equations[0] does not match the tiles: the cell (0,1) it covers is empty"),
        ({**GOOD, "game": "slide"}, "'game' is 'slide', not 'summy'"),
    ],
)  # fmt: skip
def test_moves_refuses_bad_input_with_status_2_and_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: Any, message: str
) -> None:
    path = write(tmp_path, "bad.json", content)
    status, out, err = run(capsys, "summy", "moves", path)
    assert (status, out) == (2, "")
    assert err.startswith("meeple: ")
    assert message in err
    assert err.count("\n") == 1


@pytest.mark.parametrize("engine", ["python", "compiled"])
@pytest.mark.parametrize("best", [[], ["--best", "3"]])
def test_moves_refuses_more_digits_than_the_bag_with_status_2_and_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, engine: str, best: list[str]
) -> None:
    """A stretch of 70 digits (more than the bag's 60): refused, never a traceback."""
    from meeple.games.summy.movegen import engine as movegen_engine

    if engine == "compiled" and not movegen_engine.compiled_available():
        pytest.skip("the compiled move generator is not built here")
    ones = [{"row": 0, "col": col, "tile": "1"} for col in range(1, 71)]
    data = {**GOOD, "tiles": [{"row": 0, "col": 0, "tile": "="}, *ones], "hand": ["1", "+"]}
    path = write(tmp_path, "long.json", data)
    before = movegen_engine.engine()
    try:
        status, out, err = run(capsys, "summy", "moves", path, "--engine", engine, *best)
    finally:
        movegen_engine.use_engine(before)
    assert (status, out) == (2, "")
    assert err == f"meeple: {path}: the table and the hand hold 71 digits; the bag has only 60\n"


def test_moves_refuses_a_missing_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, _, err = run(capsys, "summy", "moves", str(tmp_path / "nothing.json"))
    assert status == 2
    assert err.startswith("meeple: cannot read") and err.count("\n") == 1


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"\xff\xfe{}", "is not UTF-8 text"),
        (b"[" * 100_000, "is nested too deeply to read"),  # json.loads raises RecursionError
        (None, "Is a directory"),
    ],
)
@pytest.mark.parametrize("command", ["moves", "check", "replay"])
def test_unreadable_files_exit_2_with_one_line(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    command: str,
    content: bytes | None,
    message: str,
) -> None:
    path = tmp_path / "bad.json"
    if content is None:
        path.mkdir()
    else:
        path.write_bytes(content)
    argv = {"moves": [str(path)], "check": [START, str(path)], "replay": [str(path)]}[command]
    status, out, err = run(capsys, "summy", command, *argv)
    assert (status, out) == (2, "")
    assert err.startswith("meeple: ") and message in err and err.count("\n") == 1


def test_check_a_legal_move(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "summy", "check", START, MOVE) == (
        0,
        "legal: 1+1=2 scores 4 (H 0,-3 1+1[=]2)\n",
        "",
    )


def move_file(tmp_path: Path, **changes: Any) -> str:
    """The example move with some keys changed, written to a file."""
    data = json.loads(Path(MOVE).read_text(encoding="utf-8"))
    data.update(changes)
    return write(tmp_path, "move.json", {k: v for k, v in data.items() if v is not None})


@pytest.mark.parametrize(
    ("changes", "out"),
    [
        ({"tiles": [{"row": 0, "col": 1, "tile": "9"}]}, "illegal: tile 9 is not in your hand\n"),
        ({"tiles": [{"row": 0, "col": 1, "tile": "1"}, {"row": 1, "col": 1, "tile": "1"}]},
         "illegal: the placed tiles are not all in one row\n"),
        ({"score": 5}, "illegal: the move scores 4, not 5 as the file says\n"),
        ({"equation": "1+1=3"}, "illegal: the move makes 1+1=2, not 1+1=3 as the file says\n"),
    ],
)  # fmt: skip
def test_check_an_illegal_move_exits_1_with_the_rule(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, changes: dict[str, Any], out: str
) -> None:
    assert run(capsys, "summy", "check", START, move_file(tmp_path, **changes)) == (1, out, "")


def test_check_without_score_or_equation(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    status, out, _ = run(
        capsys, "summy", "check", START, move_file(tmp_path, score=None, equation=None)
    )
    assert (status, out) == (0, "legal: 1+1=2 scores 4 (H 0,-3 1+1[=]2)\n")


def test_check_refuses_a_bad_move_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, out, err = run(capsys, "summy", "check", START, move_file(tmp_path, dir="D"))
    assert (status, out) == (2, "")
    assert err.endswith("dir must be 'H' or 'V', not 'D'\n") and err.count("\n") == 1


def test_replay_prints_the_final_scores(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "summy", "replay", RECORD)
    assert (status, err) == (0, "")
    lines = out.splitlines()
    assert lines[0].startswith("seat 0: ") and lines[1].startswith("seat 1: ")
    assert lines[2].startswith(("winner: seat", "shared victory: seats"))


def test_replay_of_an_unfinished_game(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    record = json.loads(Path(RECORD).read_text(encoding="utf-8"))
    record["actions"] = record["actions"][:2]
    status, out, _ = run(capsys, "summy", "replay", write(tmp_path, "r.json", record))
    assert status == 0
    seat = GameRecord.from_json(record).actions[0][0]
    assert out.splitlines()[-1] == f"not over after 2 actions: seat {seat} to move"


def test_replay_names_the_first_bad_action(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record = json.loads(Path(RECORD).read_text(encoding="utf-8"))
    record["actions"][1][1] = {"type": "pass"}
    status, out, _ = run(capsys, "summy", "replay", write(tmp_path, "r.json", record))
    assert (status, out) == (
        1,
        "refused: action 1: you may pass only when the stock is empty; "
        "discard at least one tile instead\n",
    )


@pytest.mark.parametrize(
    ("record", "message"),
    [
        ({"game": "summy"}, "the record has no 'options'"),
        ({"game": "slide", "options": {}, "seed": 1, "actions": []}, "this is a 'slide' record"),
        ([], "a game record must be a JSON object"),
    ],
)
def test_replay_refuses_a_bad_record(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, record: Any, message: str
) -> None:
    status, out, err = run(capsys, "summy", "replay", write(tmp_path, "r.json", record))
    assert (status, out) == (2, "")
    assert message in err and err.count("\n") == 1


def test_the_installed_command_runs(tmp_path: Path) -> None:
    meeple = Path(sys.executable).parent / "meeple"
    done = subprocess.run(
        [str(meeple), "summy", "check", START, MOVE], capture_output=True, text=True, check=False
    )
    assert (done.returncode, done.stdout) == (0, "legal: 1+1=2 scores 4 (H 0,-3 1+1[=]2)\n")
    bad = write(tmp_path, "bad.json", "[")
    done = subprocess.run(
        [str(meeple), "summy", "moves", bad], capture_output=True, text=True, check=False
    )
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.startswith("meeple: ") and done.stderr.count("\n") == 1
