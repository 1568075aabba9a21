"""An arena: points with streaks, and the pass that pairs the waiting players.

Points are by finishing place (:func:`.model.place_points`: at two seats 2 a win,
1 a draw, 0 a loss), doubled while the player is on a streak, as on lichess: two
wins in a row light it, every game after them counts double, and it goes out at
the first game that is not a win (that game still counts double). A win is
first place alone.

A pass over the waiting pool sorts the players who are not paused by points,
then rating, then id. A two-player pool of up to :data:`EXACT_POOL` players is
paired by a matching (:mod:`.matching`) that makes, in this order: the fewest
pairs of players who met at the last game of either; an odd pool's waiting
player the lowest-ranked it can; the least sum of the pairs' distances in that
order. A larger pool, or tables of more than two, are seated from the top in
one sweep: each table opens with the first unseated player and takes the next
unseated players, in that order, who were not at the last table of a player
already seated there (nor had one of them at theirs); only when no other
player is waiting does it take one who was. A table left with such a rematch
then swaps one of its players with one of another table (the nearest first)
or with one left waiting, if neither table then holds a rematch. The pool is
cut into tables as :func:`.model.table_sizes` cuts a field; whoever is left
over waits for the next pass.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from meeple.tables.tournaments.model import Finish, PlayerId, sole_winner, table_sizes
from meeple.tables.tournaments.pairing.matching import cheapest_pairs

STREAK = 2
"""Wins in a row that light a streak."""

EXACT_POOL = 16
"""Up to this many two-player pool members, the pass pairs them by a matching."""


@dataclass(frozen=True)
class ArenaScore:
    """One game on a player's sheet: its points (doubled already when on a streak)."""

    points: int
    won: bool
    doubled: bool


@dataclass
class ArenaSheet:
    """A player's arena games in the order they finished, and the run of wins at the end."""

    scores: list[ArenaScore]
    wins_running: int = 0

    @property
    def points(self) -> int:
        """The player's arena points."""
        return sum(score.points for score in self.scores)

    @property
    def wins(self) -> int:
        """Games won."""
        return sum(1 for score in self.scores if score.won)

    @property
    def on_fire(self) -> bool:
        """Whether the player's next game counts double."""
        return self.wins_running >= STREAK

    def add(self, finish: Finish, player: PlayerId) -> None:
        """Score ``player``'s part in ``finish``, the next game they finished."""
        doubled = self.on_fire
        won = sole_winner(finish, player)
        points = finish.points()[player] * (2 if doubled else 1)
        self.scores.append(ArenaScore(points, won, doubled))
        self.wins_running = self.wins_running + 1 if won else 0


def arena_sheets(finishes: Iterable[Finish]) -> dict[PlayerId, ArenaSheet]:
    """Every player's sheet from the arena's games in the order they finished."""
    sheets: dict[PlayerId, ArenaSheet] = {}
    for finish in finishes:
        for player in finish.players:
            sheets.setdefault(player, ArenaSheet([])).add(finish, player)
    return sheets


@dataclass(frozen=True)
class Waiting:
    """A player waiting for a game: points, rating, their last table and their seat history.

    ``last_table`` holds the others at the player's last game; ``firsts`` and
    ``games`` count their games started in seat 0 and all their games.
    """

    id: PlayerId
    points: int
    rating: int
    last_table: frozenset[PlayerId] = frozenset()
    paused: bool = False
    firsts: int = 0
    games: int = 0


@dataclass(frozen=True)
class ArenaPass:
    """The tables a pass made, each in seat order, and the players it left waiting."""

    tables: tuple[tuple[PlayerId, ...], ...]
    waiting: tuple[PlayerId, ...]


def pair_arena(
    pool: Sequence[Waiting], size: int = 2, min_size: int = 2, max_size: int = 2
) -> ArenaPass:
    """One pass over the waiting ``pool``: tables of about ``size`` (see the module)."""
    order = sorted((player for player in pool if not player.paused), key=_standing)
    if max_size == 2 and len(order) <= EXACT_POOL:
        return _pair_exactly(order)
    taken = [False] * len(order)
    first_free = 0
    tables: list[list[Waiting]] = []
    for table_size in table_sizes(len(order), size, min_size, max_size):
        while taken[first_free]:
            first_free += 1
        members = [first_free]
        taken[first_free] = True
        passed_over: list[int] = []
        index = first_free + 1
        while len(members) < table_size and index < len(order):
            if not taken[index]:
                if _met_last(order[index], [order[m] for m in members]):
                    passed_over.append(index)
                else:
                    members.append(index)
                    taken[index] = True
            index += 1
        for index in passed_over[: table_size - len(members)]:
            members.append(index)
            taken[index] = True
        tables.append([order[m] for m in sorted(members)])
    left = [player for index, player in enumerate(order) if not taken[index]]
    for table in tables:
        if _has_rematch(table):
            _swap_out_rematch(table, tables, left)
    return ArenaPass(
        tuple(_in_seat_order(table) for table in tables), tuple(player.id for player in left)
    )


def _pair_exactly(order: Sequence[Waiting]) -> ArenaPass:
    """The pairs of a small pool in standing order, by a matching (see the module)."""
    wait_node = len(order)

    def cost(i: int, j: int) -> tuple[int, int, int]:
        if j == wait_node:
            return (0, wait_node - 1 - i, 0)
        return (int(_met_last(order[j], [order[i]])), 0, j - i)

    pairs = cheapest_pairs(len(order) + len(order) % 2, cost)
    return ArenaPass(
        tuple(_in_seat_order([order[i], order[j]]) for i, j in pairs if j != wait_node),
        tuple(order[i].id for i, j in pairs if j == wait_node),
    )


def _standing(player: Waiting) -> tuple[int, int, PlayerId]:
    """The pool's order: points, then rating, then the lower id."""
    return (-player.points, -player.rating, player.id)


def _has_rematch(table: Sequence[Waiting]) -> bool:
    """Whether two players of ``table`` met at the last table of one of them."""
    return any(_met_last(player, table[:index]) for index, player in enumerate(table))


def _swap_out_rematch(
    table: list[Waiting], tables: list[list[Waiting]], left: list[Waiting]
) -> None:
    """Swap a player of ``table`` for one elsewhere, if neither table then holds a rematch.

    The nearest tables are tried first, then the players left waiting.
    """
    here = next(index for index, other in enumerate(tables) if other is table)
    nearest = sorted(range(len(tables)), key=lambda index: (abs(index - here), index))
    for group in [*(tables[index] for index in nearest if index != here), left]:
        for i, mine in enumerate(table):
            for j, theirs in enumerate(group):
                new_mine = [*table[:i], theirs, *table[i + 1 :]]
                new_theirs = [*group[:j], mine, *group[j + 1 :]]
                if _has_rematch(new_mine) or (group is not left and _has_rematch(new_theirs)):
                    continue
                table[i], group[j] = theirs, mine
                table.sort(key=_standing)
                group.sort(key=_standing)
                return


def _met_last(candidate: Waiting, seated: Sequence[Waiting]) -> bool:
    """Whether ``candidate`` was at the last table of one of ``seated``, or they at theirs."""
    return any(
        player.id in candidate.last_table or candidate.id in player.last_table for player in seated
    )


def _in_seat_order(players: Sequence[Waiting]) -> tuple[PlayerId, ...]:
    """Seat 0 to whoever started the smallest share of their games; ties keep standing order."""
    return tuple(
        player.id
        for player in sorted(
            players,
            key=lambda player: (
                Fraction(player.firsts, player.games) if player.games else Fraction(0)
            ),
        )
    )
