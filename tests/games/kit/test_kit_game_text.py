"""A whole game as text (docs/notation.md), for every game that declares a move notation: 50
seeded random games of each written and read back to the same record, names and states; bad
texts refused with their code and the line that is wrong."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from meeple.games import games_with, get_game
from meeple.games.base import AnyGame, GameRecord, IllegalAction, replay
from meeple.games.kit import notation as notation_module
from meeple.games.kit.notation import TextError, notation_of, read_text, write_text

GAMES = games_with("notation")
ROUND_TRIPS = 50
"""Random games written and read back, per game."""


def random_record(game: AnyGame, index: int) -> GameRecord:
    """A seeded random game played to its end through the contract's ``legal_actions``:
    player counts cycle from the fewest to the most, every other game of a game with more
    options than ``players`` takes its last boolean option on, and a move that scores (one
    listed before the rest, as Summy lists placements first) is preferred half the time, so
    the games are not all discards."""
    rng = random.Random(index)
    players = game.min_players + index % (game.max_players - game.min_players + 1)
    options = game.default_options(players)
    flags = [key for key, value in options.items() if isinstance(value, bool)]
    if flags and index % 2:
        options[flags[-1]] = True
    seed = rng.randrange(2**63)
    state = game.setup(options, seed)
    actions = []
    while game.result(state) is None:
        seat = rng.choice(sorted(game.to_act(state)))
        legal = list(game.legal_actions(state, seat))
        action = legal[0] if rng.random() < 0.5 else rng.choice(legal)
        actions.append((seat, game.action_json(action)))
        state, _effects = game.apply(state, seat, action)
    return GameRecord(game.name, options, seed, tuple(actions))


@pytest.mark.parametrize("name", GAMES)
def test_random_games_read_back_to_their_record_names_and_states(name: str) -> None:
    assert set(GAMES) >= {"summy", "slide"}
    game = get_game(name)
    for index in range(ROUND_TRIPS):
        record = random_record(game, index)
        players = int(record.options["players"])
        names = [f"player{seat}" if seat % 2 == 0 else None for seat in range(players)]
        text = write_text(game, record, names)
        imported = read_text(game, text)
        assert imported.record == record, (name, index)
        assert list(imported.names) == names
        assert [(move.seat, move.action) for move in imported.moves] == list(record.actions)
        states = replay(game, record)
        assert len(imported.states) == len(states) == len(record.actions) + 1
        for mine, theirs in zip(imported.states, states, strict=True):
            assert game.view(mine, None) == game.view(theirs, None)
        result = game.result(imported.states[-1])
        assert result is not None
        assert f"scores: {' '.join(map(str, result.scores))}" in text.splitlines()
        # Each move's text is what the game writes; reading the text again changes nothing.
        assert write_text(game, imported.record, imported.names) == text


@pytest.mark.parametrize("name", GAMES)
def test_a_text_cut_short_is_a_game_not_over_and_one_without_moves_its_deal(name: str) -> None:
    game = get_game(name)
    record = random_record(game, 3)
    lines = write_text(game, record).splitlines()
    first_move = next(i for i, line in enumerate(lines) if line.startswith("1. "))
    cut = read_text(game, "\n".join(lines[: first_move + 5]))
    assert len(cut.moves) == 5 and game.result(cut.states[-1]) is None
    header_only = read_text(game, "\n".join(lines[:first_move]))
    assert header_only.moves == () and len(header_only.states) == 1


SUMMY = """game: summy
options: {"players": 2}
seed: 11
seat 1: ann

