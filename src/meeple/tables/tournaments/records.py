"""Each player's past in a tournament, read from its finished games and byes.

Pairing needs, for each player: points, who they met and how often, the seats
they took in order, and their byes. The pairing order (points, then rating,
then id) settles every choice the costs leave equal.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from meeple.tables.tournaments.model import Bye, Entrant, Finish, PlayerId


@dataclass
class PlayerRecord:
    """One player's past: points, opponents met (with counts), seats in round order, byes."""

    points: int = 0
    met: Counter[PlayerId] = field(default_factory=Counter)
    seats: list[int] = field(default_factory=list)
    byes: int = 0

    @property
    def seat_balance(self) -> int:
        """Games in seat 0 less games in seat 1 (two-seat games only count)."""
        return self.seats.count(0) - self.seats.count(1)

    @property
    def seat_run(self) -> int:
        """How many games running, up to the last, were in the last game's seat."""
        run = 0
        for seat in reversed(self.seats):
            if seat != self.seats[-1]:
                break
            run += 1
        return run

    @property
    def firsts(self) -> int:
        """Games played in seat 0, the first to move."""
        return self.seats.count(0)


def player_records(
    finishes: Iterable[Finish], byes: Iterable[Bye], bye_points: int
) -> dict[PlayerId, PlayerRecord]:
    """Every player's record, games taken in round order; a bye scores ``bye_points``."""
    records: dict[PlayerId, PlayerRecord] = {}
    for finish in sorted(finishes, key=lambda finish: finish.round):
        points = finish.points()
        for seat, player in enumerate(finish.players):
            record = records.setdefault(player, PlayerRecord())
            record.points += points[player]
            record.met.update(finish.opponents(player))
            record.seats.append(seat)
    for bye in byes:
        record = records.setdefault(bye.player, PlayerRecord())
        record.points += bye_points
        record.byes += 1
    return records


def record_of(records: Mapping[PlayerId, PlayerRecord], player: PlayerId) -> PlayerRecord:
    """The record of ``player``, empty for one who has not played yet."""
    return records.get(player) or PlayerRecord()


def pairing_order(
    entrants: Sequence[Entrant], records: Mapping[PlayerId, PlayerRecord]
) -> list[Entrant]:
    """The players best first: points, then rating, then the lower id."""
    return sorted(
        entrants,
        key=lambda entrant: (-record_of(records, entrant.id).points, -entrant.rating, entrant.id),
    )
