"""Translating refusals and results by their code: the catalog key ``engine.<code>``.

The engines and the server refuse with a stable code (the rule) and the
parameters of its sentence, with the English sentence as the fallback (see
:class:`meeple.games.base.Refusal` and :class:`meeple.tables.errors.TableError`).
Each language's catalog has a text per code with the parameters as named
fields; a code a catalog lacks shows the English. The pages' scripts do the
same with the same keys (``translateRefusal`` in ``static/js/i18n.js``).

>>> translate("fr", "eq_false", {"left": "2+3x4", "value": "14", "claimed": 20}, "...")
'2+3x4 vaut 14, pas 20.'
>>> translate("ja", "something_new", {}, "something new")
'something new'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from meeple.i18n import catalog

PREFIX = "engine."
"""Where refusal and result texts live in the catalogs."""


def translate(lang: str, code: str | None, params: Mapping[str, Any], english: str) -> str:
    """The refusal (or result reason) ``code`` in ``lang``, else ``english`` unchanged."""
    if not code:
        return english
    texts = catalog(lang)
    key = PREFIX + code
    if not texts.has(key):
        return english
    try:
        return texts.gettext(key, **params)
    except (KeyError, IndexError, ValueError):  # a text naming a field the params lack
        return english
