"""Fuzz a live server for longer than the suite does, and list every kind of failure found.

Runs the same fuzzing as ``tests/web/test_fuzz.py`` (the strategies
of ``tests/support/fuzz_strategies.py``, the runs and checks of
``tests/support/fuzz_runs.py``) with many more inputs: for
each game, WebSocket runs of valid, nearly valid and hostile actions and of
every message type with corrupted fields; hostile REST bodies; and
schemathesis over ``/openapi.json``, signed in and anonymous. Every table used
is played to the end afterwards and its events read back. The server runs in
this process on a free loopback port, on SQLite in a temporary folder unless
``--db`` is given.

    .venv/bin/python bench/fuzz_server.py --examples 2000
    .venv/bin/python bench/fuzz_server.py --examples 300 --runs ws --games slide --seed 7

Prints, for each run, how many inputs it tried and every kind of failure
(with the first input that showed it); exits 1 if anything failed. Without
``--seed`` the inputs are the same on every run (hypothesis, derandomized).
"""

from __future__ import annotations

import argparse
import logging
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT / "tests" / "support")]

from fuzz_runs import Report, fuzz_server, run_rest, run_schemathesis, run_ws  # noqa: E402
from fuzz_strategies import GAMES, WS_RUNS  # noqa: E402

RUNS = ("ws", "rest", "openapi")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--examples", type=int, default=500, help="inputs per WebSocket and REST run (500)"
    )
    parser.add_argument(
        "--per-operation",
        type=int,
        default=None,
        help="schemathesis cases per REST operation (default: examples / 20, at least 5)",
    )
    parser.add_argument("--games", nargs="+", choices=GAMES, default=list(GAMES))
    parser.add_argument("--runs", nargs="+", choices=RUNS, default=list(RUNS))
    parser.add_argument(
        "--kinds", nargs="+", choices=list(WS_RUNS), default=list(WS_RUNS), help="WebSocket runs"
    )
    parser.add_argument("--seed", type=int, default=None, help="random inputs from this seed")
    parser.add_argument("--db", default=None, help="SQLAlchemy URL (default: SQLite)")
    parser.add_argument(
        "--server-logs", action="store_true", help="show the server's error logs (tracebacks)"
    )
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    """Run the fuzzing; print the counts and failures; 1 if anything failed."""
    args = parse_args(argv)
    per_operation = args.per_operation or max(5, args.examples // 20)
    reports: list[Report] = []
    started = time.monotonic()
    overrides = {"db": args.db} if args.db else {}
    with (
        tempfile.TemporaryDirectory(prefix="meeple-fuzz-") as folder,
        fuzz_server(Path(folder), **overrides) as server,
    ):
        if not args.server_logs:  # after the start: uvicorn sets its loggers' levels then
            for name in ("meeple", "uvicorn.error", "uvicorn.access"):
                logging.getLogger(name).setLevel(logging.CRITICAL)
        plan = []
        if "ws" in args.runs:
            plan += [
                (lambda g=g, k=k: run_ws(server, g, k, args.examples, args.seed))
                for g in args.games
                for k in args.kinds
            ]
        if "rest" in args.runs:
            plan += [
                (lambda g=g: run_rest(server, g, args.examples, args.seed)) for g in args.games
            ]
        if "openapi" in args.runs:
            plan += [
                (lambda s=s: run_schemathesis(server, s, per_operation, args.seed))
                for s in (True, False)
            ]
        for run in plan:
            report = run()
            reports.append(report)
            print(report.summary(), flush=True)
    print(f"\n{'run':<34} {'inputs':>7} {'failed':>7} {'kinds':>6} {'seconds':>8}")
    for report in reports:
        print(
            f"{report.name:<34} {report.tried:>7} {report.failed:>7} "
            f"{len(report.failures):>6} {report.seconds:>8.1f}"
        )
    total = sum(r.tried for r in reports)
    failed = sum(r.failed for r in reports)
    print(f"{'total':<34} {total:>7} {failed:>7} {'':>6} {time.monotonic() - started:>8.1f}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
