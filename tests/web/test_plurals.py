"""Plurals are real plural forms in every language, never "tile(s)" or "tessera/e"."""

from __future__ import annotations

import re

import pytest

from meeple.i18n import LANGUAGES, catalog

HEDGED = re.compile(r"\w\((?:s|e|i|es)\)|\w/(?:e|i|a|s)\b")
"""An English or French "(s)", an Italian "/e" or "/i": a plural form dodged."""


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_text_dodges_a_plural(lang: str) -> None:
    texts = catalog(lang)
    every = [
        *texts.messages.values(),
        *(f for forms in texts.plurals.values() for f in forms.values()),
    ]
    assert [text for text in every if HEDGED.search(text)] == []


DISCARDS = {
    "en": ("A discarded 1 tile.", "A discarded 8 tiles."),
    "fr": ("A a défaussé 1 tuile.", "A a défaussé 8 tuiles."),
    "it": ("A ha scartato 1 tessera.", "A ha scartato 8 tessere."),
    "ja": ("A がタイルを 1 枚捨てました。", "A がタイルを 8 枚捨てました。"),
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_discard_says_tile_or_tiles_by_the_language_rule(lang: str) -> None:
    texts = catalog(lang)
    one, many = (texts.gettext("js.summy.log_discard", name="A", n=n, count=n) for n in (1, 8))
    assert (one, many) == DISCARDS[lang]


MISSED = {
    "en": ("1 point missed", "3 points missed"),
    "fr": ("1 point manqué", "3 points manqués"),
    "it": ("1 punto perso", "3 punti persi"),
    "ja": ("1点の取りこぼし", "3点の取りこぼし"),
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_review_line_says_point_or_points_by_the_language_rule(lang: str) -> None:
    texts = catalog(lang)
    one, many = (texts.gettext("js.review.missed", n=n, count=n) for n in (1, 3))
    assert (one, many) == MISSED[lang]
    summary = texts.gettext("js.review.summary", missed=1, count=1, per="0.1", share=88)
    assert summary.startswith(("1 point ", "1 punto ", "取りこぼし1点"))
