"""The one normal form in which user names are compared, looked up and kept unique.

Two names that read the same must be one account: ``Bob``, ``bob``, the
fullwidth ``ｂｏｂ`` and ``bob`` followed by a line break all have the key
``bob``. The key is Unicode NFKC (compatibility forms folded: fullwidth
letters, ligatures, the Kelvin sign), without the characters that do not
show (controls, format characters such as zero-width spaces, line and
paragraph separators), case-folded, and NFKC again (case folding can undo
it). The store keeps the key in ``users.name_key`` under a UNIQUE index.
"""

from __future__ import annotations

import unicodedata

INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp"})
"""Unicode categories of characters that do not show: a key leaves them out."""


def shown_name(name: str) -> str:
    """``name`` as it is stored and displayed: NFKC, its case kept (``Ｂｏｂ`` is ``Bob``)."""
    return unicodedata.normalize("NFKC", name)


def name_key(name: str) -> str:
    """The normal form that decides whether two names are the same account."""
    visible = "".join(
        char for char in shown_name(name) if unicodedata.category(char) not in INVISIBLE_CATEGORIES
    )
    return unicodedata.normalize("NFKC", visible.casefold())


def one_line(text: str) -> str:
    """``text`` with each run of characters that do not show (line breaks, controls, format
    characters) made one space: what an email header or a one-line list may carry.

    >>> one_line("Bob\\r\\nBcc: eve")
    'Bob Bcc: eve'
    """
    parts: list[str] = []
    gap = False
    for char in text:
        if unicodedata.category(char) in INVISIBLE_CATEGORIES:
            gap = True
            continue
        if gap and parts:
            parts.append(" ")
        gap = False
        parts.append(char)
    return "".join(parts)
