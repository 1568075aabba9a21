"""The queries behind tournaments (docs/tournaments.md), each a function of an open session
run with ``Database.run``.

A tournament changes state by conditional updates only (:func:`set_status`,
:func:`store_round`, :func:`record_finish`), so of two servers doing the same thing at once
exactly one counts: a round is stored once with its games and byes, a game's result once.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import and_, func, select, update
from sqlalchemy.orm import Session

from meeple.store.models import GameTable, User
from meeple.store.tournament_models import (
    Tournament,
    TournamentBot,
    TournamentBye,
    TournamentEntrant,
    TournamentGame,
    TournamentRound,
)

SCHEDULED, RUNNING, FINISHED, CANCELLED = "scheduled", "running", "finished", "cancelled"
"""A tournament's statuses."""
OPEN_STATUSES = (SCHEDULED, RUNNING)
"""The statuses of a tournament not over yet."""
PENDING, PLAYING, DONE = "pending", "playing", "finished"
"""A tournament game's statuses: stored before its table opened, its table open, over."""

LOCK_SPACE = 0x746F7572 << 32
"""PostgreSQL advisory lock keys of the tournament caps: this plus an account id."""

EntrantRow = tuple[TournamentEntrant, User]
"""An entrant with its account."""


def open_created(session: Session, creator_id: int) -> int:
    """How many tournaments ``creator_id`` created that are not over yet."""
    count = session.scalar(
        select(func.count())
        .select_from(Tournament)
        .where(Tournament.creator_id == creator_id, Tournament.status.in_(OPEN_STATUSES))
    )
    return int(count or 0)


def insert_tournament_within(session: Session, values: dict[str, Any], max_open: int) -> bool:
    """Store a new tournament (``values``: its columns) unless its creator already has
    ``max_open`` not over; whether it was stored. On PostgreSQL the count and the insert
    are one step across servers (an advisory lock per creator); SQLite runs one at a time."""
    creator = values["creator_id"]
    if session.get_bind().dialect.name == "postgresql":
        session.execute(select(func.pg_advisory_xact_lock(LOCK_SPACE + creator)))
    if open_created(session, creator) >= max_open:
        return False
    session.add(Tournament(**values))
    return True


def insert_site_tournament(session: Session, values: dict[str, Any]) -> bool:
    """Store a tournament of the site's (a recurring one) unless its id is stored already;
    whether it was stored now."""
    if session.get(Tournament, values["id"]) is not None:
        return False
    session.add(Tournament(**values))
    return True


def tournament_by_id(session: Session, tournament_id: str) -> Tournament | None:
    """The tournament ``tournament_id``, if any."""
    return session.get(Tournament, tournament_id)


def public_tournaments(
    session: Session, statuses: Sequence[str], limit: int
) -> list[tuple[Tournament, int]]:
    """Public tournaments in ``statuses`` with their entrants not withdrawn: the soonest
    start first, then the id; finished ones only: the last finished first."""
    players = (
        select(func.count())
        .select_from(TournamentEntrant)
        .where(
            TournamentEntrant.tournament_id == Tournament.id,
            TournamentEntrant.withdrawn_at.is_(None),
        )
        .scalar_subquery()
    )
    rows = session.execute(
        select(Tournament, players)
        .where(Tournament.status.in_(statuses), Tournament.private.is_(False))
        .order_by(
            *(
                (Tournament.finished_at.desc(), Tournament.id)
                if list(statuses) == [FINISHED]
                else (Tournament.starts_at, Tournament.id)
            )
        )
        .limit(limit)
    )
    return [(tournament, int(count)) for tournament, count in rows]


def tournaments_to_run(session: Session) -> list[Tournament]:
    """Every tournament scheduled or running (what the servers look after)."""
    return list(session.scalars(select(Tournament).where(Tournament.status.in_(OPEN_STATUSES))))


def entrants_of(session: Session, tournament_id: str) -> list[EntrantRow]:
    """A tournament's entrants with their accounts, in the order they joined."""
    rows = session.execute(
        select(TournamentEntrant, User)
        .join(User, User.id == TournamentEntrant.user_id)
        .where(TournamentEntrant.tournament_id == tournament_id)
        .order_by(TournamentEntrant.joined_at, TournamentEntrant.user_id)
    )
    return [(entrant, user) for entrant, user in rows]


