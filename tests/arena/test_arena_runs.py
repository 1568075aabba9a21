"""Short arena runs: same results with one or two processes, JSON out, records replay."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from meeple.arena import run_arena
from meeple.arena.report import summarize
from meeple.cli import main
from meeple.games import get_game
from meeple.games.base import GameRecord, replay


@pytest.mark.parametrize(
    ("game", "lineup", "players"),
    [("slide", ("greedy", "random"), 2), ("summy", ("greedy", "random"), 2)],
)
def test_one_or_two_processes_play_the_same_games(
    game: str, lineup: tuple[str, ...], players: int
) -> None:
    single = run_arena(game, lineup, players, 4, 30, 1.0, jobs=1)
    double = run_arena(game, lineup, players, 4, 30, 1.0, jobs=2)
    assert [o.record for o in single.outcomes] == [o.record for o in double.outcomes]
    assert [o.spec.index for o in double.outcomes] == [0, 1, 2, 3]


def test_wins_add_up_and_shared_wins_count_as_fractions() -> None:
    arena = run_arena("slide", ("greedy", "random"), 2, 6, 1, 1.0, jobs=1)
    by_bot = {s.bot: s for s in arena.summaries}
    assert by_bot["greedy"].games == by_bot["random"].games == 6
    assert by_bot["greedy"].wins + by_bot["random"].wins == pytest.approx(6)
    for s in arena.summaries:
        assert s.win_low <= s.win_rate <= s.win_high
        assert s.moves > 0 and 0 < s.mean_move_s <= s.max_move_s
        assert s.p95_move_s <= s.max_move_s


def test_summary_counts_a_tie_as_half_a_win_each() -> None:
    arena = run_arena("slide", ("greedy", "greedy"), 2, 2, 1, 1.0, jobs=1)
    outcome = arena.outcomes[0]
    tied = outcome.result.__class__(
        scores=(10, 10), ranks=(1, 1), reason="tie", details=outcome.result.details
    )
    fake = type(outcome)(outcome.spec, outcome.record, tied, outcome.move_times)
    (summary,) = summarize([fake])
    assert (summary.games, summary.wins, summary.shared, summary.outright) == (2, 1.0, 2, 0)


def test_solo_summy_reports_scores(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "solo.json"
    status = main(
        [
            "arena",
            "summy",
            "--bots",
            "greedy,random",
            "--players",
            "1",
            "--games",
            "2",
            "--no-progress",
            "--out",
            str(out),
        ]
    )
    assert status == 0
    printed = capsys.readouterr().out
    assert "mean score" in printed and "win rate" not in printed
    data = json.loads(out.read_text())
    assert data["arena"]["players"] == 1
    assert data["bots"]["greedy"]["mean_score"] == data["games"][0]["result"]["scores"][0]


def test_cli_writes_every_record_and_they_replay(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "results.json"
    status = main(
        [
            "arena",
            "slide",
            "--bots",
            "expert,greedy",
            "--games",
            "2",
            "--jobs",
            "2",
            "--seed",
            "7",
            "--budget",
            "0.02",
            "--out",
            str(out),
        ]
    )
    assert status == 0
    printed = capsys.readouterr().out
    assert "expert" in printed and "win rate" in printed
    data = json.loads(out.read_text())
    assert data["arena"]["lineup"] == ["expert", "greedy"]
    assert set(data["bots"]) == {"expert", "greedy"}
    assert [g["seats"] for g in data["games"]] == [["expert", "greedy"], ["greedy", "expert"]]
    game = get_game("slide")
    for played in data["games"]:
        record = GameRecord.from_json(played["record"])
        assert record.seed == 7
        final = replay(game, record)[-1]
        result = game.result(final)
        assert result is not None and result.to_json() == played["result"]
        assert len(played["move_times_s"]) == 2


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["arena", "slide", "--bots", "expert,wizard"], "unknown bot level 'wizard'"),
        (["arena", "slide", "--bots", "greedy", "--players", "1"], "2 to 6 players, not 1"),
        (["arena", "slide", "--bots", "greedy,greedy", "--players", "3"], "one bot per seat"),
        (["arena", "slide", "--bots", "greedy,greedy", "--games", "0"], "--games"),
        (["arena", "slide", "--bots", "greedy,greedy", "--budget", "0"], "--budget"),
    ],
)
def test_bad_arguments_exit_2_with_one_line(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
