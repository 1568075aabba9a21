"""Storage: SQLAlchemy models, packaged Alembic migrations and the queries the server runs."""
