"""names unique in one normal form (NFKC, case-folded, nothing invisible)

Before this revision ``users.name_key`` was the name in lower case, and a
name could end in a line break: ``twin`` and ``twin`` + newline were two
accounts that read the same. This revision recomputes every ``name_key`` with
:func:`meeple.store.names.name_key`; the UNIQUE index on it stays.

Accounts that would share a key are not renamed here: the migration stops
before changing anything and names them (ids and names), so the operator
chooses who keeps the name and renames the others, then starts again.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable

import sqlalchemy as sa
from alembic import op

from meeple.store.database import MigrationRefused
from meeple.store.names import name_key

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

users = sa.table(
    "users",
    sa.column("id", sa.Integer),
    sa.column("name", sa.String),
    sa.column("name_key", sa.String),
)


def collisions(rows: list[tuple[int, str]]) -> list[list[tuple[int, str]]]:
    """The groups of (id, name) rows whose names share one key, each in id order."""
    groups: dict[str, list[tuple[int, str]]] = defaultdict(list)
    for user_id, name in sorted(rows):
        groups[name_key(name)].append((user_id, name))
    return [group for group in groups.values() if len(group) > 1]


def refusal(groups: list[list[tuple[int, str]]]) -> str:
    """What the operator reads: who collides, and what to do about it."""
    listed = "; ".join(
        " and ".join(f"{name!r} (id {user_id})" for user_id, name in group) for group in groups
    )
    return (
        f"{len(groups)} group(s) of accounts have names that read the same once compared in "
        f"one normal form (NFKC, case-folded, without invisible characters): {listed}. "
        "Nothing was changed. Rename all but one account of each group, for example "
        "UPDATE users SET name = 'a-new-name' WHERE id = ...; (name_key is recomputed here), "
        "tell those players, then start the server again."
    )


def rekey(key: Callable[[str], str]) -> None:
    """Set every user's ``name_key`` to ``key(name)``, never two equal keys at once."""
    connection = op.get_bind()
    rows = connection.execute(sa.select(users.c.id, users.c.name, users.c.name_key)).all()
    changed = [(user_id, key(name)) for user_id, name, old in rows if key(name) != old]
    # Through a key no name can have first, so no update meets a key that moves later.
    for user_id, _ in changed:
        parked = users.update().where(users.c.id == user_id).values(name_key=f"#0006-{user_id}")
        connection.execute(parked)
    for user_id, new in changed:
        connection.execute(users.update().where(users.c.id == user_id).values(name_key=new))


def upgrade() -> None:
    """Apply this revision, or refuse (changing nothing) if two names would share a key."""
    connection = op.get_bind()
    rows = connection.execute(sa.select(users.c.id, users.c.name)).all()
    groups = collisions([(user_id, name) for user_id, name in rows])
    if groups:
        raise MigrationRefused(refusal(groups))
    rekey(name_key)


def downgrade() -> None:
    """Back to the lower-case keys of revision 0001."""
    rekey(str.lower)
