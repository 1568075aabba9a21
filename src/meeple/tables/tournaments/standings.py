"""Standings with their tie-breaks, for a Swiss and for an arena.

Swiss: points, then Buchholz, then Sonneborn-Berger, then rating, then the lower
id. Buchholz adds up, game by game, the points of the player's opponents (at a
table of more than two, the mean of its opponents' points); Sonneborn-Berger
adds the same figure weighted by the player's result against each opponent (1
finishing above them, 1/2 level, 0 below). A bye counts in both as a game won
against an opponent with the player's own points.

Arena: points, then games won, then performance, then rating, then the lower
id. A game's performance is the mean rating of its opponents plus 500 times
(2 x share - 1), where share is the player's result against them as above (a
two-player win +500, a draw 0, a loss -500); the player's performance is the
rounded mean over their games, and their rating while they have none.

Withdrawn players keep their place, marked; everyone in the list has a rank, one
apart (the last tie-break, the id, is never level).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from meeple.tables.tournaments.model import Bye, Entrant, Finish, PlayerId, win_points
from meeple.tables.tournaments.pairing.arena import arena_sheets
from meeple.tables.tournaments.records import player_records, record_of


@dataclass(frozen=True)
class SwissRow:
    """A player's line in Swiss standings."""

    rank: int
    player: PlayerId
    points: int
    buchholz: Fraction
    sonneborn_berger: Fraction
    rating: int
    games: int
    byes: int
    withdrawn: bool


@dataclass(frozen=True)
class ArenaRow:
    """A player's line in arena standings; ``on_fire``: their next game counts double."""

    rank: int
    player: PlayerId
    points: int
    wins: int
    performance: int
    rating: int
    games: int
    on_fire: bool
    withdrawn: bool


def swiss_standings(
    entrants: Sequence[Entrant],
    finishes: Sequence[Finish],
    byes: Sequence[Bye],
    bye_points: int = win_points(2),
) -> list[SwissRow]:
    """The Swiss standings of ``entrants``, best first."""
    records = player_records(finishes, byes, bye_points)
    buchholz = {entrant.id: Fraction(0) for entrant in entrants}
    berger = {entrant.id: Fraction(0) for entrant in entrants}
    games = {entrant.id: 0 for entrant in entrants}
    for finish in finishes:
        for player in finish.players:
            if player not in buchholz:
                continue
            games[player] += 1
            for opponent, share in _shares(finish, player):
                weight = Fraction(record_of(records, opponent).points, len(finish.players) - 1)
                buchholz[player] += weight
                berger[player] += weight * share
    for bye in byes:
        if bye.player in buchholz:
            own = record_of(records, bye.player).points
            buchholz[bye.player] += own
            berger[bye.player] += own
    ordered = sorted(
        entrants,
        key=lambda e: (
            -record_of(records, e.id).points,
            -buchholz[e.id],
            -berger[e.id],
            -e.rating,
            e.id,
        ),
    )
    return [
        SwissRow(
            rank=index + 1,
            player=entrant.id,
            points=record_of(records, entrant.id).points,
            buchholz=buchholz[entrant.id],
            sonneborn_berger=berger[entrant.id],
            rating=entrant.rating,
            games=games[entrant.id],
            byes=record_of(records, entrant.id).byes,
            withdrawn=entrant.withdrawn,
        )
        for index, entrant in enumerate(ordered)
    ]


def arena_standings(entrants: Sequence[Entrant], finishes: Sequence[Finish]) -> list[ArenaRow]:
    """The arena standings of ``entrants``, best first; ``finishes`` in the order they ended."""
    sheets = arena_sheets(finishes)
    ratings = {entrant.id: entrant.rating for entrant in entrants}
    performance = _performances(finishes, ratings)
    rows = []
    for entrant in entrants:
        sheet = sheets.get(entrant.id)
        rows.append(
            (
                entrant,
                sheet.points if sheet else 0,
                sheet.wins if sheet else 0,
                performance.get(entrant.id, entrant.rating),
                len(sheet.scores) if sheet else 0,
                sheet.on_fire if sheet else False,
            )
        )
    rows.sort(key=lambda row: (-row[1], -row[2], -row[3], -row[0].rating, row[0].id))
    return [
        ArenaRow(
            rank=index + 1,
            player=entrant.id,
            points=points,
            wins=wins,
            performance=perf,
            rating=entrant.rating,
            games=played,
            on_fire=fire,
            withdrawn=entrant.withdrawn,
        )
        for index, (entrant, points, wins, perf, played, fire) in enumerate(rows)
    ]


def _shares(finish: Finish, player: PlayerId) -> list[tuple[PlayerId, Fraction]]:
    """Each opponent of ``player`` in ``finish`` with the player's result against them."""
    rank = finish.ranks[finish.players.index(player)]
    return [
        (other, _share(rank, other_rank))
        for other, other_rank in zip(finish.players, finish.ranks, strict=True)
        if other != player
    ]


def _share(rank: int, other_rank: int) -> Fraction:
    """A result against one opponent: 1 finishing above them, 1/2 level, 0 below."""
    if rank == other_rank:
        return Fraction(1, 2)
    return Fraction(1) if rank < other_rank else Fraction(0)


def _performances(
    finishes: Sequence[Finish], ratings: Mapping[PlayerId, int]
) -> dict[PlayerId, int]:
    """Each player's rounded mean performance over their games (see the module)."""
    totals: dict[PlayerId, Fraction] = {}
    counts: dict[PlayerId, int] = {}
    for finish in finishes:
        for player in finish.players:
            shares = _shares(finish, player)
            opponents = len(shares)
            mean_rating = Fraction(sum(ratings[other] for other, _ in shares), opponents)
            share = sum((value for _, value in shares), Fraction(0)) / opponents
            totals[player] = totals.get(player, Fraction(0)) + mean_rating + 500 * (2 * share - 1)
            counts[player] = counts.get(player, 0) + 1
    return {player: round(totals[player] / counts[player]) for player in totals}
