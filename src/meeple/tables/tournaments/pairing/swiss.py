"""A Swiss round of a two-player game: boards by a maximum-weight matching, and a bye.

The players present are the nodes of a graph and every possible board an edge,
weighted so that networkx's ``max_weight_matching`` (with ``maxcardinality``)
finds the round of least cost (:mod:`.swiss_costs`). An odd field adds a "bye"
node that any player may be matched with. Up to :data:`FULL_FIELD` players
every board is weighed against every other, so the round is the cheapest there
is; a larger field of ``n`` nodes is cut, in pairing order, into
``ceil(n / BLOCK)`` blocks of about equal even size, each matched alone: a
matching's time grows with the cube of its nodes, and players far apart in the
standings do not meet in a good round anyway. A cut moves up to
:data:`CUT_REACH` places from the even split to fall where the points change,
the nearest such place.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise

from meeple.tables.tournaments.model import Bye, Entrant, Finish, PlayerId, win_points
from meeple.tables.tournaments.pairing.matching import cheapest_pairs
from meeple.tables.tournaments.pairing.swiss_costs import Cost, SwissCosts, add_costs
from meeple.tables.tournaments.records import (
    PlayerRecord,
    pairing_order,
    player_records,
    record_of,
)

FULL_FIELD = 64
"""Up to this many players present, the round is matched whole."""

BLOCK = 40
"""A larger field is cut into ``ceil(n / BLOCK)`` blocks of about equal size."""

CUT_REACH = 8
"""How far from an even split a cut moves to fall where the points change."""


@dataclass(frozen=True)
class SwissRound:
    """A round's boards, each in seat order (seat 0 first), best board first, and its bye."""

    boards: tuple[tuple[PlayerId, PlayerId], ...]
    bye: PlayerId | None


def pair_swiss(
    present: Sequence[Entrant],
    finishes: Sequence[Finish],
    byes: Sequence[Bye],
    bye_points: int = win_points(2),
) -> SwissRound:
    """The next round among ``present`` (withdrawn players left out), given the games so far."""
    order, records = _pairing_field(present, finishes, byes, bye_points)
    costs = SwissCosts(order, records)
    nodes: list[PlayerId | None] = [entrant.id for entrant in order]
    if len(nodes) % 2:
        nodes.insert(_bye_place(nodes, costs) + 1, None)
    pairs: list[tuple[PlayerId, PlayerId | None]] = []
    for block in _blocks(nodes, records):
        pairs.extend(_match(block, costs))
    bye = next((player for player, other in pairs if other is None), None)
    boards = sorted(
        ((player, other) for player, other in pairs if other is not None),
        key=lambda board: min(costs.position[board[0]], costs.position[board[1]]),
    )
    return SwissRound(tuple(costs.seated(a, b, index) for index, (a, b) in enumerate(boards)), bye)


def round_cost(
    round_: SwissRound,
    present: Sequence[Entrant],
    finishes: Sequence[Finish],
    byes: Sequence[Bye],
    bye_points: int = win_points(2),
) -> Cost:
    """The cost of ``round_`` by tier (:mod:`.swiss_costs`), to compare rounds."""
    costs = SwissCosts(*_pairing_field(present, finishes, byes, bye_points))
    parts = [costs.board(a, b) for a, b in round_.boards]
    if round_.bye is not None:
        parts.append(costs.bye(round_.bye))
    return add_costs(parts)


def _pairing_field(
    present: Sequence[Entrant], finishes: Sequence[Finish], byes: Sequence[Bye], bye_points: int
) -> tuple[list[Entrant], dict[PlayerId, PlayerRecord]]:
    """The players to pair (present, not withdrawn) in pairing order, and every record."""
    records = player_records(finishes, byes, bye_points)
    order = pairing_order([entrant for entrant in present if not entrant.withdrawn], records)
    return order, records


def _bye_place(nodes: Sequence[PlayerId | None], costs: SwissCosts) -> int:
    """Where the lowest-ranked player with the fewest byes stands in ``nodes``."""
    eligible = [
        index
        for index, player in enumerate(nodes)
        if player is not None and costs.records[player].byes == costs.fewest_byes
    ]
    return eligible[-1]


def _blocks(
    nodes: list[PlayerId | None], records: Mapping[PlayerId, PlayerRecord]
) -> list[list[PlayerId | None]]:
    """``nodes`` whole, or cut into blocks of an even size for a large field."""
    if len(nodes) <= FULL_FIELD:
        return [nodes]
    points: list[int] = []
    for player in nodes:
        if player is not None:
            points.append(record_of(records, player).points)
        else:
            points.append(points[-1] if points else 0)
    count = -(-len(nodes) // BLOCK)
    cuts = [0]
    for index in range(1, count):
        even = 2 * round(index * len(nodes) / count / 2)
        places = range(max(cuts[-1] + 2, even - CUT_REACH), even + CUT_REACH + 1, 2)
        changes = [place for place in places if points[place - 1] != points[place]]
        cut = min(changes, key=lambda place: abs(place - even), default=even)
        # The bye node follows its player: a cut between them would part them.
        cuts.append(cut + 2 if nodes[cut] is None else cut)
    cuts.append(len(nodes))
    return [nodes[start:end] for start, end in pairwise(cuts)]


def _match(
    block: Sequence[PlayerId | None], costs: SwissCosts
) -> list[tuple[PlayerId, PlayerId | None]]:
    """The least-cost pairs of ``block`` (a ``None`` in it, and as a partner, is the bye)."""
    players = [player for player in block if player is not None]
    bye_node = len(players)

    def cost(i: int, j: int) -> Cost:
        if j == bye_node:
            return costs.bye(players[i])
        return costs.board(players[i], players[j])

    return [
        (players[i], None if j == bye_node else players[j])
        for i, j in cheapest_pairs(len(block), cost)
    ]
