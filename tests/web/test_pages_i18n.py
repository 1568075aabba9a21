"""The catalogs: complete in every language, every key used exists, engine messages translated."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from meeple.games import GAME_NAMES, browser_folder
from meeple.games.base import IllegalAction
from meeple.games.summy.rules import check_placement
from meeple.games.summy.tiles import Equation, Placement
from meeple.i18n import LANGUAGES, PO_DIR, catalog, game_catalog, read_catalog
from meeple.i18n.messages import translate

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
    english_plurals, other_plurals = catalog("en").plurals, catalog(lang).plurals
    assert set(other_plurals) == set(english_plurals)
    for key, forms in other_plurals.items():
        assert "other" in forms, key
        for text in forms.values():
            assert fields(text) == fields(english_plurals[key]["other"]), key


def used_keys() -> set[str]:
    keys: set[str] = set()
    folders = [WEB / "pages" / "templates", WEB / "static" / "js"]
    folders += [browser_folder(game) for game in GAME_NAMES]  # each game's pages and scripts
    for folder in folders:
        for template in folder.rglob("*.html"):
            keys |= set(re.findall(r"""_\(["']([a-z_.]+[a-z_])["']""", template.read_text()))
        for script in folder.rglob("*.js"):
            keys |= set(re.findall(r"""\bt\("([a-z_.]+[a-z_])"[,)]""", script.read_text()))
    # Keys built from a prefix and a value ("game." + game) are checked by the page tests.
    return {key for key in keys if not key.endswith(("_", "."))}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_game_brings_its_own_texts_and_meeples_catalogs_name_none(lang: str) -> None:
    # A game's texts come through its registration (FEATURES.messages), a built-in game's
    # as a plugin's: its name, its pitch, its rules page, its refusals, its scripts' words.
    own = read_catalog(PO_DIR / f"{lang}.po", lang)
    for game in GAME_NAMES:
        named = re.compile(rf"(^|[^a-z]){game}([^a-z]|$)")
        assert [key for key in [*own.messages, *own.plurals] if named.search(key)] == [], game
        texts = game_catalog(game, lang)
        assert texts is not None, game
        assert texts.has(f"game.{game}") and texts.has(f"home.pitch_{game}"), game


def test_every_key_used_by_a_template_or_script_is_in_the_catalog() -> None:
    keys = used_keys()
    assert len(keys) > 150
    assert sorted(key for key in keys if not catalog("en").has(key)) == []  # plurals too


def test_translations_go_by_code_not_by_matching_sentences() -> None:
    source = (WEB.parent / "i18n" / "messages.py").read_text()
    assert "import re" not in source and "PATTERNS" not in source
    script = (WEB / "static" / "js" / "i18n.js").read_text()
    assert "RegExp" not in script


START = {(0, 0): "="}
FIRST = {(0, -3): "1", (0, -2): "+", (0, -1): "1", (0, 0): "=", (0, 1): "2"}
FIRST_EQ = [Equation(0, -3, "H", 5)]
HAND = ("1", "+", "1", "2", "3", "0", "x", "=")


def engine_refusal(
    table: dict[tuple[int, int], str],
    equations: list[Equation],
    direction: str,
    tiles: tuple[tuple[tuple[int, int], str], ...],
) -> IllegalAction:
    try:
        check_placement(table, equations, HAND, Placement(direction, tiles))  # type: ignore[arg-type]
    except IllegalAction as exc:
        return exc
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
    refusal = engine_refusal(*case)  # type: ignore[arg-type]
    translated = translate(lang, refusal.code, refusal.params, str(refusal))
    assert translated != str(refusal), (refusal.code, str(refusal))
    assert "{" not in translated
    english = translate("en", refusal.code, refusal.params, "")
    assert english.rstrip(".").lower() == str(refusal).lower(), refusal.code


TOO_SHORT_FR = "Le mot de passe est trop court : au moins"


@pytest.mark.parametrize(
    ("code", "params", "lang", "expected"),
    [
        ("eq_false", {"left": "2+3x4", "value": "14", "claimed": 20}, "it", "2+3x4 fa 14, non 20."),
        (
            "sealed_after",
            {"cell": "(0,2)", "equation": "1+1=2"},
            "en",
            "The cell (0,2) is sealed: it is just after the equation 1+1=2.",
        ),
        (
            "hole_top",
            {},
            "ja",
            "カードを穴に直接入れることはできません：穴は0行目なので、上からは入れられません。",
        ),
        (
            "not_in_pool",
            {"value": 7, "pool": "1, 3"},
            "fr",
            "Il n'y a pas de 7 dans la réserve (elle contient 1, 3).",
        ),
        ("no_player", {"name": "'zed'"}, "it", "Non c'è nessun giocatore 'zed'."),
        (
            "rate_limited",
            {"seconds": 42},
            "ja",
            "リクエストが多すぎます：42 秒後にもう一度どうぞ。",
        ),
        (
            "password_short",
            {"count": 1},
            "fr",
            "Le mot de passe est trop court : au moins 1 caractère.",
        ),
        (
            "password_short",
            {"count": 9},
            "fr",
            "Le mot de passe est trop court : au moins 9 caractères.",
        ),
        ("a_code_nobody_knows", {}, "fr", "the English fallback"),
        ("eq_false", {"left": "1+1"}, "fr", "the English fallback"),
    ],
)
def test_refusals_are_translated_by_code(
    code: str, params: dict[str, object], lang: str, expected: str
) -> None:
    assert translate(lang, code, params, "the English fallback") == expected


def test_every_refusal_code_the_server_sends_has_a_text_in_every_language() -> None:
    from meeple.errors import Code

    for lang in LANGUAGES:
        missing = sorted(code for code in Code if not catalog(lang).has(f"engine.{code}"))
        assert missing == [], lang


def test_a_refusals_text_names_only_the_params_its_code_sends() -> None:
    """A text's blanks are among its code's params (and ``wait``, made from ``seconds``), so
    no page falls back to English for want of a value the server never sends."""
    from meeple.errors import Code

    english = catalog("en")
    for code in Code:
        forms = english.plurals.get(f"engine.{code}", {})
        text = english.messages.get(f"engine.{code}") or forms.get("other", "")
        sent = set(code.params or ())
        assert fields(text) <= sent | ({"wait"} if "seconds" in sent else set()), code
