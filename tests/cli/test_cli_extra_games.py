"""``meeple`` loads the games of ``MEEPLE_EXTRA_GAMES`` as the server does: a plugin's commands."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

TOY = Path(__file__).resolve().parents[1] / "toy"
MEEPLE = Path(sys.executable).with_name("meeple")


def meeple(*argv: str, extra_games: str) -> subprocess.CompletedProcess[str]:
    """``meeple argv`` in a fresh process with the toy Nim importable."""
    env = {**os.environ, "MEEPLE_EXTRA_GAMES": extra_games, "PYTHONPATH": str(TOY)}
    return subprocess.run(
        [str(MEEPLE), *argv], env=env, capture_output=True, text=True, timeout=120, check=False
    )


def test_a_plugin_games_commands_run_from_the_command_line() -> None:
    done = meeple("nim", "best", "3", "4", "5", extra_games="meeple_nim")
    assert done.returncode == 0, done.stderr
    assert done.stdout == "take 2 from pile 1\n"
    lost = meeple("nim", "best", "1", "2", "3", extra_games=" meeple_nim , ")
    assert lost.stdout.startswith("no winning take")
    listed = meeple("--help", extra_games="meeple_nim")
    assert "nim" in listed.stdout and "summy" in listed.stdout


def test_a_module_that_cannot_be_loaded_is_one_line_naming_the_setting() -> None:
    done = meeple("summy", "--help", extra_games="meeple_nim,no_such_game_module")
    assert done.returncode == 2
    assert done.stderr == (
        "meeple: cannot load the games of MEEPLE_EXTRA_GAMES (meeple_nim,no_such_game_module):"
        " No module named 'no_such_game_module'\n"
    )


def test_without_the_setting_a_plugins_commands_are_not_there() -> None:
    done = meeple("nim", "best", "3", extra_games="")
    assert done.returncode == 2 and "invalid choice: 'nim'" in done.stderr
