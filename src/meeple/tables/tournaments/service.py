"""Tournaments as players and programs ask for them: create, list, read, join, withdraw,
pause, cancel (docs/tournaments.md, "The API"). What happens after the start is the
runner's (:mod:`.runner`)."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

from meeple.config import Settings
from meeple.errors import Code
from meeple.store import tournaments as store
from meeple.store.database import Database
from meeple.store.models import User
from meeple.store.tournament_models import Tournament
from meeple.tables.clock import Clock
from meeple.tables.lobby.matchmaking import new_table_id
from meeple.tables.tournaments import shown
from meeple.tables.tournaments.field import field_of
from meeple.tables.tournaments.news import announce_changed
from meeple.tables.tournaments.plan import TournamentAsk, check_ask, tournament_row
from meeple.tables.tournaments.runner import TournamentRunner

LIST_LIMIT = 100
"""Tournaments a list shows at most."""


class Tournaments:
    """Every request about tournaments, checked and stored."""

    def __init__(
        self,
        db: Database,
        clock: Clock,
        settings: Settings,
        runner: TournamentRunner,
        entered: Callable[[User, Tournament], None] | None = None,
    ) -> None:
        """``entered``: told of each join, after it is stored (the followers' notices)."""
        self.db, self.clock, self.settings, self.runner = db, clock, settings, runner
        self.entered = entered

    async def create(self, user: User, ask: TournamentAsk) -> dict[str, Any]:
        """Create a tournament (its creator does not join by that); it, with its link secret
        when private."""
        now = self.clock.now()
        plan = check_ask(ask, now)
        tournament_id = new_table_id()
        secret = secrets.token_urlsafe(12) if ask.private else None
        values = tournament_row(plan, tournament_id, user.id, secret, now)
        cap = self.settings.max_open_tournaments
        if not await self.db.run(store.insert_tournament_within, values, cap):
            raise Code.TOO_MANY_TOURNAMENTS.error(limit=cap)
        return await self.get(user, tournament_id, secret)

    async def listing(self, status: str) -> list[dict[str, Any]]:
        """Public tournaments in ``status`` (``scheduled``, ``running``, ``finished``), the
        soonest start first (finished ones: the last finished first)."""
        rows = await self.db.run(store.public_tournaments, [status], LIST_LIMIT)
        return [shown.tournament_json(tournament, players) for tournament, players in rows]

    async def _find(self, user: User | None, tournament_id: str, secret: str | None) -> Tournament:
        """The tournament, if ``user`` may see it: public, its creator's, an entrant's, or
        asked for with its link's secret; else ``no_tournament``."""
        tournament = await self.db.run(store.tournament_by_id, tournament_id)
        if tournament is None:
            raise Code.NO_TOURNAMENT.error()
        if tournament.private and not (secret is not None and secret == tournament.secret):
            mine = user is not None and user.id == tournament.creator_id
            if not mine and not (user is not None and await self._entered(tournament, user)):
                raise Code.NO_TOURNAMENT.error()
        return tournament

    async def _entered(self, tournament: Tournament, user: User) -> bool:
        rows = await self.db.run(store.entrants_of, tournament.id)
        return any(row_user.id == user.id for _, row_user in rows)

    async def get(
        self, user: User | None, tournament_id: str, secret: str | None = None
    ) -> dict[str, Any]:
        """A tournament with its standings (and, for its creator, a private one's secret)."""
        tournament = await self._find(user, tournament_id, secret)
        field = await field_of(self.db, tournament)
        games = await self.db.run(store.games_of, tournament.id)
        byes = await self.db.run(store.byes_of, tournament.id)
        players = sum(1 for entrant in field.entrants if not entrant.withdrawn)
        shown_json = shown.tournament_json(tournament, players)
        shown_json["standings"] = shown.standings_json(
            tournament, field.entrants, field.people, games, byes
        )
        paused = {user.id for entrant, user in field.rows if entrant.paused}
        for line in shown_json["standings"]:
            line["paused"] = line["player"]["id"] in paused
        mine = user is not None and user.id == tournament.creator_id
        shown_json["secret"] = tournament.secret if mine else None
        return shown_json

    async def pairings(
        self, user: User | None, tournament_id: str, secret: str | None = None
    ) -> list[dict[str, Any]]:
        """Every round paired (an arena: every pass), newest first."""
        tournament = await self._find(user, tournament_id, secret)
        field = await field_of(self.db, tournament)
        rounds = [(r.round, r.deadline) for r in await self.db.run(store.rounds_of, tournament.id)]
        games = await self.db.run(store.games_of, tournament.id)
        byes = await self.db.run(store.byes_of, tournament.id)
        return shown.pairings_json(rounds, games, byes, field.people)

    async def join(self, user: User, tournament_id: str, secret: str | None) -> dict[str, Any]:
        """Enter ``user`` (again, after a withdrawal) while the tournament is not over."""
        tournament = await self._find(user, tournament_id, secret)
        if user.bot and not tournament.bots_allowed:
            raise Code.NO_BOTS_HERE.error()
        refused = await self.db.run(store.join, tournament.id, user.id, self.clock.now())
        if refused == "full":
            raise Code.TOURNAMENT_FULL.error(limit=tournament.max_players)
        if refused is not None:
            raise Code.TOURNAMENT_OVER.error(status=refused)
        if self.entered is not None:
            self.entered(user, tournament)
        return await self._changed(user, tournament.id, secret)

    async def withdraw(self, user: User, tournament_id: str) -> dict[str, Any]:
        """Take ``user`` out: not paired again; its games so far still count."""
        tournament = await self._find(user, tournament_id, None)
        if tournament.status not in store.OPEN_STATUSES:
            raise Code.TOURNAMENT_OVER.error(status=tournament.status)
        if not await self.db.run(store.withdraw, tournament.id, user.id, self.clock.now()):
            raise Code.NOT_ENTERED.error()
        return await self._changed(user, tournament.id)

    async def pause(self, user: User, tournament_id: str, paused: bool) -> dict[str, Any]:
        """Pause ``user`` (not paired until resumed, in either format), or resume."""
        tournament = await self._find(user, tournament_id, None)
        if tournament.status not in store.OPEN_STATUSES:
            raise Code.TOURNAMENT_OVER.error(status=tournament.status)
        if not await self.db.run(store.set_paused, tournament.id, user.id, paused):
            raise Code.NOT_ENTERED.error()
        return await self._changed(user, tournament.id)

    async def add_bots(
        self, user: User, tournament_id: str, level: str, count: int
    ) -> dict[str, Any]:
        """The creator fills a casual (unrated) tournament with ``count`` built-in bots of
        ``level``."""
        tournament = await self._find(user, tournament_id, None)
        if tournament.creator_id != user.id:
            raise Code.NOT_ORGANIZER.error(what="add bots")
        if tournament.rated:
            raise Code.NO_BUILTIN_BOTS.error()
        refused = await self.db.run(store.add_bots, tournament.id, level, count)
        if refused == "full":
            raise Code.TOURNAMENT_FULL.error(limit=tournament.max_players)
        if refused is not None:
            raise Code.TOURNAMENT_OVER.error(status=refused)
        return await self._changed(user, tournament.id)

    async def cancel(self, user: User, tournament_id: str) -> dict[str, Any]:
        """The creator cancels before the start."""
        tournament = await self._find(user, tournament_id, None)
        if tournament.creator_id != user.id:
            raise Code.NOT_ORGANIZER.error(what="cancel it")
        now = self.clock.now()
        if not await self.db.run(
            store.set_status, tournament.id, [store.SCHEDULED], store.CANCELLED, now
        ):
            if tournament.status in (store.FINISHED, store.CANCELLED):
                raise Code.TOURNAMENT_OVER.error(status=tournament.status)
            raise Code.TOURNAMENT_STARTED.error()
        return await self._changed(user, tournament.id)

    async def _changed(
        self, user: User, tournament_id: str, secret: str | None = None
    ) -> dict[str, Any]:
        """After a change: have the runner look now, tell the tournament's watchers, and
        answer the tournament as it is now."""
        self.runner.wake()
        await announce_changed(self.runner.notifier.bus, [tournament_id])
        return await self.get(user, tournament_id, secret)
