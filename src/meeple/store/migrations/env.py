"""Alembic environment: migrates the connection that :func:`meeple.store.database.migrate` passes.

Run from the package only; there is no alembic.ini. The caller puts an open
SQLAlchemy connection in ``config.attributes["connection"]``.
"""

from __future__ import annotations

from alembic import context

from meeple.store.models import Base

connection = context.config.attributes["connection"]
context.configure(
    connection=connection,
    target_metadata=Base.metadata,
    render_as_batch=connection.dialect.name == "sqlite",
)
with context.begin_transaction():
    context.run_migrations()
