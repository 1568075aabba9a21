"""``bench/tournament_pairing.py`` runs, on a small field, what it times on a large one."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[3] / "bench" / "tournament_pairing.py"


def test_the_pairing_bench_runs_on_a_small_field(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = importlib.util.spec_from_file_location("tournament_pairing", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    args = ["tournament_pairing", "--players", "30", "--rounds", "3", "--passes", "2"]
    monkeypatch.setattr(sys, "argv", args)
    module.main()
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in lines] == [
        "Swiss, 30 players, rounds 2-3",
        "Slide Swiss at tables of 4, 30 players, rounds 2-3",
        "arena pass, 30 waiting, two seats",
        "arena pass, 30 waiting, tables of 4",
    ]
