"""Every level of both games plays full seeded games through the checked ``apply``.

The arena's runner applies each chosen action with the engine's ``apply`` and
raises ``BotError`` at the first illegal one, so finishing is the check; the
record must also replay to the same result.
"""

from __future__ import annotations

import pytest

from meeple.arena.runner import GameSpec, play_game
from meeple.games import get_game
from meeple.games.base import GameRecord, replay
from meeple.games.kit.bots import LEVELS

BUDGET = 0.05
"""The expert's budget here: small, the legality of its choices does not depend on it."""

LINEUPS = (
    [("summy", 1, (level,)) for level in LEVELS]
    + [("summy", 2, (level, "greedy")) for level in LEVELS]
    + [("slide", 2, (level, "random")) for level in LEVELS]
    + [("slide", 4, ("expert", "strong", "greedy", "random"))]
)


@pytest.mark.parametrize(("game_name", "players", "seats"), LINEUPS)
@pytest.mark.parametrize("seed", [3, 4])
def test_bots_finish_seeded_games_without_an_illegal_action(
    game_name: str, players: int, seats: tuple[str, ...], seed: int
) -> None:
    game = get_game(game_name)
    spec = GameSpec(0, game_name, game.default_options(players), seed, seats, BUDGET)
    outcome = play_game(spec)
    assert len(outcome.result.scores) == players
    record = GameRecord.from_json(outcome.record.to_json())
    final = replay(game, record)[-1]
    assert game.result(final) == outcome.result
