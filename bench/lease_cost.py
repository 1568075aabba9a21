"""What keeping leases costs Redis: one lease per table, or one per shard of tables.

A server renews its leases four times per lease (``MEEPLE_LEASE_S``, 2 s) with
the keeper's own script (:data:`meeple.tables.cluster.lease_keeper.RENEW_MANY`, in calls
of :data:`~meeple.tables.cluster.lease_keeper.RENEW_CHUNK` keys), and a surviving server
asks for the dead one's leases with :data:`~meeple.tables.cluster.lease_keeper.TAKE_UNOWNED`.
This times both, per renewal round, for ``--tables`` per-table leases and for
``--shards`` shard leases (what the round would be if tables were leased by
shard), and prints the share of one Redis core that renewing takes.

    .venv/bin/python bench/lease_cost.py --redis redis://127.0.0.1:6379/14
"""

from __future__ import annotations

import argparse
import statistics
import time

import redis

from meeple.tables.cluster.lease_keeper import RENEW_CHUNK, RENEW_MANY, TAKE_UNOWNED

RENEWALS_PER_SECOND = 2.0
"""Four renewals per 2 s lease."""


def round_ms(client: redis.Redis, script: str, keys: list[str], owner: str) -> float:
    """Milliseconds of one round of ``script`` over ``keys``, in calls of RENEW_CHUNK."""
    started = time.perf_counter()
    for start in range(0, len(keys), RENEW_CHUNK):
        chunk = keys[start : start + RENEW_CHUNK]
        client.eval(script, len(chunk), *chunk, owner, 2000)
    return (time.perf_counter() - started) * 1000


def measure(client: redis.Redis, count: int, label: str, rounds: int) -> None:
    """Print the median renewal and take-over round for ``count`` leases."""
    keys = [f"bench:lease:{label}:{n}" for n in range(count)]
    client.delete(*keys)
    round_ms(client, RENEW_MANY, keys, "a")  # take them all first, as an owner would
    renew = statistics.median(round_ms(client, RENEW_MANY, keys, "a") for _ in range(rounds))
    take = statistics.median(round_ms(client, TAKE_UNOWNED, keys, "b") for _ in range(rounds))
    share = renew * RENEWALS_PER_SECOND / 1000
    print(
        f"{label:>6} {count:>6} leases: renew round {renew:6.2f} ms "
        f"({share:.2%} of a core at {RENEWALS_PER_SECOND:g} rounds/s), "
        f"a survivor's look {take:6.2f} ms"
    )
    client.delete(*keys)


def main() -> None:
    """Time both lease layouts against the Redis at ``--redis``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/14")
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--shards", type=int, default=256)
    parser.add_argument("--rounds", type=int, default=50)
    args = parser.parse_args()
    client = redis.Redis.from_url(args.redis)
    measure(client, args.tables, "table", args.rounds)
    measure(client, args.shards, "shard", args.rounds)


if __name__ == "__main__":
    main()