1. seat 2: V -3,0 1+7[=]8  # 16 points
"""


def summy_refusal(text: str) -> TextError:
    with pytest.raises(TextError) as caught:
        read_text(get_game("summy"), text)
    return caught.value


@pytest.mark.parametrize(
    ("text", "code", "line"),
    [
        ("", "notation_missing", 1),
        (SUMMY.replace("seed: 11\n", ""), "notation_missing", 5),
        (SUMMY.replace("game: summy", "game: slide"), "notation_game", 1),
        (SUMMY.replace("seed: 11", "seed: eleven"), "notation_seed", 3),
        (SUMMY.replace("seed: 11", "seed: " + "9" * 41), "notation_seed", 3),
        (SUMMY.replace('{"players": 2}', "players=2"), "notation_options", 2),
        (SUMMY.replace('{"players": 2}', '{"players": 3}'), "bad_options", 2),
        (SUMMY.replace("seat 1: ann", "seat 3: ann"), "notation_seat", 4),
        (SUMMY.replace("seat 1: ann", "seed: 12"), "notation_twice", 4),
        (SUMMY + "a line that is no move\n", "notation_line", 7),
        (SUMMY + "game: summy\n", "notation_line", 7),
        (SUMMY.replace("1. seat 2", "2. seat 2"), "notation_number", 6),
        (SUMMY.replace("1. seat 2", "1. seat 3"), "notation_seat", 6),
        (SUMMY.replace("1. seat 2", "1. seat 1"), "notation_turn", 6),
        (SUMMY.replace("V -3,0 1+7[=]8", "V -3,0 1+7[=8"), "notation_move", 6),
        (SUMMY.replace("V -3,0 1+7[=]8", "discard"), "notation_move", 6),
        (SUMMY.replace("V -3,0 1+7[=]8", "H 0," + "9" * 5000 + " 1+1[=]2"), "notation_move", 6),
        (SUMMY.replace("V -3,0 1+7[=]8", "V -3,0 1+7[9]8"), "notation_mismatch", 6),
        (SUMMY.replace("V -3,0 1+7[=]8", "V -3,0 1+6[=]8"), "eq_false", 6),
        (SUMMY.replace("V -3,0 1+7[=]8", "pass"), "pass_refused", 6),
    ],
)
def test_a_bad_text_is_refused_with_its_code_and_line(text: str, code: str, line: int) -> None:
    refusal = summy_refusal(text)
    assert (refusal.code, refusal.line) == (code, line), str(refusal)
    assert str(refusal) == f"line {line}: {refusal.why}"


def test_an_illegal_move_is_refused_in_the_engines_own_words() -> None:
    game = get_game("summy")
    state = game.setup({"players": 2}, 11)
    placement = game.parse_action(
        {
            "type": "place",
            "dir": "V",
            "tiles": [
                {"row": -3, "col": 0, "tile": "1"},
                {"row": -2, "col": 0, "tile": "+"},
                {"row": -1, "col": 0, "tile": "6"},
                {"row": 1, "col": 0, "tile": "8"},
            ],
        }
    )
    with pytest.raises(IllegalAction) as engine:
        game.apply(state, 1, placement)
    refusal = summy_refusal(SUMMY.replace("V -3,0 1+7[=]8", "V -3,0 1+6[=]8"))
    assert refusal.why == str(engine.value) and refusal.params["claimed"] == 8
    assert str(refusal).startswith("line 6: ")


def test_a_game_after_its_end_and_a_slide_text_with_a_bad_move_are_refused() -> None:
    game = get_game("slide")
    record = random_record(game, 0)
    text = write_text(game, record)
    extra = f"{len(record.actions) + 1}. seat 1: take 1 left\n"
    with pytest.raises(TextError) as over:
        read_text(game, text + extra)
    assert over.value.code == "notation_over"
    lines = text.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("1. "))
    lines[first] = "1. seat 1: reveal 4,0"
    with pytest.raises(TextError) as unread:
        read_text(game, "\n".join(lines))
    assert (unread.value.code, unread.value.line) == ("notation_move", first + 1)


def test_comments_blank_lines_windows_line_ends_and_unknown_header_lines_are_read() -> None:
    text = "\ufeff# from a file\r\n" + SUMMY.replace("\n", "\r\n").replace(
        "seat 1: ann", "date: 2026-05-01\r\n\r\nseat 1:   ann  "
    )
    imported = read_text(get_game("summy"), text)
    assert imported.names == ("ann", None) and len(imported.moves) == 1
    assert imported.moves[0].text == "V -3,0 1+7[=]8"


def test_an_unknown_game_has_no_notation() -> None:
    assert notation_of("no such game") is None


DOCS = Path(__file__).resolve().parents[3] / "docs" / "notation.md"
EXAMPLES = DOCS.parents[1] / "examples"
EXAMPLE_RECORDS = {"summy": "summy-record.json", "slide": "slide-game.json"}
"""The record each game's example text (``examples/<game>-game.txt``) was written from."""


def test_the_docs_examples_and_the_example_files_read_and_write_back_byte_for_byte() -> None:
    blocks = re.findall(r"```text\n(.*?)```", DOCS.read_text(encoding="utf-8"), re.S)
    assert len(blocks) == 2
    for block in blocks:
        name = re.search(r"^game: (\w+)$", block, re.M)
        assert name is not None
        imported = read_text(get_game(name[1]), block)
        assert imported.moves and all(imported.names)
    for name in GAMES:
        text = (EXAMPLES / f"{name}-game.txt").read_text(encoding="utf-8")
        record = GameRecord.from_json(
            json.loads((EXAMPLES / EXAMPLE_RECORDS[name]).read_text(encoding="utf-8"))
        )
        imported = read_text(get_game(name), text)
        assert imported.record == record
        assert write_text(get_game(name), record, imported.names) == text
        if name == "summy":
            assert text.strip() == blocks[0].strip()  # the page shows the whole file


def test_the_docs_list_every_reason_a_text_is_refused_for() -> None:
    sources = [Path(notation_module.__file__)]
    sources += [
        DOCS.parents[1] / "src" / "meeple" / "games" / name / "game_text.py" for name in GAMES
    ]
    raised = set()
    for source in sources:
        raised |= set(re.findall(r'"(notation_[a-z]+)"', source.read_text(encoding="utf-8")))
    listed = set(re.findall(r"^\| `(notation_[a-z]+)` \|", DOCS.read_text(), re.M))
    assert raised == listed and len(listed) >= 12
