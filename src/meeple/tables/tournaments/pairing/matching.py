"""The cheapest way to pair up a few nodes, costs compared tier by tier, by networkx.

A cost is a tuple of non-negative integers, the first tier the most important:
a lower tier only settles what every higher one leaves equal. The tiers are
folded into one weight per edge (each tier's unit larger than any sum of the
tiers below it) and networkx's ``max_weight_matching`` with ``maxcardinality``
pairs as many nodes as can be, at the least total cost among those pairings.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import networkx as nx

TieredCost = tuple[int, ...]
"""Integers by tier, the most important first."""


def tier_units(costs: Sequence[TieredCost], parts: int) -> list[int]:
    """A weight per tier so that one unit of a tier outweighs any sum of lower tiers.

    ``parts`` is how many costs one pairing adds up (its pairs).

    >>> tier_units([(1, 3, 0), (0, 2, 5)], 2)
    [77, 11, 1]
    """
    tiers = len(costs[0]) if costs else 0
    units = [1] * tiers
    for tier in range(tiers - 2, -1, -1):
        largest = max(cost[tier + 1] for cost in costs)
        units[tier] = units[tier + 1] * (largest * parts + 1)
    return units


def cheapest_pairs(count: int, cost: Callable[[int, int], TieredCost]) -> list[tuple[int, int]]:
    """Pairs of the nodes ``0 .. count - 1``, as many as can be, at the least total ``cost``.

    ``cost(i, j)`` (``i < j``) is the cost of pairing ``i`` with ``j``. Each pair
    comes lower node first, pairs in the order of their lower node.

    >>> cheapest_pairs(4, lambda i, j: (abs(i - j),))
    [(0, 1), (2, 3)]
    """
    edges = [(i, j, cost(i, j)) for i in range(count) for j in range(i + 1, count)]
    if not edges:
        return []
    units = tier_units([edge_cost for _i, _j, edge_cost in edges], (count + 1) // 2)
    values = [sum(v * u for v, u in zip(c, units, strict=True)) for _i, _j, c in edges]
    top = max(values) + 1
    graph: nx.Graph[int] = nx.Graph()
    graph.add_nodes_from(range(count))
    for (i, j, _cost), value in zip(edges, values, strict=True):
        graph.add_edge(i, j, weight=top - value)
    return sorted(
        (min(i, j), max(i, j)) for i, j in nx.max_weight_matching(graph, maxcardinality=True)
    )
