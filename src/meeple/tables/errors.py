"""The tables layer's refusal: :class:`meeple.errors.TableError`, under the name the
tables and web modules import it by."""

from __future__ import annotations

from meeple.errors import TableError

__all__ = ["TableError"]
