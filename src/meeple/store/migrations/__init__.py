"""Alembic migrations of the meeple database, shipped inside the package."""
