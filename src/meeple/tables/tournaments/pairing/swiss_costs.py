"""What a Swiss board or bye costs, tier by tier, and who takes seat 0 at a board.

A round's cost is the sum of its boards' and its bye's costs, compared tier by
tier (a lower tier only settles what every higher one leaves equal):

1. ``repeat_bye``: the bye's player has had more byes than the fewest any player
   present has had (their difference);
2. ``rematches``: how often the board's players met before;
3. ``bye_rank``: how many present players rank below the bye's player in the
   pairing order (so the bye goes to the lowest-ranked player eligible);
4. ``points``: the square of the board's difference in points;
5. ``seats``: the least, over the two ways to seat the board, of the players' seat
   penalties (:func:`seat_penalty`);
6. ``spread``: within one score group of ``g`` players, how far the board's two
   places in the group (by rating, then id) are from ``g // 2`` apart, so the top
   half of a group meets its bottom half.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from meeple.tables.tournaments.model import Entrant, PlayerId
from meeple.tables.tournaments.records import PlayerRecord, record_of

Cost = tuple[int, int, int, int, int, int]
"""A cost by tier: repeat_bye, rematches, bye_rank, points, seats, spread."""

TIERS = ("repeat_bye", "rematches", "bye_rank", "points", "seats", "spread")


def seat_penalty(record: PlayerRecord, seat: int) -> int:
    """What taking ``seat`` (0 or 1) costs a player with this past.

    4 for each game the seat-0-less-seat-1 balance would pass beyond one either
    way, 4 for each game a run of the same seat would pass two, and 1 for taking
    the same seat as last time.
    """
    balance = record.seat_balance + (1 if seat == 0 else -1)
    same_as_last = bool(record.seats) and record.seats[-1] == seat
    run = record.seat_run + 1 if same_as_last else 1
    return 4 * max(0, abs(balance) - 1) + 4 * max(0, run - 2) + (1 if same_as_last else 0)


def add_costs(costs: Sequence[Cost]) -> Cost:
    """The tier-by-tier sum of ``costs``."""
    total = [0] * len(TIERS)
    for cost in costs:
        for tier, value in enumerate(cost):
            total[tier] += value
    return (total[0], total[1], total[2], total[3], total[4], total[5])


class SwissCosts:
    """The costs of the boards and byes among the players present, in pairing order."""

    def __init__(self, order: Sequence[Entrant], records: Mapping[PlayerId, PlayerRecord]) -> None:
        self.records = {entrant.id: record_of(records, entrant.id) for entrant in order}
        self.position = {entrant.id: index for index, entrant in enumerate(order)}
        self.fewest_byes = min((record.byes for record in self.records.values()), default=0)
        self.group_place: dict[PlayerId, int] = {}
        self.group_size: dict[PlayerId, int] = {}
        groups: dict[int, list[PlayerId]] = {}
        for entrant in order:
            groups.setdefault(self.records[entrant.id].points, []).append(entrant.id)
        for members in groups.values():
            for place, player in enumerate(members):
                self.group_place[player] = place
                self.group_size[player] = len(members)

    def board(self, a: PlayerId, b: PlayerId) -> Cost:
        """The cost of ``a`` and ``b`` playing each other this round."""
        record_a, record_b = self.records[a], self.records[b]
        seats = min(
            seat_penalty(record_a, 0) + seat_penalty(record_b, 1),
            seat_penalty(record_a, 1) + seat_penalty(record_b, 0),
        )
        spread = 0
        if record_a.points == record_b.points:
            apart = abs(self.group_place[a] - self.group_place[b])
            spread = abs(apart - self.group_size[a] // 2)
        return (0, record_a.met[b], 0, (record_a.points - record_b.points) ** 2, seats, spread)

    def bye(self, player: PlayerId) -> Cost:
        """The cost of giving ``player`` the bye."""
        below = len(self.position) - 1 - self.position[player]
        return (self.records[player].byes - self.fewest_byes, 0, below, 0, 0, 0)

    def seated(self, a: PlayerId, b: PlayerId, board: int) -> tuple[PlayerId, PlayerId]:
        """The board's players in seat order, seat 0 first.

        The way with the lower sum of seat penalties; if both are equal, the
        higher-ranked player takes seat 0 on even boards (0, 2, ...) and seat 1
        on odd ones, so neither half of the field always starts.
        """
        high, low = (a, b) if self.position[a] < self.position[b] else (b, a)
        high_first = seat_penalty(self.records[high], 0) + seat_penalty(self.records[low], 1)
        low_first = seat_penalty(self.records[high], 1) + seat_penalty(self.records[low], 0)
        if high_first != low_first:
            return (high, low) if high_first < low_first else (low, high)
        return (high, low) if board % 2 == 0 else (low, high)
