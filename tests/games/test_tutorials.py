"""Every game's tutorial: each step is a real position with the learner to act, its example
move is one the engine lists and accepts, and its texts exist in every language."""

from __future__ import annotations

import json
import re

import pytest

from meeple.games import games_with, get_game
from meeple.games.kit.tutorial import TEXTS, Tutorial, tutorial_of
from meeple.i18n import LANGUAGES, catalog

GAMES = games_with("tutorial")


def test_both_built_in_games_offer_a_tutorial_and_the_registry_finds_it() -> None:
    assert {"summy", "slide"} <= set(GAMES)
    for game in GAMES:
        tutorial = tutorial_of(game)
        assert isinstance(tutorial, Tutorial) and tutorial.game is get_game(game)
    assert tutorial_of("no-such-game") is None


@pytest.mark.parametrize("game", GAMES)
def test_each_steps_example_is_legal_by_the_engine_and_completes_the_step(game: str) -> None:
    tutorial = tutorial_of(game)
    assert tutorial is not None and 3 <= len(tutorial.steps) <= 8
    rules = tutorial.game
    for index, step in enumerate(tutorial.steps):
        assert step.seat in rules.to_act(step.state), step.key
        assert rules.result(step.state) is None, step.key
        example = rules.parse_action(step.example)
        assert example in rules.legal_actions(step.state, step.seat), step.key
        after, effects = tutorial.attempt(index, step.example)
        assert effects and after != step.state, step.key
        # What the page shows is JSON: the step's position and the one after its move.
        json.dumps([rules.view(step.state, step.seat), rules.view(after, step.seat), effects])
    assert len({step.key for step in tutorial.steps}) == len(tutorial.steps)


@pytest.mark.parametrize("game", GAMES)
def test_a_step_that_does_not_exist_is_an_index_error(game: str) -> None:
    tutorial = tutorial_of(game)
    assert tutorial is not None
    for index in (-1, len(tutorial.steps)):
        with pytest.raises(IndexError):
            tutorial.attempt(index, tutorial.steps[0].example)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
def test_every_step_has_its_texts_in_every_language_with_its_blanks_filled(
    game: str, lang: str
) -> None:
    tutorial = tutorial_of(game)
    assert tutorial is not None
    texts = catalog(lang)
    for step in tutorial.steps:
        for part in TEXTS:
            key = step.text_key(game, part)
            assert texts.has(key), key
            shown = texts.gettext(key, **step.params)
            assert shown.strip() and not re.search(r"\{\w*\}", shown), key
    if lang != "en":  # a translation, not the English again
        english = catalog("en")
        step = tutorial.steps[0]
        key = step.text_key(game, "text")
        assert texts.gettext(key, **step.params) != english.gettext(key, **step.params)