def active_count(session: Session, tournament_id: str) -> int:
    """Entrants not withdrawn, the built-in bots among them."""
    bots = session.scalar(
        select(func.count())
        .select_from(TournamentBot)
        .where(TournamentBot.tournament_id == tournament_id)
    )
    count = session.scalar(
        select(func.count())
        .select_from(TournamentEntrant)
        .where(
            TournamentEntrant.tournament_id == tournament_id,
            TournamentEntrant.withdrawn_at.is_(None),
        )
    )
    return int(count or 0) + int(bots or 0)


def bots_of(session: Session, tournament_id: str) -> list[TournamentBot]:
    """A tournament's built-in bots, by number."""
    return list(
        session.scalars(
            select(TournamentBot)
            .where(TournamentBot.tournament_id == tournament_id)
            .order_by(TournamentBot.number)
        )
    )


def add_bots(session: Session, tournament_id: str, level: str, count: int) -> str | None:
    """Add ``count`` built-in bots of ``level`` while the tournament is open and has room:
    ``None`` when added, else why not (``full``, or the tournament's status)."""
    tournament = session.scalars(
        select(Tournament).where(Tournament.id == tournament_id).with_for_update()
    ).one()
    if tournament.status not in OPEN_STATUSES:
        return tournament.status
    if active_count(session, tournament_id) + count > tournament.max_players:
        return "full"
    last = session.scalar(
        select(func.coalesce(func.max(TournamentBot.number), 0)).where(
            TournamentBot.tournament_id == tournament_id
        )
    )
    for number in range(int(last or 0) + 1, int(last or 0) + 1 + count):
        session.add(TournamentBot(tournament_id=tournament_id, number=number, level=level))
    return None


def join(session: Session, tournament_id: str, user_id: int, now: float) -> str | None:
    """Enter ``user_id`` (back, if it had withdrawn) while the tournament is open and not
    full: ``None`` when in, else why not (``full``, or the tournament's status). The
    tournament's row is locked meanwhile on PostgreSQL, so two joins at once count right."""
    tournament = session.scalars(
        select(Tournament).where(Tournament.id == tournament_id).with_for_update()
    ).one()
    if tournament.status not in OPEN_STATUSES:
        return tournament.status
    entrant = session.get(TournamentEntrant, (tournament_id, user_id))
    if entrant is not None and entrant.withdrawn_at is None:
        return None
    if active_count(session, tournament_id) >= tournament.max_players:
        return "full"
    if entrant is None:
        session.add(
            TournamentEntrant(
                tournament_id=tournament_id, user_id=user_id, joined_at=now, paused=False
            )
        )
    else:
        entrant.withdrawn_at, entrant.paused = None, False
    return None


def withdraw(session: Session, tournament_id: str, user_id: int, now: float) -> bool:
    """Mark ``user_id`` withdrawn; whether it was in and had not withdrawn."""
    changed = session.execute(
        update(TournamentEntrant)
        .where(
            TournamentEntrant.tournament_id == tournament_id,
            TournamentEntrant.user_id == user_id,
            TournamentEntrant.withdrawn_at.is_(None),
        )
        .values(withdrawn_at=now)
    )
    return bool(changed.rowcount)  # type: ignore[attr-defined]


def set_paused(session: Session, tournament_id: str, user_id: int, paused: bool) -> bool:
    """Pause or resume an arena entrant; whether it is in and not withdrawn."""
    changed = session.execute(
        update(TournamentEntrant)
        .where(
            TournamentEntrant.tournament_id == tournament_id,
            TournamentEntrant.user_id == user_id,
            TournamentEntrant.withdrawn_at.is_(None),
        )
        .values(paused=paused)
    )
    return bool(changed.rowcount)  # type: ignore[attr-defined]


def set_status(
    session: Session, tournament_id: str, before: Sequence[str], after: str, now: float
) -> bool:
    """Move the tournament from one of ``before`` to ``after``; whether it moved (a finish
    or a cancel also sets ``finished_at``)."""
    values: dict[str, Any] = {"status": after}
    if after in (FINISHED, CANCELLED):
        values["finished_at"] = now
    changed = session.execute(
        update(Tournament)
        .where(Tournament.id == tournament_id, Tournament.status.in_(before))
        .values(**values)
    )
    return bool(changed.rowcount)  # type: ignore[attr-defined]


