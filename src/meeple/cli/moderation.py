"""``meeple role NAME ROLE`` and ``meeple reopen NAME``: who moderates, and undoing a closure.

Both work on the database ``meeple serve`` uses (``--db`` / ``MEEPLE_DB``, else the SQLite
file in ``--data-dir`` / ``MEEPLE_DATA_DIR``), while servers run: a role counts from the
account's next request, on every server. Each change is written to the moderators' audit
log as done by the command line (docs/moderation.md).
"""

from __future__ import annotations

import argparse
import time

from meeple.cli.backup import database_flags, settings_of
from meeple.games.kit.commands import fail
from meeple.store.database import Database
from meeple.store.moderation import ROLES, reopen, set_role


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``role`` and ``reopen`` commands."""
    role = subparsers.add_parser(
        "role",
        help="make an account a player, a moderator or an admin",
        description=(
            "Give the account NAME the role ROLE. Moderators and admins read the report queue"
            " at /mod and act on players; an account is a player unless given another role."
        ),
    )
    role.add_argument("name", metavar="NAME", help="the account's name (any case)")
    role.add_argument("role", choices=ROLES, metavar="ROLE", help=" | ".join(ROLES))
    role.add_argument("--reason", default="set from the command line", help="for the audit log")
    database_flags(role)
    role.set_defaults(func=run_role)
    again = subparsers.add_parser(
        "reopen",
        help="let an account a moderator closed sign in again",
        description="Lift the closure of the account NAME: it may sign in again.",
    )
    again.add_argument("name", metavar="NAME", help="the account's name (any case)")
    again.add_argument("--reason", default="reopened from the command line", help="for the log")
    database_flags(again)
    again.set_defaults(func=run_reopen)


def _database(args: argparse.Namespace) -> Database:
    db = Database(settings_of(args).database_url)
    db.migrate()  # a new site's database, or one a server has not migrated yet
    return db


def run_role(args: argparse.Namespace) -> int:
    """Set the role; one line saying what changed."""
    db = _database(args)
    try:
        user, was = db.call(set_role, args.name, args.role, args.reason, time.time())
    except ValueError as exc:
        fail(str(exc), status=1)
    finally:
        db.close()
    print(f"{user.name} is now {args.role} (was {was})")
    return 0


def run_reopen(args: argparse.Namespace) -> int:
    """Lift the closure; one line saying so."""
    db = _database(args)
    try:
        user = db.call(reopen, args.name, args.reason, time.time())
    except ValueError as exc:
        fail(str(exc), status=1)
    finally:
        db.close()
    print(f"{user.name} may sign in again")
    return 0
