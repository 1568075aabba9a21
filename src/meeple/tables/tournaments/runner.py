"""Running tournaments: the start, each round's pairing and tables, results, the end.

Every server runs a :class:`TournamentRunner`. Once a second (and at once when a game of
a tournament finished here) it looks at the tournaments scheduled or running and, for
each whose lease it holds (:meth:`Ownership.hold`, ``tournament:<id>``: with no Redis the
one server holds them all), does what is due: at the start time it starts the
tournament (or cancels it for want of players); a Swiss pairs its next round once every
game of the last one is over, an arena pairs its waiting players at every look until
its end; a turn-based round's games still running at its deadline are decided
(:mod:`.deadline`); the tournament finishes after its last round (an arena: after its
end, once its last games are over).

A round is paired once: its games and byes are stored with the round in one conditional
write (:func:`meeple.store.tournaments.store_round`), and only then are its tables
opened, each under the id stored for it. A server that dies between the two leaves games
``pending``; whoever holds the lease next opens those that have no table yet.

Results come from the tables' facts: :meth:`TournamentRunner.game_finished` notes each
finished game on the server running its table, and the next pass of the hook records
those that are tournament games (once, whichever server). A result missed so (a server
killed before its pass) is read from the finished table at the next look.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from typing import Any

from meeple.store import tournaments as store
from meeple.store.database import Database
from meeple.store.tournament_models import Tournament, TournamentGame
from meeple.tables.clock import Clock
from meeple.tables.cluster.owners import Ownership
from meeple.tables.cluster.registry import TableRegistry
from meeple.tables.core.log import FINISHED
from meeple.tables.facts import GameFinished
from meeple.tables.lobby.matchmaking import Matchmaking, new_table_id
from meeple.tables.notices.notifications import NotificationKind, Notifier
from meeple.tables.notices.user_events import publish_user_event
from meeple.tables.tournaments import shown
from meeple.tables.tournaments.deadline import deadline_outcome
from meeple.tables.tournaments.field import Field, field_of
from meeple.tables.tournaments.news import announce_changed
from meeple.tables.tournaments.pairing.arena import Waiting, arena_sheets, pair_arena
from meeple.tables.tournaments.pairing.swiss import pair_swiss
from meeple.tables.tournaments.pairing.swiss_tables import seat_swiss_tables
from meeple.tables.tournaments.plan import (
    TableSettings,
    TournamentAsk,
    check_ask,
    recurring_ask,
    table_spec,
    tournament_row,
)

log = logging.getLogger(__name__)

Present = Callable[[Sequence[int]], Awaitable[set[int]]]
"""Which of these accounts are on the site now (a socket or a Bot API stream open)."""

LOOK_EVERY_S = 1.0
"""How often a server looks at the tournaments (real seconds)."""
LEASE_S = 5.0
"""A tournament's lease runs out this long after its holder's last look."""


class TournamentRunner:
    """Starts, pairs, records and ends the tournaments whose lease this server holds."""

    def __init__(
        self,
        db: Database,
        clock: Clock,
        ownership: Ownership,
        registry: TableRegistry,
        matchmaking: Matchmaking,
        present: Present,
        notifier: Notifier,
        recurring: Sequence[dict[str, Any]] = (),
    ) -> None:
        self.db, self.clock, self.ownership = db, clock, ownership
        self.registry, self.matchmaking, self.present = registry, matchmaking, present
        self.notifier = notifier
        self.recurring = [recurring_ask(entry, clock.now()) for entry in recurring]
        """The site's recurring tournaments: each one's settings and period (checked now, so
        a server given a wrong one refuses to start)."""
        self._changed: set[str] = set()
        """Tournaments changed since the last look: their watchers are told after it."""
        self._finished: list[tuple[str, tuple[int, ...], bool]] = []
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self.looks = 0
        """Looks at the tournaments so far."""

    # The facts' side: note at once, record in the pass.

    def game_finished(self, fact: GameFinished) -> None:
        """A table finished here: note its ranks (no I/O; :meth:`record_due` stores them)."""
        self._finished.append((fact.table_id, tuple(fact.result.ranks), fact.aborted))

    async def record_due(self) -> None:
        """Record the noted finishes that are tournament games; look again at once if any."""
        noted, self._finished = self._finished, []
        if not noted:
            return
        ids = [table_id for table_id, _, _ in noted]
        found = await self.db.run(store.games_of_tables, ids)
        ours = {game.table_id for game in found}
        self._changed |= {game.tournament_id for game in found}
        now = self.clock.now()
        for table_id, ranks, aborted in noted:
            if table_id in ours:
                how = "aborted" if aborted else "played"
                await self.db.run(store.record_finish, table_id, list(ranks), how, now)
        if ours:
            self.wake()

    # The looks.

    def wake(self) -> None:
        """Look at the tournaments now rather than at the next second."""
        self._wake.set()

    def start(self) -> None:
        """Look at the tournaments in the background."""
        if self._task is None:
            self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        """Stop looking."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task
            self._task = None

    async def _run(self) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), LOOK_EVERY_S)
            self._wake.clear()
            try:
                await self.look()
            except Exception:
                log.exception("a look at the tournaments failed")

    async def look(self) -> None:
        """Schedule the site's next recurring tournaments, then do what is due in every
        tournament this server holds."""
        self.looks += 1
        for index, (ask, every_s) in enumerate(self.recurring):
            if await self.ownership.hold(f"recurring:{index}", LEASE_S):
                await self._schedule_next(index, ask, every_s)
        for tournament in await self.db.run(store.tournaments_to_run):
            if not await self.ownership.hold(f"tournament:{tournament.id}", LEASE_S):
                continue
            try:
                await self.advance(tournament)
            except Exception:
                log.exception("tournament %s: a step failed", tournament.id)
        changed, self._changed = self._changed, set()
        await announce_changed(self.notifier.bus, changed)

    async def _schedule_next(self, index: int, ask: TournamentAsk, every_s: int) -> None:
        """Store the next one of recurring tournament ``index``: its start the next multiple
        of ``every_s`` (seconds since the epoch) after now, its id made of both, so it is
        stored once whoever stores it."""
        now = self.clock.now()
        start = (int(now) // every_s + 1) * every_s
        plan = check_ask(replace(ask, starts_at=float(start)), now)
        secret = secrets.token_urlsafe(12) if ask.private else None
        row = tournament_row(plan, f"r{index}-{start}", None, secret, now)
        await self.db.run(store.insert_site_tournament, row)

    async def advance(self, tournament: Tournament) -> None:
        """Do what is due in ``tournament`` now."""
        now = self.clock.now()
        if tournament.status == store.SCHEDULED:
            if now >= tournament.starts_at:
                await self._start(tournament, now)
            return
        games = await self.db.run(store.games_of, tournament.id)
        if await self._open_pending(tournament, games):
            games = await self.db.run(store.games_of, tournament.id)
        games = await self._collect(tournament, games, now)
        playing = [g for g in games if g.status != store.DONE]
        if tournament.format == shown.ARENA:
            end = shown.ends_at(tournament)
            if end is not None and now >= end:
                if not playing:
                    await self._move(tournament, store.RUNNING, store.FINISHED, now)
                return
            await self._pair_arena(tournament, games, now)
            return
        if any(g.round == tournament.round for g in playing):
            return
        if tournament.round >= (tournament.rounds or 0):
            await self._move(tournament, store.RUNNING, store.FINISHED, now)
            return
        await self._pair_swiss(tournament, games, now)

    async def _start(self, tournament: Tournament, now: float) -> None:
        """Start at the start time, or cancel for want of players."""
        players = await self.db.run(store.active_count, tournament.id)
        if players < shown.sizes_of(tournament).least:
            await self._move(tournament, store.SCHEDULED, store.CANCELLED, now)
            return
        if await self._move(tournament, store.SCHEDULED, store.RUNNING, now):
            tournament.status = store.RUNNING
            await self.advance(tournament)

    async def _move(self, tournament: Tournament, before: str, after: str, now: float) -> bool:
        """Move ``tournament`` from status ``before`` to ``after``: whether it moved."""
        moved: bool = await self.db.run(store.set_status, tournament.id, [before], after, now)
        if moved:
            self._changed.add(tournament.id)
        return moved

    async def _collect(
        self, tournament: Tournament, games: list[TournamentGame], now: float
    ) -> list[TournamentGame]:
        """Record results the facts did not bring (a finished table, a round's deadline)."""
        deadline = None
        if tournament.round_s is not None:
            rounds = await self.db.run(store.rounds_of, tournament.id)
            deadline = next((r.deadline for r in rounds if r.round == tournament.round), None)
        changed = False
        playing = [game for game in games if game.status == store.PLAYING]
        due = deadline is not None and now >= deadline
        statuses = await self.db.run(store.stored_tables, [g.table_id for g in playing])
        for game in playing:
            over = statuses.get(game.table_id) == FINISHED
            if not over and not (due and game.round == tournament.round):
                continue
            table = await self.registry.get(game.table_id)
            result = table.snap.result
            if table.snap.status == FINISHED and result is not None:
                how = "aborted" if table.snap.aborted else "played"
                changed |= await self.db.run(
                    store.record_finish, game.table_id, list(result.ranks), how, now
                )
            else:
                outcome = deadline_outcome(table.game, table.snap.state, len(game.players))
                changed |= await self.db.run(
                    store.record_finish, game.table_id, list(outcome.ranks), "deadline", now
                )
        if not changed:
            return games
        self._changed.add(tournament.id)
        return await self.db.run(store.games_of, tournament.id)

    async def _pair_swiss(
        self, tournament: Tournament, games: list[TournamentGame], now: float
    ) -> None:
        """Pair the next round among the players present, store it, open its tables."""
        field = await field_of(self.db, tournament)
        active = [
            user.id
            for entrant, user in field.rows
            if entrant.withdrawn_at is None and not entrant.paused
        ]
        # A turn-based round lasts days: everyone entered is paired and told (the email
        # brings the absent back); a real-time one pairs only those here to play now.
        turn = tournament.round_s is not None
        here = (set(active) if turn else await self.present(active)) | set(field.levels)
        present = [e for e in field.entrants if e.id in here and not e.withdrawn]
        sizes = shown.sizes_of(tournament)
        if len(present) < sizes.least:
            return  # too few here to pair: the round waits for them
        done = shown.finishes(tournament, games)
        byes = shown.byes(await self.db.run(store.byes_of, tournament.id))
        if sizes.size == 2:
            paired = pair_swiss(present, done, byes, sizes.bye_points)
            tables: list[tuple[int, ...]] = [tuple(board) for board in paired.boards]
            sat_out = [] if paired.bye is None else [paired.bye]
        else:
            seated = seat_swiss_tables(present, done, byes, sizes.size, sizes.least, sizes.most)
            tables, sat_out = list(seated.tables), list(seated.byes)
        deadline = None if tournament.round_s is None else now + tournament.round_s
        await self._store_and_open(tournament, field, tables, sat_out, deadline, now)

    async def _pair_arena(
        self, tournament: Tournament, games: list[TournamentGame], now: float
    ) -> None:
        """Pair the waiting players present (not paused, not at a game) and open tables."""
        field = await field_of(self.db, tournament)
        busy = {p for g in games if g.status != store.DONE for p in g.players}
        people = [
            user.id
            for entrant, user in field.rows
            if entrant.withdrawn_at is None and not entrant.paused and user.id not in busy
        ]
        waiting = people + [bot for bot in field.levels if bot not in busy]
        sizes = shown.sizes_of(tournament)
        if len(waiting) < sizes.least:
            return
        here = await self.present(people) | set(field.levels)
        ratings = {entrant.id: entrant.rating for entrant in field.entrants}
        sheets = arena_sheets(shown.finishes(tournament, games))
        last: dict[int, frozenset[int]] = {}
        firsts: dict[int, int] = {}
        played: dict[int, int] = {}
        for game in games:
            for seat, player in enumerate(game.players):
                last[player] = frozenset(game.players) - {player}
                firsts[player] = firsts.get(player, 0) + (seat == 0)
                played[player] = played.get(player, 0) + 1
        pool = [
            Waiting(
                player,
                sheets[player].points if player in sheets else 0,
                ratings[player],
                last.get(player, frozenset()),
                False,
                firsts.get(player, 0),
                played.get(player, 0),
            )
            for player in waiting
            if player in here
        ]
        paired = pair_arena(pool, sizes.size, sizes.least, sizes.most)
        if paired.tables:
            await self._store_and_open(tournament, field, list(paired.tables), [], None, now)

    async def _store_and_open(
        self,
        tournament: Tournament,
        field: Field,
        tables: list[tuple[int, ...]],
        byes: list[int],
        deadline: float | None,
        now: float,
    ) -> None:
        """Store round ``tournament.round + 1`` with its games and byes, then open its tables
        (nothing, if another server stored that round first)."""
        number = tournament.round + 1
        games = [(new_table_id(), list(players)) for players in tables]
        stored = await self.db.run(
            store.store_round, tournament.id, number, now, deadline, games, byes
        )
        if not stored:
            return
        tournament.round = number
        self._changed.add(tournament.id)
        await self._open(tournament, games, field)

    async def _open_pending(self, tournament: Tournament, games: list[TournamentGame]) -> bool:
        """Open the tables of games stored but not opened (their pairing server died); whether
        there were any."""
        pending = [game for game in games if game.status == store.PENDING]
        if not pending:
            return False
        have = await self.db.run(store.stored_tables, [g.table_id for g in pending])
        missing = [(g.table_id, list(g.players)) for g in pending if g.table_id not in have]
        if missing:
            await self._open(tournament, missing, await field_of(self.db, tournament))
        await self.db.run(store.mark_playing, list(have))
        return True

    async def _open(
        self, tournament: Tournament, games: list[tuple[str, list[int]]], field: Field
    ) -> None:
        """Open each game's table with its players in seat order (a built-in bot's seat its
        bot's); it starts at once."""
        settings = TableSettings(tournament.private, tournament.rated, tournament.pace)
        opened = []
        for table_id, players in games:
            bots = {seat: field.levels[p] for seat, p in enumerate(players) if p in field.levels}
            spec = replace(
                table_spec(tournament.game, dict(tournament.options), len(players), settings,
                           tournament.move_seconds),
                bots=bots,
            )  # fmt: skip
            people = [p for p in players if p not in field.levels]
            seated = [(p, str(field.people[p]["name"])) for p in people]
            # The table's creator: the tournament's, else (the site's) its first person.
            creator = tournament.creator_id or (people[0] if people else None)
            if creator is None:
                creator = await self._any_person(tournament, field)
            try:
                table = await self.matchmaking.open_seated(table_id, creator, spec, seated)
            except Exception:
                log.exception("tournament %s: table %s did not open", tournament.id, table_id)
                continue
            opened.append(table_id)
            accounts = {seat.user_id for seat in table.snap.seats if seat.bot_account}
            for player in people:
                await self._tell(tournament, table_id, player, player in accounts)
        await self.db.run(store.mark_playing, opened)

    async def _any_person(self, tournament: Tournament, field: Field) -> int:
        """An account of the tournament, to stand as a table's creator (a site's tournament
        opening a table of built-in bots only)."""
        if field.rows:
            return field.rows[0][1].id
        raise RuntimeError(f"tournament {tournament.id} has no account to open a table")

    async def _tell(self, tournament: Tournament, table_id: str, player: int, bot: bool) -> None:
        """Tell ``player`` its game of the round is open (a failure only loses the news)."""
        data = {
            "tournament": tournament.id,
            "name": tournament.name,
            "game": tournament.game,
            "round": tournament.round,
        }
        try:
            await publish_user_event(
                self.notifier.bus, player, {"type": "tournament_game", "table_id": table_id, **data}
            )
            if not bot:
                await self.notifier.notify(
                    player,
                    NotificationKind.TOURNAMENT_GAME,
                    {**data, "pace": tournament.pace},  # emailed only for a turn-based round
                    table_id=table_id,
                    dedupe=f"tournament:{table_id}",
                )
        except Exception:
            log.warning("tournament %s: telling %s failed", tournament.id, player, exc_info=True)
