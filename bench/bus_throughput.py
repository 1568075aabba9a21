"""The Redis bus's cost per message, in one process, as a server uses it.

``--channels`` tables each have one subscriber; as many publishers each
publish ``--messages`` table events (a real one's announcement) on their own
channel, waiting for their subscriber to receive each before the next, the way
a table publishes an event after the last one.
Prints the messages per second and the process's CPU time per message
(publish and receive together: both ends live in one server).

    .venv/bin/python bench/bus_throughput.py --redis redis://127.0.0.1:6379/14
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time

from meeple.bus.redis import RedisBus
from meeple.tables.core.log import LogEvent


def event(table: int, version: int) -> dict[str, object]:
    """A Slide action's announcement, as a table publishes it (``LogEvent.row``)."""
    data = {
        "action": {"kind": "slide", "row": 2, "from": "left"},
        "by": "player",
        "events": [{"type": "slid", "seat": 1, "cards": [3, 7, -2, 11]}],
    }
    announced = LogEvent(version, "action", version % 2, data, at=1764600000.0 + version)
    return announced.row(f"t{table}")


async def run_once(url: str, channels: int, messages: int) -> tuple[float, float]:
    """One run: (messages per second, CPU microseconds per message)."""
    bus = RedisBus(url)
    subscriptions = [await bus.subscribe(f"bench:{n}") for n in range(channels)]

    async def table(n: int) -> None:
        for version in range(1, messages + 1):
            await bus.publish(f"bench:{n}", event(n, version))
            got = await subscriptions[n].get()
            assert got["version"] == version

    wall, cpu = time.perf_counter(), time.process_time()
    await asyncio.gather(*(table(n) for n in range(channels)))
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    for subscription in subscriptions:
        await subscription.close()
    await bus.close()
    total = channels * messages
    return total / wall, 1e6 * cpu / total


def main() -> None:
    """Parse the options, run, print the medians."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/14")
    parser.add_argument("--channels", type=int, default=500)
    parser.add_argument("--messages", type=int, default=40)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    rates, costs = [], []
    for _ in range(args.runs):
        rate, cost = asyncio.run(run_once(args.redis, args.channels, args.messages))
        rates.append(rate)
        costs.append(cost)
    print(
        f"{args.channels} channels x {args.messages} messages, {args.runs} runs: "
        f"median {statistics.median(rates):,.0f} messages/s, "
        f"CPU {statistics.median(costs):.0f} us a message (publish and receive)"
    )


if __name__ == "__main__":
    main()
