"""tournaments the site creates have no creator

A recurring tournament (MEEPLE_RECURRING_TOURNAMENTS) is the site's, not an account's:
tournaments.creator_id may be null. Expand-only: a column made nullable.

Revision ID: 0017
Revises: 0016
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this revision."""
    with op.batch_alter_table("tournaments") as batch:
        batch.alter_column("creator_id", existing_type=sa.Integer(), nullable=True)


def downgrade() -> None:
    """Undo this revision (the site's tournaments are deleted first: they have no creator)."""
    site = "(SELECT id FROM tournaments WHERE creator_id IS NULL)"
    for child in (
        "tournament_byes",
        "tournament_games",
        "tournament_rounds",
        "tournament_entrants",
    ):
        op.execute(f"DELETE FROM {child} WHERE tournament_id IN {site}")
    op.execute("DELETE FROM tournaments WHERE creator_id IS NULL")
    with op.batch_alter_table("tournaments") as batch:
        batch.alter_column("creator_id", existing_type=sa.Integer(), nullable=False)
