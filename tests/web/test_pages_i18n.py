"""The catalogs: complete in every language, every key used exists, engine messages translated."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from meeple.games.base import IllegalAction
from meeple.games.summy.rules import check_placement
from meeple.games.summy.tiles import Equation, Placement
from meeple.i18n import LANGUAGES, catalog
from meeple.i18n.messages import PATTERNS, translate

WEB = Path(__file__).parents[2] / "src" / "meeple" / "web"
FIELD = re.compile(r"\{(\w*)\}")


def fields(text: str) -> set[str]:
    return set(FIELD.findall(text))


@pytest.mark.parametrize("lang", LANGUAGES[1:])
def test_every_language_has_every_key_with_the_same_fields(lang: str) -> None:
    english = catalog("en").messages
    other = catalog(lang).messages
    assert set(other) == set(english)
    for key, text in english.items():
        assert fields(other[key]) == fields(text), key


def used_keys() -> set[str]:
    keys: set[str] = set()
    for template in (WEB / "pages" / "templates").glob("*.html"):
        keys |= set(re.findall(r"""_\(["']([a-z_.]+[a-z_])["']""", template.read_text()))
    for script in (WEB / "static" / "js").glob("*.js"):
        keys |= set(re.findall(r"""\bt\("([a-z_.]+[a-z_])"[,)]""", script.read_text()))
    # Keys built from a prefix and a value ("game." + game) are checked by the page tests.
    return {key for key in keys if not key.endswith(("_", "."))}


def test_every_key_used_by_a_template_or_script_is_in_the_catalog() -> None:
    keys = used_keys()
    assert len(keys) > 150
    assert sorted(keys - set(catalog("en").messages)) == []


def test_every_pattern_names_a_catalog_key() -> None:
    for _pattern, key in PATTERNS:
        assert key in catalog("en").messages


START = {(0, 0): "="}
FIRST = {(0, -3): "1", (0, -2): "+", (0, -1): "1", (0, 0): "=", (0, 1): "2"}
FIRST_EQ = [Equation(0, -3, "H", 5)]
HAND = ("1", "+", "1", "2", "3", "0", "x", "=")


def engine_message(
    table: dict[tuple[int, int], str],
    equations: list[Equation],
    direction: str,
    tiles: tuple[tuple[tuple[int, int], str], ...],
) -> str:
    try:
        check_placement(table, equations, HAND, Placement(direction, tiles))  # type: ignore[arg-type]
    except IllegalAction as exc:
        return str(exc)
    raise AssertionError("the placement was legal")


ENGINE_CASES = [
    (START, [], "H", (((0, -3), "1"), ((0, -2), "+"), ((0, -1), "1"), ((0, 1), "3"))),
    (START, [], "H", (((0, -3), "1"), ((1, -2), "+"))),
    (START, [], "V", (((0, -3), "1"), ((1, -2), "+"))),
    (START, [], "H", (((0, -3), "9"),)),
    (START, [], "H", (((0, 0), "1"),)),
    (START, [], "H", (((0, -3), "1"), ((0, -1), "1"))),
    (
        START,
        [],
        "H",
        (((2, -3), "1"), ((2, -2), "+"), ((2, -1), "1"), ((2, 0), "="), ((2, 1), "2")),
    ),
    (FIRST, FIRST_EQ, "H", (((0, 2), "0"),)),
    (FIRST, FIRST_EQ, "H", (((0, -4), "1"),)),
    (START, [], "H", (((0, -2), "0"), ((0, -1), "1"), ((0, 1), "1"))),
    (START, [], "H", (((0, -2), "x"), ((0, -1), "1"), ((0, 1), "1"))),
    (START, [], "H", (((0, -2), "1"), ((0, -1), "2"), ((0, 1), "3"))),
]


@pytest.mark.parametrize("lang", ["fr", "ja", "it"])
@pytest.mark.parametrize("case", ENGINE_CASES)
def test_real_engine_messages_are_translated(
    lang: str, case: tuple[dict[tuple[int, int], str], list[Equation], str, tuple[object, ...]]
) -> None:
    message = engine_message(*case)  # type: ignore[arg-type]
    translated = translate(lang, message)
    assert translated != message, message
    assert "{" not in translated


@pytest.mark.parametrize(
    ("message", "lang", "expected"),
    [
        ("2+3x4 is 14, not 20", "it", "2+3x4 fa 14, non 20."),
        (
            "the cell (0,2) is sealed: it is just after the equation 1+1=2",
            "en",
            "The cell (0,2) is sealed: it is just after the equation 1+1=2.",
        ),
        (
            "you cannot slide a card straight into the hole: the hole is in row 0, "
            "so the card cannot enter from the top",
            "ja",
            "カードを穴に直接入れることはできません：穴は0行目なので、上からは入れられません。",
        ),
        (
            "there is no 7 in the pool (the pool holds 1, 3)",
            "fr",
            "Il n'y a pas de 7 dans la réserve (elle contient 1, 3).",
        ),
        ("there is no player 'zed'", "it", "Non c'è nessun giocatore 'zed'."),
        (
            "too many log-in attempts; try again in 42 s",
            "ja",
            "リクエストが多すぎます：42 秒後にもう一度どうぞ。",
        ),
        ("a message nobody knows", "fr", "a message nobody knows"),
    ],
)
def test_message_shapes(message: str, lang: str, expected: str) -> None:
    assert translate(lang, message) == expected
