"""How long a replay takes to jump to the end of a long game, as the replay page does it.

Starts a server on a temporary SQLite file, plays one 6-seat Slide game
between bots to the end (the longest kind: 16 rounds of 6 reveals and 6
takes), then times ``GET /api/tables/{id}/replay?step=LAST`` (one request,
which is all the page sends for "last move") and the events request the page
makes once. Prints the median and the maximum over ``--times`` tries.

    .venv/bin/python bench/replay_jump.py --times 20
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "support"))

from server_harness import make_settings, running


def main() -> None:
    """Play the game, then time the jumps."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--times", type=int, default=20, help="tries of each request (20)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder, running(make_settings(Path(folder))) as server:
        client = server.client()
        client.guest()
        bots = {str(seat): "greedy" for seat in range(6)}
        spec = {"game": "slide", "seats": 6, "bots": bots, "sit": False}
        table_id = client.create_table(**spec)["table"]["id"]
        client.post(f"/api/tables/{table_id}/start")
        deadline = time.monotonic() + 300
        while client.get(f"/api/tables/{table_id}")["table"]["status"] != "finished":
            if time.monotonic() > deadline:
                sys.exit("the bots did not finish the game in 300 s")
            time.sleep(0.2)
        last = client.get(f"/api/tables/{table_id}/replay", step=0)["steps"]
        for name, path, params in (
            ("replay step LAST", f"/api/tables/{table_id}/replay", {"step": last}),
            ("events (once a page)", f"/api/tables/{table_id}/events", {}),
        ):
            times = []
            for _ in range(args.times):
                start = time.perf_counter()
                client.get(path, **params)
                times.append((time.perf_counter() - start) * 1000)
            print(
                f"{name:22} {last} steps: median {statistics.median(times):.1f} ms,"
                f" max {max(times):.1f} ms over {args.times}"
            )


if __name__ == "__main__":
    main()
