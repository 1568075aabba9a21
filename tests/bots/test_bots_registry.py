"""The registry: one bot per game and level, and a named refusal for the rest."""

from __future__ import annotations

import pytest
from bots_helpers import GAMES_AND_LEVELS

from meeple.bots import LEVEL_LABELS, LEVELS, get_bot


def test_levels_weakest_first_with_player_facing_labels() -> None:
    assert LEVELS == ("random", "greedy", "strong", "expert")
    assert [LEVEL_LABELS[lv] for lv in LEVELS] == ["beginner", "casual", "strong", "expert"]


@pytest.mark.parametrize(("game", "level"), GAMES_AND_LEVELS)
def test_every_game_has_every_level(game: str, level: str) -> None:
    bot = get_bot(game, level, seed=1)
    assert (bot.game, bot.level) == (game, level)
    assert callable(bot.choose)


@pytest.mark.parametrize(
    ("game", "level", "named"),
    [("chess", "greedy", "chess"), ("summy", "grandmaster", "grandmaster")],
)
def test_unknown_game_or_level_is_refused_by_name(game: str, level: str, named: str) -> None:
    with pytest.raises(KeyError, match=named):
        get_bot(game, level, seed=1)
