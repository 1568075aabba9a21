"""tournaments: the tournament, its entrants, rounds, games and byes

Issue 43: tournaments are stored so any server may serve them and the one holding a
tournament's lease pairs its rounds; a round's row is stored once, in the transaction
that stores its games and byes, so no round is paired twice. Expand-only: new tables.

Revision ID: 0016
Revises: 0015
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this revision."""
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(24), primary_key=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("format", sa.String(8), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=True),
        sa.Column("duration_s", sa.Integer(), nullable=True),
        sa.Column("table_size", sa.Integer(), nullable=False),
        sa.Column("pace", sa.String(16), nullable=False),
        sa.Column("move_seconds", sa.Integer(), nullable=False),
        sa.Column("round_s", sa.Integer(), nullable=True),
        sa.Column("starts_at", sa.Float(), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("bots_allowed", sa.Boolean(), nullable=False),
        sa.Column("private", sa.Boolean(), nullable=False),
        sa.Column("secret", sa.String(32), nullable=True),
        sa.Column("max_players", sa.Integer(), nullable=False),
        sa.Column("creator_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("finished_at", sa.Float(), nullable=True),
    )
    op.create_index("ix_tournaments_status_start", "tournaments", ["status", "starts_at"])
    op.create_index("ix_tournaments_creator_status", "tournaments", ["creator_id", "status"])
    op.create_table(
        "tournament_entrants",
        sa.Column(
            "tournament_id", sa.String(24), sa.ForeignKey("tournaments.id"), primary_key=True
        ),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("joined_at", sa.Float(), nullable=False),
        sa.Column("withdrawn_at", sa.Float(), nullable=True),
        sa.Column("paused", sa.Boolean(), nullable=False),
    )
    op.create_index("ix_tournament_entrants_user_id", "tournament_entrants", ["user_id"])
    op.create_table(
        "tournament_rounds",
        sa.Column(
            "tournament_id", sa.String(24), sa.ForeignKey("tournaments.id"), primary_key=True
        ),
        sa.Column("round", sa.Integer(), primary_key=True),
        sa.Column("paired_at", sa.Float(), nullable=False),
        sa.Column("deadline", sa.Float(), nullable=True),
    )
    op.create_table(
        "tournament_games",
        sa.Column("table_id", sa.String(24), primary_key=True),
        sa.Column("tournament_id", sa.String(24), sa.ForeignKey("tournaments.id"), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("board", sa.Integer(), nullable=False),
        sa.Column("players", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("ranks", sa.JSON(), nullable=True),
        sa.Column("how", sa.String(16), nullable=True),
        sa.Column("seq", sa.Integer(), nullable=True),
        sa.Column("finished_at", sa.Float(), nullable=True),
    )
    op.create_index("ix_tournament_games_round", "tournament_games", ["tournament_id", "round"])
    op.create_table(
        "tournament_byes",
        sa.Column(
            "tournament_id", sa.String(24), sa.ForeignKey("tournaments.id"), primary_key=True
        ),
        sa.Column("round", sa.Integer(), primary_key=True),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), primary_key=True),
    )


def downgrade() -> None:
    """Undo this revision."""
    op.drop_table("tournament_byes")
    op.drop_index("ix_tournament_games_round", table_name="tournament_games")
    op.drop_table("tournament_games")
    op.drop_table("tournament_rounds")
    op.drop_index("ix_tournament_entrants_user_id", table_name="tournament_entrants")
    op.drop_table("tournament_entrants")
    op.drop_index("ix_tournaments_creator_status", table_name="tournaments")
    op.drop_index("ix_tournaments_status_start", table_name="tournaments")
    op.drop_table("tournaments")
