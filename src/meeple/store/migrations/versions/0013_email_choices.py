"""email choices: unsubscribed kinds, the language of an account's emails, turns due

An account may stop "your turn" or "game finished" emails (or all of them)
from a signed link; its emails are written in the language it last used;
each turn a "your turn" email was due for is kept so that many at once become
one daily digest (docs/server.md, "What is sent when").

Revision ID: 0013
Revises: 0012
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this revision."""
    op.create_table(
        "email_unsubscribes",
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("kind", sa.String(16), primary_key=True),
        sa.Column("at", sa.Float(), nullable=False),
    )
    op.create_table(
        "email_languages",
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("lang", sa.String(8), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
    )
    op.create_table(
        "turn_emails_due",
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("note_id", sa.Integer(), primary_key=True),
        sa.Column("table_id", sa.String(24), nullable=False),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("sent_as", sa.String(8), nullable=False),
    )
    op.create_index("ix_turn_emails_due_user_id_at", "turn_emails_due", ["user_id", "at"])


def downgrade() -> None:
    """Undo this revision."""
    op.drop_index("ix_turn_emails_due_user_id_at", table_name="turn_emails_due")
    op.drop_table("turn_emails_due")
    op.drop_table("email_languages")
    op.drop_table("email_unsubscribes")
