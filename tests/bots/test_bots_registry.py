"""The registry: one bot per game and level, and a named refusal for the rest."""

from __future__ import annotations

import pytest
from bots_helpers import GAMES_AND_LEVELS

from meeple.bots import games_with_bot, get_bot, levels_for
from meeple.games import GAME_NAMES, features_of
from meeple.games.kit.bots import LEVEL_LABELS, LEVELS


def test_levels_weakest_first_with_player_facing_labels() -> None:
    assert LEVELS == ("random", "greedy", "strong", "expert")
    assert [LEVEL_LABELS[lv] for lv in LEVELS] == ["beginner", "casual", "strong", "expert"]


@pytest.mark.parametrize("game", GAME_NAMES)
def test_each_game_names_its_own_bots_at_known_levels_greedy_among_them(game: str) -> None:
    own = features_of(game).bots
    assert set(own) <= set(LEVELS) and "greedy" in own
    assert levels_for(game) == tuple(level for level in LEVELS if level in own)
    # A game's bots live in its own package, as Nim's do in its module.
    assert all(where.startswith(f"meeple.games.{game}.") for where in own.values())
    assert game in games_with_bot("greedy")


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
