"""A Swiss round of a game for three players or more: tables by score group.

As on Board Game Arena, the players in pairing order (points, then rating, then
id) fill the tables from the top: the leaders sit together, and so on down.
Then players are swapped between tables up to :data:`SWAP_REACH` apart while a
swap lowers the round's cost: first the pairs of players who met before (each
by the square of its meetings), then the sum over each table of the squared
differences of its players' points. Up to :data:`EXACT_FIELD` players, every
seating is then weighed and the cheapest kept (swaps alone can miss one, where
three players must move at once). Tables are listed best first (by their best
player in pairing order); seats go to those who have started least (seat 0
first), then in pairing order.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

from meeple.tables.tournaments.model import Bye, Entrant, Finish, PlayerId, table_sizes, win_points
from meeple.tables.tournaments.records import (
    PlayerRecord,
    pairing_order,
    player_records,
    record_of,
)

SWAP_REACH = 3
"""How many tables apart two players may be swapped."""

EXACT_FIELD = 12
"""Up to this many players seated, every seating is weighed and the cheapest taken."""

MAX_SWAP_PASSES = 50
"""A bound on the improving passes (each strictly lowers the cost, so it ends anyway)."""


@dataclass(frozen=True)
class TablesRound:
    """A round's tables, each in seat order, best table first, and its byes."""

    tables: tuple[tuple[PlayerId, ...], ...]
    byes: tuple[PlayerId, ...]


def seat_swiss_tables(
    present: Sequence[Entrant],
    finishes: Sequence[Finish],
    byes: Sequence[Bye],
    size: int,
    min_size: int,
    max_size: int,
) -> TablesRound:
    """The next round's tables of about ``size`` among ``present`` (withdrawn left out).

    Players who find no table (:func:`.model.table_sizes`: with ``min_size`` 3 and
    ``max_size`` 6, only when fewer than 3 are present) have a bye: those with the
    fewest byes first, the lowest-ranked of them first.
    """
    records = player_records(finishes, byes, win_points(size))
    order = [
        entrant.id for entrant in pairing_order([e for e in present if not e.withdrawn], records)
    ]
    sizes = table_sizes(len(order), size, min_size, max_size)
    seated_count = sum(sizes)
    by_bye_need = sorted(
        range(len(order)), key=lambda index: (record_of(records, order[index]).byes, -index)
    )
    out = {order[index] for index in by_bye_need[: len(order) - seated_count]}
    seated = [player for player in order if player not in out]
    tables: list[list[PlayerId]] = []
    start = 0
    for table_size in sizes:
        tables.append(seated[start : start + table_size])
        start += table_size
    _improve(tables, records)
    if len(seated) <= EXACT_FIELD:
        tables = _search(seated, tables, records)
    position = {player: index for index, player in enumerate(order)}
    tables.sort(key=lambda table: min(position[player] for player in table))
    return TablesRound(
        tuple(
            tuple(sorted(table, key=lambda p: (record_of(records, p).firsts, position[p])))
            for table in tables
        ),
        tuple(player for player in order if player in out),
    )


def table_cost(
    table: Sequence[PlayerId], records: Mapping[PlayerId, PlayerRecord]
) -> tuple[int, int]:
    """A table's cost: its pairs who met before, then its points spread.

    A pair weighs the square of its meetings before, so a pair meeting a third time
    (4) costs more than two pairs meeting a second time (1 + 1): who must meet again
    meets as few times as it can.
    """
    repeats = spread = 0
    for a, b in combinations(table, 2):
        record_a, record_b = record_of(records, a), record_of(records, b)
        repeats += record_a.met[b] ** 2
        spread += (record_a.points - record_b.points) ** 2
    return repeats, spread


def _search(
    seated: Sequence[PlayerId],
    start: list[list[PlayerId]],
    records: Mapping[PlayerId, PlayerRecord],
) -> list[list[PlayerId]]:
    """The cheapest seating of ``seated`` at tables of the sizes of ``start``, searched whole.

    ``start`` is the seating to beat: only a strictly cheaper one replaces it.
    """
    best_tables = [list(table) for table in start]
    best = _total([table_cost(table, records) for table in start])
    sizes_left = Counter(len(table) for table in start)
    chosen: list[list[PlayerId]] = []

    def extend(remaining: list[PlayerId], cost: tuple[int, int]) -> None:
        nonlocal best, best_tables
        if not remaining:
            best, best_tables = cost, [list(table) for table in chosen]
            return
        first, rest = remaining[0], remaining[1:]
        for size in sorted(sizes_left, reverse=True):
            if not sizes_left[size]:
                continue
            sizes_left[size] -= 1
            for others in combinations(rest, size - 1):
                table = [first, *others]
                added = table_cost(table, records)
                total = (cost[0] + added[0], cost[1] + added[1])
                if total < best:
                    chosen.append(table)
                    extend([player for player in rest if player not in others], total)
                    chosen.pop()
            sizes_left[size] += 1

    extend(list(seated), (0, 0))
    return best_tables


def _total(costs: Sequence[tuple[int, int]]) -> tuple[int, int]:
    """The sum of table costs, tier by tier."""
    return (sum(cost[0] for cost in costs), sum(cost[1] for cost in costs))


def _improve(tables: list[list[PlayerId]], records: Mapping[PlayerId, PlayerRecord]) -> None:
    """Swap players between nearby tables while a swap lowers the total cost."""
    costs = [table_cost(table, records) for table in tables]
    for _ in range(MAX_SWAP_PASSES):
        improved = False
        for t in range(len(tables)):
            for u in range(t + 1, min(len(tables), t + 1 + SWAP_REACH)):
                for i in range(len(tables[t])):
                    for j in range(len(tables[u])):
                        new_t = [*tables[t][:i], tables[u][j], *tables[t][i + 1 :]]
                        new_u = [*tables[u][:j], tables[t][i], *tables[u][j + 1 :]]
                        cost_t, cost_u = table_cost(new_t, records), table_cost(new_u, records)
                        before = (costs[t][0] + costs[u][0], costs[t][1] + costs[u][1])
                        after = (cost_t[0] + cost_u[0], cost_t[1] + cost_u[1])
                        if after < before:
                            tables[t], tables[u] = new_t, new_u
                            costs[t], costs[u] = cost_t, cost_u
                            improved = True
        if not improved:
            return
