"""A seat's legal actions at a table's newest version, listed once and shared as JSON text.

A game stream adds its seat's legal list to a line after which the seat must act
(docs/bot-api.md). A position may have thousands of moves, and a table may have a
hundred streams on one seat: each listing them, a move of a watched table cost over a
second of CPU. So the list is made once per (version, seat), in a worker thread so the
event loop serves on meanwhile, every stream of the seat awaiting that one run, and
each line with its list is written once for all of them. Only the newest version is
kept: a list is offered only while its version is the table's newest.
"""

from __future__ import annotations

import asyncio
from typing import Any

from meeple.games.base import AnyGame
from meeple.jsontext import dumps


def legal_text(game: AnyGame, state: Any, seat: int) -> str:
    """Every legal action of ``seat`` in ``state``, in the game's JSON form, as JSON text."""
    return dumps([game.action_json(action) for action in game.legal_actions(state, seat)])


class LegalLists:
    """One table's legal lists at its newest version, each made once and shared."""

    def __init__(self) -> None:
        self._version = -1
        self._runs: dict[int, asyncio.Future[str]] = {}
        """Seat -> the run listing its actions at :attr:`_version` (done or under way)."""
        self._lines: dict[tuple[int, str], asyncio.Future[str]] = {}
        """(seat, a line's text) -> that line with the seat's list added, at :attr:`_version`."""

    def newest(self, version: int) -> bool:
        """Whether ``version`` is the newest seen; a newer one lets the older lists go (a
        finished game's last list too, once its finish is sent)."""
        if version > self._version:
            self._version = version
            self._runs = {}
            self._lines = {}
        return version == self._version

    def _run(self, game: AnyGame, state: Any, version: int, seat: int) -> asyncio.Future[str]:
        run = self._runs.get(seat) if self.newest(version) else None
        if run is None:
            run = asyncio.ensure_future(asyncio.to_thread(legal_text, game, state, seat))
            if version == self._version:  # never kept for a version already gone
                self._runs[seat] = run
        return run

    async def listed(self, game: AnyGame, state: Any, version: int, seat: int) -> str:
        """The legal actions of ``seat`` in ``state``, the table's newest at ``version``, as
        JSON text: listed in a worker thread by the first caller, awaited by the others.
        A caller cancelled while waiting leaves the run going for the rest."""
        return await asyncio.shield(self._run(game, state, version, seat))

    async def with_legal(
        self, text: str, game: AnyGame, state: Any, version: int, seat: int
    ) -> str:
        """``text``, a JSON object's text, with ``"legal"``: the seat's list (:meth:`listed`)
        added last. Written once per text and seat at a version, for every stream of the
        seat at once (their lines share the event's text, and so the one with the list)."""
        key = (seat, text)
        line = self._lines.get(key) if self.newest(version) else None
        if line is None:
            line = asyncio.ensure_future(_joined(text, self._run(game, state, version, seat)))
            if version == self._version:
                self._lines[key] = line
        return await asyncio.shield(line)


async def _joined(text: str, legal: asyncio.Future[str]) -> str:
    return text[:-1] + ',"legal":' + await asyncio.shield(legal) + "}"
