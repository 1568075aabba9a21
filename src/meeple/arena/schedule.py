"""Which bots sit where in each arena game, and on which deal.

Luck is evened out by sharing deals: with ``N`` seats, each deal (seed) is
played ``N`` times, the lineup rotated one seat each time, so every bot of the
lineup plays every seat of every deal. Game ``i`` uses seed ``seed + i // N``
and rotation ``i % N``; a run whose length is not a multiple of ``N`` ends
with a partial rotation. Solo (one seat): every bot of the lineup plays every
deal alone, so their solo scores compare on the same deals.

>>> parse_lineup("expert,greedy*3")
('expert', 'greedy', 'greedy', 'greedy')
>>> [s.seats for s in build_schedule("summy", ("expert", "greedy"), 2, 4, 7, 1.0, {})]
[('expert', 'greedy'), ('greedy', 'expert'), ('expert', 'greedy'), ('greedy', 'expert')]
>>> [s.seed for s in build_schedule("summy", ("expert", "greedy"), 2, 4, 7, 1.0, {})]
[7, 7, 8, 8]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from meeple.arena.runner import GameSpec
from meeple.games.base import JSON
from meeple.games.kit.bots import LEVELS


class LineupError(ValueError):
    """A ``--bots`` lineup that names an unknown level or does not fit the seats."""


def parse_lineup(text: str) -> tuple[str, ...]:
    """Bot levels from ``"expert,greedy*3"``: comma-separated, ``*k`` repeats one."""
    levels: list[str] = []
    for part in text.split(","):
        name, _, count_text = part.strip().partition("*")
        name = name.strip()
        if name not in LEVELS:
            raise LineupError(f"unknown bot level {name!r}; choose from {', '.join(LEVELS)}")
        try:
            count = int(count_text) if count_text else 1
        except ValueError:
            raise LineupError(f"{part.strip()!r}: the repeat count must be a number") from None
        if count < 1:
            raise LineupError(f"{part.strip()!r}: the repeat count must be at least 1")
        levels.extend([name] * count)
    return tuple(levels)


def seats_for(lineup: Sequence[str], players: int) -> tuple[str, ...]:
    """Check that ``lineup`` fits ``players`` seats (solo: any number of bots)."""
    if players == 1 or len(lineup) == players:
        return tuple(lineup)
    raise LineupError(
        f"{len(lineup)} bots for {players} seats: give one bot per seat "
        f"(e.g. expert,greedy*{players - 1})"
    )


def build_schedule(
    game: str,
    lineup: Sequence[str],
    players: int,
    games: int,
    seed: int,
    budget_s: float,
    options: Mapping[str, JSON],
) -> list[GameSpec]:
    """The ``games`` arena games of ``lineup`` at ``players`` seats, in order."""
    lineup = seats_for(lineup, players)
    group = len(lineup)
    specs: list[GameSpec] = []
    for index in range(games):
        deal, rotation = divmod(index, group)
        if players == 1:
            seats: tuple[str, ...] = (lineup[rotation],)
        else:
            seats = tuple(lineup[(seat + rotation) % group] for seat in range(group))
        specs.append(GameSpec(index, game, dict(options), seed + deal, seats, budget_s))
    return specs
