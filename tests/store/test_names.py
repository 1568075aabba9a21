"""Names that read the same are one account: the normal form, over HTTP, and migration 0006."""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy
from alembic import command
from alembic.script import ScriptDirectory
from hypothesis import given
from hypothesis import strategies as st
from server_harness import LiveServer

from meeple.cli import serve
from meeple.config import Settings
from meeple.store import queries
from meeple.store.database import Database, MigrationRefused, alembic_config
from meeple.store.names import name_key, shown_name
from meeple.web.security import name_problem

PASSWORD = "Plenty-Of-Tiles-8"

SAME_AS_BOB = ["Bob", "bob", "BOB", "ｂｏｂ", "ＢＯＢ", "Ｂｏｂ", "bob\n", "b\u200bob", "\u2028bob"]


@pytest.mark.parametrize("name", SAME_AS_BOB, ids=ascii)
def test_names_that_read_the_same_have_one_key(name: str) -> None:
    assert name_key(name) == "bob"


def test_the_normal_form_folds_compatibility_forms_and_case_beyond_ascii() -> None:
    assert name_key("Straße") == name_key("STRASSE") == "strasse"
    assert name_key("\u212aelvin") == "kelvin"  # the Kelvin sign is a K
    assert name_key("ﬀoo") == "ffoo"
    assert shown_name("Ｂｏｂ") == "Bob"


@given(st.text(max_size=40))
def test_the_normal_form_is_its_own_normal_form(text: str) -> None:
    assert name_key(name_key(text)) == name_key(text)


@pytest.mark.parametrize(
    ("name", "code"),
    [("bob\n", "name_shape"), ("bob\r\n", "name_shape"), ("b\u200bob", "name_shape"),
     ("ＧＵＥＳＴ1", "name_guest"), ("Guest-me", "name_guest"), ("Ｂｏｂ", None)],
    ids=ascii,
)  # fmt: skip
def test_the_name_rules_hold_for_the_whole_name_in_its_normal_form(
    name: str, code: str | None
) -> None:
    problem = name_problem(name)
    assert (problem.code if problem else None) == code


def test_a_name_that_reads_like_a_taken_one_is_refused_over_http(server: LiveServer) -> None:
    bob = server.client("bob").register("Bob", PASSWORD)
    assert bob["name"] == "Bob"
    for lookalike in ("bob", "ＢＯＢ", "ｂｏｂ"):
        refused = server.client().post(
            "/api/auth/register", {"name": lookalike, "password": PASSWORD}, expect=409
        )
        assert refused["code"] == "name_taken", lookalike
    assert refused["detail"] == "the name 'bob' is taken"
    for bad_shape in ("bob\n", "Bob\n", "b\u200bob"):
        refused = server.client().post(
            "/api/auth/register", {"name": bad_shape, "password": PASSWORD}, expect=422
        )
        assert refused["code"] == "name_shape", ascii(bad_shape)
    refused = server.client().post(
        "/api/auth/register", {"name": "ＧＵＥＳＴ1", "password": PASSWORD}, expect=422
    )
    assert refused["code"] == "name_guest"


def test_a_trailing_line_break_makes_no_second_account(server: LiveServer) -> None:
    server.client().register("twin32717", PASSWORD)
    refused = server.client().post(
        "/api/auth/register", {"name": "twin32717\n", "password": PASSWORD}, expect=422
    )
    assert refused["code"] == "name_shape"


def test_a_guest_cannot_take_a_lookalike_name(server: LiveServer) -> None:
    server.client().register("Grace", PASSWORD)
    guest = server.client("guest")
    guest.guest()
    refused = guest.post(
        "/api/auth/register", {"name": "ＧＲＡＣＥ", "password": PASSWORD}, expect=409
    )
    assert refused["code"] == "name_taken"
    assert guest.get("/api/auth/me")["guest"] is True


def test_a_fullwidth_name_is_kept_in_ascii_with_its_case(server: LiveServer) -> None:
    carol = server.client("carol").register("Ｃａｒｏｌ", PASSWORD)
    assert carol["name"] == "Carol"
    assert server.client().get("/api/users/carol")["user"]["name"] == "Carol"


