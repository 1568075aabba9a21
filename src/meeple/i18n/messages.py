"""Translating refusals and results by their code: the catalog key ``engine.<code>``.

The engines and the server refuse with a stable code (the rule) and the
parameters of its sentence, with the English sentence as the fallback (see
:class:`meeple.games.base.Refusal` and :class:`meeple.errors.TableError`).
Each language's catalog has a text per code with the parameters as named
fields; a code a catalog lacks shows the English. The pages' scripts do the
same with the same keys (``translateRefusal`` in ``static/js/i18n.js``).

>>> translate("fr", "eq_false", {"left": "2+3x4", "value": "14", "claimed": 20}, "...")
'2+3x4 vaut 14, pas 20.'
>>> translate("ja", "something_new", {}, "something new")
'something new'
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from babel.units import format_unit

from meeple.i18n import catalog

PREFIX = "engine."
"""Where refusal and result texts live in the catalogs."""


def wait_text(lang: str, seconds: float) -> str:
    """A wait in ``lang`` (CLDR units): seconds under a minute, else minutes rounded up.

    >>> wait_text("fr", 1841), wait_text("ja", 42)
    ('31 minutes', '42 秒')
    """
    wait = max(1, math.ceil(seconds))
    if wait < 60:
        return format_unit(wait, "duration-second", length="long", locale=lang)
    return format_unit(math.ceil(wait / 60), "duration-minute", length="long", locale=lang)


def translate(lang: str, code: str | None, params: Mapping[str, Any], english: str) -> str:
    """The refusal (or result reason) ``code`` in ``lang``, else ``english`` unchanged.

    A refusal that gives its wait in ``seconds`` also fills ``{wait}`` (:func:`wait_text`),
    as the pages' scripts do.
    """
    if not code:
        return english
    texts = catalog(lang)
    key = PREFIX + code
    if not texts.has(key):
        return english
    values = dict(params)
    if isinstance(values.get("seconds"), int | float) and "wait" not in values:
        values["wait"] = wait_text(lang, values["seconds"])
    try:
        return texts.gettext(key, **values)
    except (KeyError, IndexError, ValueError):  # a text naming a field the params lack
        return english
