"""The players of a tournament, its finished games and byes, and points by finishing place.

One scale of points serves every format and table size: a player scores 2 points
for each player who finished below them and 1 for each other player who finished
level with them. At two seats that is 2 a win, 1 a draw, 0 a loss; at a table of
four it is 6, 4, 2 and 0 by place, and players level share the places' points
(two first of four: 5 each).

A field is cut into tables by :func:`table_sizes`, the same way in every format.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

PlayerId = int
"""A player's account id."""


@dataclass(frozen=True)
class Entrant:
    """A player in a tournament: ``rating`` as players see it (the tie-break after points).

    ``withdrawn`` marks a player who left: not paired any more, still in the standings.
    """

    id: PlayerId
    rating: int
    withdrawn: bool = False


@dataclass(frozen=True)
class Finish:
    """A finished tournament game: its players in seat order (seat 0 first) and their ranks.

    ``ranks`` are competition ranks as :class:`meeple.games.base.Result` gives them
    (1 is first, players level share a rank: 1, 1, 3). ``round`` is the Swiss round
    (1 first); an arena numbers its games in the order they finished.
    """

    round: int
    players: tuple[PlayerId, ...]
    ranks: tuple[int, ...]

    def __post_init__(self) -> None:
        if len(self.players) < 2:
            raise ValueError("a finish needs two players or more")
        if len(self.players) != len(self.ranks):
            raise ValueError("a finish needs one rank for each player")
        if len(set(self.players)) != len(self.players):
            raise ValueError("a player sits only once at a table")

    def points(self) -> dict[PlayerId, int]:
        """Each player's points for this game (:func:`place_points`)."""
        return dict(zip(self.players, place_points(self.ranks), strict=True))

    def opponents(self, player: PlayerId) -> tuple[PlayerId, ...]:
        """The others at the table of ``player``."""
        return tuple(other for other in self.players if other != player)


@dataclass(frozen=True)
class Bye:
    """A round ``player`` sat out for want of a table, scored as a win (:func:`win_points`)."""

    round: int
    player: PlayerId


def place_points(ranks: Sequence[int]) -> tuple[int, ...]:
    """Each seat's points: 2 for each player ranked below it, 1 for each other level with it.

    >>> place_points((1, 2))
    (2, 0)
    >>> place_points((1, 1))
    (1, 1)
    >>> place_points((2, 1, 4, 2))
    (3, 6, 0, 3)
    """
    return tuple(
        2 * sum(1 for other in ranks if other > rank)
        + sum(1 for other in ranks if other == rank)
        - 1
        for rank in ranks
    )


def win_points(table_size: int) -> int:
    """What a win scores at a table of ``table_size``: first place alone, ``2 x (size - 1)``.

    A bye scores this, with ``table_size`` the tournament's requested table size.

    >>> win_points(2), win_points(4)
    (2, 6)
    """
    return 2 * (table_size - 1)


def sole_winner(finish: Finish, player: PlayerId) -> bool:
    """Whether ``player`` finished first alone at the table of ``finish`` (a win)."""
    rank = finish.ranks[finish.players.index(player)]
    return rank == 1 and finish.ranks.count(1) == 1


def table_sizes(players: int, size: int, min_size: int, max_size: int) -> list[int]:
    """Table sizes for ``players``: as even as can be, the larger first.

    ``ceil(players / size)`` tables, fewer while one would fall under
    ``min_size``; whoever does not fit at ``max_size`` a table sits out.

    >>> table_sizes(13, 4, 3, 6)
    [4, 3, 3, 3]
    >>> table_sizes(5, 4, 3, 6)
    [5]
    >>> table_sizes(7, 2, 2, 2)
    [2, 2, 2]
    >>> table_sizes(2, 4, 3, 6)
    []
    """
    tables = -(-players // size)
    while tables and players // tables < min_size:
        tables -= 1
    if not tables:
        return []
    seated = min(players, tables * max_size)
    base, extra = divmod(seated, tables)
    return [base + 1] * extra + [base] * (tables - extra)
