"""challenges found by account, status and lapse time

The caps on open challenges count an account's open, unlapsed challenges on
every send, and an event stream replays the newest of them: indexed by
(account, status, expires_at) both read only the challenges still open,
never an account's whole history. These indexes cover the single-column ones
they replace.

Revision ID: 0015
Revises: 0014
"""

from __future__ import annotations

from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this revision."""
    op.create_index("ix_challenges_from_open", "challenges", ["from_id", "status", "expires_at"])
    op.create_index("ix_challenges_to_open", "challenges", ["to_id", "status", "expires_at"])
    op.drop_index("ix_challenges_from_id", table_name="challenges")
    op.drop_index("ix_challenges_to_id", table_name="challenges")


def downgrade() -> None:
    """Undo this revision."""
    op.create_index("ix_challenges_from_id", "challenges", ["from_id"])
    op.create_index("ix_challenges_to_id", "challenges", ["to_id"])
    op.drop_index("ix_challenges_to_open", table_name="challenges")
    op.drop_index("ix_challenges_from_open", table_name="challenges")