def store_round(
    session: Session,
    tournament_id: str,
    number: int,
    now: float,
    deadline: float | None,
    games: Sequence[tuple[str, Sequence[int]]],
    byes: Sequence[int],
) -> bool:
    """Store round ``number`` with its games (table id, players in seat order) and byes, if
    the tournament's last round is the one before: whether it was stored (else another
    server stored it first, and nothing is written)."""
    moved = session.execute(
        update(Tournament)
        .where(
            Tournament.id == tournament_id,
            Tournament.round == number - 1,
            Tournament.status == RUNNING,
        )
        .values(round=number)
    )
    if not moved.rowcount:  # type: ignore[attr-defined]
        return False
    session.add(
        TournamentRound(tournament_id=tournament_id, round=number, paired_at=now, deadline=deadline)
    )
    for board, (table_id, players) in enumerate(games, start=1):
        session.add(
            TournamentGame(
                table_id=table_id,
                tournament_id=tournament_id,
                round=number,
                board=board,
                players=list(players),
                status=PENDING,
            )
        )
    for user_id in byes:
        session.add(TournamentBye(tournament_id=tournament_id, round=number, user_id=user_id))
    return True


def mark_playing(session: Session, table_ids: Sequence[str]) -> None:
    """These games' tables are open."""
    if table_ids:
        session.execute(
            update(TournamentGame)
            .where(TournamentGame.table_id.in_(table_ids), TournamentGame.status == PENDING)
            .values(status=PLAYING)
        )


def games_of(session: Session, tournament_id: str) -> list[TournamentGame]:
    """A tournament's games: by round and board."""
    return list(
        session.scalars(
            select(TournamentGame)
            .where(TournamentGame.tournament_id == tournament_id)
            .order_by(TournamentGame.round, TournamentGame.board)
        )
    )


def byes_of(session: Session, tournament_id: str) -> list[TournamentBye]:
    """A tournament's byes, by round."""
    return list(
        session.scalars(
            select(TournamentBye)
            .where(TournamentBye.tournament_id == tournament_id)
            .order_by(TournamentBye.round, TournamentBye.user_id)
        )
    )


def rounds_of(session: Session, tournament_id: str) -> list[TournamentRound]:
    """A tournament's rounds paired, in order."""
    return list(
        session.scalars(
            select(TournamentRound)
            .where(TournamentRound.tournament_id == tournament_id)
            .order_by(TournamentRound.round)
        )
    )


def games_of_tables(session: Session, table_ids: Sequence[str]) -> list[TournamentGame]:
    """The tournament games among these tables (most tables are no tournament's)."""
    if not table_ids:
        return []
    return list(
        session.scalars(select(TournamentGame).where(TournamentGame.table_id.in_(table_ids)))
    )


def record_finish(
    session: Session, table_id: str, ranks: Sequence[int], how: str, now: float
) -> bool:
    """Record how the game at ``table_id`` ended, once: whether this was the first record."""
    game = session.get(TournamentGame, table_id)
    if game is None:
        return False
    seq = session.scalar(
        select(func.coalesce(func.max(TournamentGame.seq), 0)).where(
            and_(
                TournamentGame.tournament_id == game.tournament_id, TournamentGame.seq.is_not(None)
            )
        )
    )
    changed = session.execute(
        update(TournamentGame)
        .where(TournamentGame.table_id == table_id, TournamentGame.status != DONE)
        .values(status=DONE, ranks=list(ranks), how=how, seq=int(seq or 0) + 1, finished_at=now)
    )
    return bool(changed.rowcount)  # type: ignore[attr-defined]


def tournaments_of(session: Session, user_id: int) -> list[str]:
    """The ids of the tournaments not over that ``user_id`` is in (not withdrawn)."""
    return list(
        session.scalars(
            select(Tournament.id)
            .join(TournamentEntrant, TournamentEntrant.tournament_id == Tournament.id)
            .where(
                TournamentEntrant.user_id == user_id,
                TournamentEntrant.withdrawn_at.is_(None),
                Tournament.status.in_(OPEN_STATUSES),
            )
        )
    )


def stored_tables(session: Session, table_ids: Sequence[str]) -> dict[str, str]:
    """The status of each of these tables that is stored."""
    if not table_ids:
        return {}
    rows = session.execute(
        select(GameTable.id, GameTable.status).where(GameTable.id.in_(table_ids))
    )
    return {table_id: status for table_id, status in rows}


def seen_since(session: Session, user_ids: Sequence[int], since: float) -> set[int]:
    """Those of ``user_ids`` seen on the site at ``since`` or later (``last_seen_at``)."""
    if not user_ids:
        return set()
    rows = session.scalars(select(User.id).where(User.id.in_(user_ids), User.last_seen_at >= since))
    return set(rows)
