"""A challenge as an event-stream line carries it (docs/bot-api.md, Challenges).

The event stream's opening ``challenge`` lines and the lines published as a
challenge changes (:mod:`meeple.tables.lobby.challenges`) share this one form.
"""

from __future__ import annotations

from meeple.tables.facade import challenge_json

__all__ = ["challenge_json"]
