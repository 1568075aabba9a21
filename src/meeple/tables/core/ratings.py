"""Ratings per game with openskill's Plackett-Luce model, so 3-6 player games rate properly.

Only seats held by users are rated (bots are not rated players): the rated
players are ranked among themselves by the game's result. A seat a zombie bot
took over (its player left, or timed out too often) is ranked last, below every
other rated seat whatever the board says; several such seats share the last
rank. A game with fewer than two rated players changes no rating.

A game a player left, or lost on time, before making their first moves
(:data:`FIRST_MOVES`) is aborted, as chess sites abort a game nobody began: it
rates nobody and counts as no rated game anywhere (:func:`unbegun_seats`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

from meeple.games.base import AnyGame, is_move, ranks_from_keys
from meeple.tables.core.log import LogEvent, SeatInfo
from meeple.tables.core.takeback_log import undone_versions

MODEL = PlackettLuce()
"""The rating model: mu 25, sigma 25/3 for a new player."""


@dataclass(frozen=True)
class RatedSeat:
    """A rated player of one game: who, their rank for rating, their rating before."""

    user_id: int
    rank: int
    mu: float
    sigma: float


def rating_ranks(result_ranks: Sequence[int], seats: Sequence[SeatInfo]) -> dict[int, int]:
    """``{user_id: rank}`` among the rated seats (1 is first, ties share), zombies last."""
    players = [s for s in seats if s.user_id is not None]
    keys = [(1, 0) if s.zombie else (0, result_ranks[s.seat]) for s in players]
    return {
        s.user_id: rank
        for s, rank in zip(players, ranks_from_keys(keys), strict=True)
        if s.user_id is not None
    }


def rates_anyone(asked: bool, seats: Sequence[SeatInfo], bots_vs_people: bool = True) -> bool:
    """Whether a table's game can change a rating: asked rated, and two seats not held by bots.

    Bots are not rated players, so a game against bots only rates nobody (a
    free seat may still take a person; a zombie's seat stays its player's).
    Bot accounts are rated players; with ``bots_vs_people`` false
    (``MEEPLE_BOTS_RATED_VS_PEOPLE``) a game between a bot account and a person
    rates nobody. This is what the table tells everyone as ``rated``.
    """
    if not bots_vs_people:
        accounts = [s.bot_account for s in seats if s.user_id is not None]
        if any(accounts) and not all(accounts):
            return False
    return asked and sum(1 for s in seats if s.bot_level is None) >= 2


FIRST_MOVES = 2
"""How many moves of their own (as the game counts moves: :func:`meeple.games.base.is_move`)
each player makes before a game has really begun. A player a stand-in took over sooner
(they left, or lost their turns on time) aborts the game: nobody is rated, as on chess
sites, so a second account that leaves at once hands nobody a rated win."""


def unbegun_seats(
    game: AnyGame, seats: Sequence[SeatInfo], events: Sequence[LogEvent]
) -> frozenset[int]:
    """The players' seats a stand-in took before they made their :data:`FIRST_MOVES` moves.

    A stand-in is the zombie that takes a seat whose player left, or a move the server
    made for a player whose clock ran out. A seat no stand-in ever played began
    whatever its count (the game ended by play); seats of bots are no players. A game
    with any such seat is aborted. Moves a takeback undid count for nothing.
    """
    moves = {s.seat: 0 for s in seats if s.user_id is not None}
    unbegun: set[int] = set()
    stood_in: set[int] = set()
    undone = undone_versions(events)
    for event in events:
        seat = event.seat
        if seat not in moves or seat in stood_in or event.version in undone:
            continue
        if event.kind == "zombie" or (event.kind == "action" and event.data.get("by") != "player"):
            stood_in.add(seat)
            if moves[seat] < FIRST_MOVES:
                unbegun.add(seat)
        elif event.kind == "action" and is_move(game, event.data.get("action")):
            moves[seat] += 1
    return frozenset(unbegun)


def ordinal(mu: float, sigma: float) -> float:
    """openskill's conservative estimate: ``mu - 3 sigma`` (0 for a new player)."""
    return mu - 3 * sigma


SHOWN_BASE, SHOWN_SCALE = 1500, 40
"""Ratings are shown as ``1500 + 40 x ordinal``: a new player shows 1500 as on chess sites,
and the ordinals openskill gives (about -10 to 30) spread over a familiar 1100-2700."""

PROVISIONAL_GAMES = 10
"""A rating over fewer rated games than this is marked provisional."""


def shown_rating(mu: float, sigma: float) -> int:
    """The rating players see: ``1500 + 40 x (mu - 3 sigma)``, rounded.

    >>> shown_rating(25.0, 25.0 / 3), shown_rating(30.0, 3.0)
    (1500, 2340)
    """
    return round(SHOWN_BASE + SHOWN_SCALE * ordinal(mu, sigma))


def starting_rating() -> int:
    """What a player who has not played yet shows (the model's first mu and sigma)."""
    first = MODEL.rating()
    return shown_rating(first.mu, first.sigma)


def new_ratings(players: Sequence[RatedSeat]) -> dict[int, tuple[float, float]]:
    """``{user_id: (mu, sigma)}`` after one game; empty with fewer than two players."""
    if len(players) < 2:
        return {}
    teams = [[MODEL.rating(mu=p.mu, sigma=p.sigma)] for p in players]
    rated = MODEL.rate(teams, ranks=[float(p.rank) for p in players])
    return {p.user_id: (team[0].mu, team[0].sigma) for p, team in zip(players, rated, strict=True)}


def puzzle_match(
    player: tuple[float, float], puzzle: tuple[float, float], solved: bool
) -> tuple[tuple[float, float], tuple[float, float]]:
    """A puzzle answer as a two-player game: the solver wins if right, the puzzle if not.

    Returns the new ``(mu, sigma)`` of the player, then of the puzzle.
    """
    teams = [
        [MODEL.rating(mu=player[0], sigma=player[1])],
        [MODEL.rating(mu=puzzle[0], sigma=puzzle[1])],
    ]
    ranks = [1.0, 2.0] if solved else [2.0, 1.0]
    rated = MODEL.rate(teams, ranks=ranks)
    return (rated[0][0].mu, rated[0][0].sigma), (rated[1][0].mu, rated[1][0].sigma)