def test_log_in_and_profiles_find_the_account_by_its_normal_form(server: LiveServer) -> None:
    created = server.client("dora").register("Dora", PASSWORD)
    for typed in ("dora", "DORA", "ｄｏｒａ"):
        client = server.client()
        assert client.post("/api/auth/login", {"name": typed, "password": PASSWORD}) == created
        assert client.get(f"/api/users/{typed}")["user"] == created
        assert client.get(f"/api/users/{typed}/history/slide") == []


def at_revision(url: str, revision: str) -> Database:
    """A database migrated up to ``revision`` only."""
    database = Database(url)
    config = alembic_config()
    with database.engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, revision)
    return database


def version(database: Database) -> str:
    """The revision the database is at."""
    with database.engine.connect() as connection:
        text = sqlalchemy.text("SELECT version_num FROM alembic_version")
        found: str = connection.execute(text).scalar_one()
    return found


OLD_USERS = [(1, "twin32717"), (2, "twin32717\n"), (3, "Solo\n"), (4, "Ada"), (5, "ADA2"),
             (6, "ada2\n"), (7, "guest-0a1b2c")]  # fmt: skip
"""Users as revision 0005 let them be (keys in lower case, a trailing line break allowed)."""


users = sqlalchemy.table(
    "users", *(sqlalchemy.column(c) for c in ("id", "name", "name_key", "guest", "created_at"))
)


def with_old_users(url: str) -> Database:
    """A database at revision 0005 holding :data:`OLD_USERS`."""
    database = at_revision(url, "0005")
    with database.engine.begin() as connection:
        for user_id, name in OLD_USERS:
            row = {"id": user_id, "name": name, "name_key": name.lower(), "guest": False,
                   "created_at": 1.0}  # fmt: skip
            connection.execute(users.insert().values(row))
    return database


def test_migration_0006_names_the_colliding_accounts_and_changes_nothing(db_url: str) -> None:
    database = with_old_users(db_url)
    with pytest.raises(MigrationRefused) as refused:
        database.migrate()
    message = str(refused.value)
    assert "'twin32717' (id 1) and 'twin32717\\n' (id 2)" in message
    assert "'ADA2' (id 5) and 'ada2\\n' (id 6)" in message
    assert "2 group(s)" in message and "Solo" not in message and "Rename" in message
    assert version(database) == "0005"
    with database.engine.connect() as connection:
        keys = dict(connection.execute(sqlalchemy.select(users.c.id, users.c.name_key)).all())
    assert keys == {user_id: name.lower() for user_id, name in OLD_USERS}

    with database.engine.begin() as connection:
        for user_id, name in ((2, "twin-two"), (6, "Ada-three")):
            connection.execute(users.update().where(users.c.id == user_id).values(name=name))
    database.migrate()
    # Past 0006, up to the newest revision (later ones add their own changes).
    assert version(database) == ScriptDirectory.from_config(alembic_config()).get_current_head()
    found = {typed: database.call(queries.user_by_name, typed) for typed in
             ("TWIN32717", "twin-two", "solo", "ａｄａ2", "ada-THREE", "guest-0A1B2C")}  # fmt: skip
    assert {typed: user.id for typed, user in found.items() if user} == {
        "TWIN32717": 1, "twin-two": 2, "solo": 3, "ａｄａ2": 5, "ada-THREE": 6, "guest-0A1B2C": 7,
    }  # fmt: skip
    assert found["solo"] is not None and found["solo"].name == "Solo\n"  # kept, not renamed
    with pytest.raises(queries.NameTaken):
        database.call(queries.create_user, "SOLO", None, False, 2.0)
    database.close()


def test_migration_0006_goes_back_to_lower_case_keys(db_url: str) -> None:
    database = Database(db_url)
    database.migrate()
    database.call(queries.create_user, "Straße", None, False, 1.0)
    config = alembic_config()
    with database.engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "0005")
    with database.engine.connect() as connection:
        key = connection.execute(sqlalchemy.text("SELECT name_key FROM users")).scalar_one()
    assert key == "straße"
    database.migrate()
    assert database.call(queries.user_by_name, "STRASSE") is not None
    database.close()


def test_meeple_serve_stops_on_colliding_names_with_one_line_naming_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path / 'old.db'}"
    with_old_users(url).close()
    with pytest.raises(SystemExit) as stopped:
        serve.preflight(Settings(data_dir=tmp_path, db=url))
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("meeple: cannot upgrade the database MEEPLE_DB") and err.count("\n") == 1
    assert "'twin32717' (id 1) and 'twin32717\\n' (id 2)" in err
