"""stored actions in their canonical form

Before this revision the server stored an action as the client sent it,
extra keys included; the engines now refuse extra keys, so such a record
would no longer replay. This keeps, in every stored action, only the keys
the action has (the shapes as of this revision), so every record replays.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

ACTION_KEYS = {
    "reveal": ("type", "cell"),
    "take": ("type", "value", "side"),
    "place": ("type", "dir", "tiles"),
    "discard": ("type", "tiles"),
    "pass": ("type",),
}
"""The keys of each kind of action, Slide's and Summy's, at this revision."""

TILE_KEYS = ("row", "col", "tile")

events = sa.table(
    "table_events",
    sa.column("table_id", sa.String),
    sa.column("version", sa.Integer),
    sa.column("kind", sa.String),
    sa.column("data", sa.JSON),
)


def canonical(action: Any) -> Any:
    """``action`` with only the keys its kind has (anything else is left as it is)."""
    if not isinstance(action, dict) or action.get("type") not in ACTION_KEYS:
        return action
    kept = {key: action[key] for key in ACTION_KEYS[action["type"]] if key in action}
    if kept.get("type") == "place" and isinstance(kept.get("tiles"), list):
        kept["tiles"] = [
            {key: tile[key] for key in TILE_KEYS if key in tile} if isinstance(tile, dict) else tile
            for tile in kept["tiles"]
        ]
    return kept


def upgrade() -> None:
    """Apply this revision."""
    connection = op.get_bind()
    rows = connection.execute(
        sa.select(events.c.table_id, events.c.version, events.c.data).where(
            events.c.kind == "action"
        )
    )
    changed = []
    for table_id, version, data in rows:
        if isinstance(data, dict) and "action" in data:
            action = canonical(data["action"])
            if action != data["action"]:
                changed.append((table_id, version, {**data, "action": action}))
    for table_id, version, data in changed:
        connection.execute(
            events.update()
            .where(events.c.table_id == table_id, events.c.version == version)
            .values(data=data)
        )


def downgrade() -> None:
    """Nothing to undo: the keys removed were never read."""
