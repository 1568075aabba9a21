"""Translations of every text the pages show, in English, French, Japanese and Italian.

Each language has one gettext catalog, ``po/<lang>.po``, read with Babel at
start-up (no compile step). Message ids are dotted keys such as
``nav.sign_in``, never English sentences: a key that a catalog lacks is shown
as the key itself, so a missing translation is visible on the page and the
browser tests catch it. Each game brings its own texts (its name, its
rules, its refusals, the words of its scripts) in its browser folder
(``GameFeatures.messages``, see :func:`game_catalog`), built-in games too:
they are added to meeple's, which name no game and keep their words on a clash.

>>> catalog("fr").gettext("nav.play")
'Jouer'
>>> negotiate("ja,en;q=0.5", None)
'ja'
>>> negotiate("de-DE,de;q=0.9", "it")
'it'
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from functools import cache
from pathlib import Path
from typing import Any

from babel import Locale
from babel.messages.pofile import read_po
from babel.plural import PluralRule

from meeple.games import GAME_NAMES, browser_folder, features_of

LANGUAGES: tuple[str, ...] = ("en", "fr", "ja", "it")
"""Every language the pages come in; the first is the fallback."""

LANGUAGE_NAMES: dict[str, str] = {
    "en": "English",
    "fr": "Français",
    "ja": "日本語",
    "it": "Italiano",
}
"""Each language's name in that language, for the language switch."""

LANG_COOKIE = "meeple_lang"
"""The cookie that remembers a chosen language."""

PO_DIR = Path(__file__).parent / "po"

_log = logging.getLogger(__name__)


CLDR_ORDER = ("zero", "one", "two", "few", "many", "other")
"""The order of a gettext entry's plural forms, by CLDR category (as Babel writes them)."""


@cache
def _plural_rule(lang: str) -> PluralRule:
    """The CLDR plural rule of ``lang`` (parsed once)."""
    return Locale.parse(lang).plural_form


def plural_categories(lang: str) -> tuple[str, ...]:
    """The CLDR plural categories of ``lang``, in the order of its gettext plural forms.

    >>> plural_categories("fr"), plural_categories("ja")
    (('one', 'many', 'other'), ('other',))
    """
    tags = _plural_rule(lang).tags | {"other"}
    return tuple(tag for tag in CLDR_ORDER if tag in tags)


@dataclass(frozen=True)
class Catalog:
    """One language's messages: ``gettext(key, **values)`` fills ``{name}`` fields.

    A plural entry (``msgid_plural`` in the .po file) has one text per CLDR
    category; the ``count`` value picks it (``Intl.PluralRules`` does the same
    in the browser).

    >>> catalog("en").gettext("engine.password_short", count=1)
    'The password is too short: at least 1 character.'
    """

    lang: str
    messages: dict[str, str]
    plurals: dict[str, dict[str, str]] = dataclass_field(default_factory=dict)

    def has(self, key: str) -> bool:
        """Whether this catalog has a text for ``key``."""
        return key in self.messages or key in self.plurals

    def gettext(self, key: str, **values: Any) -> str:
        """The text for ``key``, or the key itself when this catalog lacks it."""
        forms = self.plurals.get(key)
        if forms is not None:
            count = values.get("count", 0)
            category = _plural_rule(self.lang)(count if isinstance(count, int) else 0)
            return (forms.get(category) or forms.get("other", key)).format(**values)
        single = self.messages.get(key)
        if not single:
            return key
        return single.format(**values) if values else single

    def with_prefix(self, *prefixes: str) -> dict[str, str | dict[str, str]]:
        """The messages whose keys start with one of ``prefixes`` (for the JS catalog).

        A plural entry is an object of its texts by CLDR category.
        """
        found: dict[str, str | dict[str, str]] = {
            k: v for k, v in self.messages.items() if k.startswith(prefixes)
        }
        found.update({k: v for k, v in self.plurals.items() if k.startswith(prefixes)})
        return found


def read_catalog(path: Path, lang: str) -> Catalog:
    """The messages of one .po file in ``lang`` (its plural forms in that language's order)."""
    with path.open("rb") as handle:
        po = read_po(handle, locale=lang)
    messages = {
        str(message.id): str(message.string)
        for message in po
        if message.id and isinstance(message.id, str) and message.string
    }
    categories = plural_categories(lang)
    plurals = {
        str(message.id[0]): dict(zip(categories, map(str, message.string), strict=False))
        for message in po
        if isinstance(message.id, tuple)
        and isinstance(message.string, tuple | list)
        and all(message.string)
    }
    return Catalog(lang, messages, plurals)


def catalog(lang: str) -> Catalog:
    """The catalog of ``lang`` (one of :data:`LANGUAGES`): meeple's, then each game's own.

    Read once for the games registered now (a game registered later makes a new one).
    """
    if lang not in LANGUAGES:
        raise KeyError(f"unknown language {lang!r}; choose one of: {', '.join(LANGUAGES)}")
    return _catalog(lang, tuple(GAME_NAMES))


@cache
def _catalog(lang: str, games: tuple[str, ...]) -> Catalog:
    """meeple's catalog of ``lang`` with the messages of ``games`` added (see :func:`game_catalog`).

    A key meeple's own catalog has keeps meeple's text, and a key two games
    both have keeps the first registered game's: a game adds words, it never
    rewords another's page. Each ignored text is logged once.
    """
    merged = read_catalog(PO_DIR / f"{lang}.po", lang)
    messages, plurals = dict(merged.messages), dict(merged.plurals)
    for game in games:
        own = game_catalog(game, lang)
        if own is None:
            continue
        taken = messages.keys() | plurals.keys()
        clashes = sorted((own.messages.keys() | own.plurals.keys()) & taken)
        if clashes:
            _log.warning("game %r: its %s texts of taken keys are ignored: %s", game, lang, clashes)
        for key, text in own.messages.items():
            if key not in messages and key not in plurals:
                messages[key] = text
        for key, forms in own.plurals.items():
            if key not in messages and key not in plurals:
                plurals[key] = forms
    return Catalog(lang, messages, plurals)


def game_catalog(game: str, lang: str) -> Catalog | None:
    """The game's own messages in ``lang`` (``GameFeatures.messages``: a folder of ``<lang>.po``).

    A language the game's folder lacks takes its English file; ``None`` for a
    game without messages of its own.
    """
    folder = features_of(game).messages
    if folder is None:
        return None
    root = browser_folder(game) / folder
    for code in (lang, LANGUAGES[0]):
        if (root / f"{code}.po").is_file():
            return read_catalog(root / f"{code}.po", code)
    return None


def parse_accept_language(header: str) -> list[str]:
    """The primary language codes of an Accept-Language header, preferred first.

    >>> parse_accept_language("fr-CH, fr;q=0.9, en;q=0.8, *;q=0.5")
    ['fr', 'fr', 'en', '*']
    """
    weighted: list[tuple[float, int, str]] = []
    for index, part in enumerate(header.split(",")):
        fields = part.strip().split(";")
        code = fields[0].strip().lower().split("-")[0]
        if not code:
            continue
        quality = 1.0
        for field in fields[1:]:
            name, _, value = field.strip().partition("=")
            if name == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if quality > 0:
            weighted.append((-quality, index, code))
    return [code for _q, _i, code in sorted(weighted)]


def negotiate(accept_language: str | None, chosen: str | None) -> str:
    """The language to show: a chosen one (the cookie) first, then the browser's, else English."""
    if chosen in LANGUAGES:
        return str(chosen)
    for code in parse_accept_language(accept_language or ""):
        if code in LANGUAGES:
            return code
    return LANGUAGES[0]
