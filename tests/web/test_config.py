"""Settings: defaults with no settings at all, the shared secret key, wrong settings named."""

from __future__ import annotations

import argparse
import os
import re
from pathlib import Path

import pytest

from meeple.cli import serve
from meeple.config import NOT_SETTINGS, ConfigError, Settings, default_data_dir, load_settings
from meeple.store.database import Database
from meeple.web.services import session_key

THIS = Path(__file__).resolve()
REPO = THIS.parents[2]


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    for key in list(os.environ):
        if key.startswith("MEEPLE_"):
            monkeypatch.delenv(key)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    return tmp_path


def test_no_settings_means_sqlite_in_the_data_folder_and_the_in_process_bus(
    clean_env: Path,
) -> None:
    settings = load_settings()
    assert settings.data_dir == clean_env / "meeple" == default_data_dir()
    assert settings.database_url == f"sqlite:///{clean_env / 'meeple' / 'meeple.db'}"
    assert settings.redis is None
    assert (settings.host, settings.port) == ("127.0.0.1", 8000)


def test_the_secret_key_is_made_once_in_the_database_and_shared(tmp_path: Path) -> None:
    shared_db = f"sqlite:///{tmp_path / 'shared.db'}"
    first = Settings(data_dir=tmp_path / "one", db=shared_db)
    second = Settings(data_dir=tmp_path / "two", db=shared_db)
    keys = []
    for settings in (first, second, first):
        db = Database(settings.database_url)
        db.migrate()
        keys.append(session_key(settings, db))
        db.close()
    assert len(keys[0]) >= 32 and keys[0] == keys[1] == keys[2]
    assert not (tmp_path / "one" / "secret_key").exists()
    given = Settings(data_dir=tmp_path / "one", db=shared_db, secret_key="g" * 40)
    db = Database(given.database_url)
    assert session_key(given, db) == "g" * 40
    db.close()


def test_a_key_kept_in_the_data_folder_by_an_earlier_version_is_taken_over(
    tmp_path: Path,
) -> None:
    (tmp_path / "secret_key").write_text("old-key-" + "o" * 40 + "\n", encoding="utf-8")
    settings = Settings(data_dir=tmp_path)
    db = Database(settings.database_url)
    db.migrate()
    assert session_key(settings, db) == "old-key-" + "o" * 40
    db.close()


def test_environment_and_flags(clean_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEEPLE_PORT", "9001")
    monkeypatch.setenv("MEEPLE_DB", "postgresql://u@h/db")
    assert load_settings().port == 9001
    assert load_settings(port=9002, host=None).port == 9002
    assert load_settings().db == "postgresql://u@h/db"
    assert load_settings(public_url="https://play.example/s/2/").public_url == (
        "https://play.example/s/2"
    )


WRONG = [
    ({"MEEPLE_PORT": "eighty"}, {}, "bad setting MEEPLE_PORT"),
    ({"MEEPLE_PORT": "70000"}, {}, "bad setting MEEPLE_PORT"),
    ({"MEEPLE_DB": "mysql://x"}, {}, "bad setting MEEPLE_DB: Value error, must be a sqlite"),
    ({"MEEPLE_REDIS": "http://x"}, {}, "bad setting MEEPLE_REDIS"),
    ({"MEEPLE_SECRET_KEY": "short"}, {}, "bad setting MEEPLE_SECRET_KEY"),
    ({"MEEPLE_BOT_EXECUTOR": "gpu"}, {}, "bad setting MEEPLE_BOT_EXECUTOR"),
    ({"MEEPLE_LIMIT_CHAT": "lots"}, {}, "bad setting MEEPLE_LIMIT_CHAT: Value error, must read"),
    ({"MEEPLE_LIMIT_GUESTS": "0/hour"}, {}, "bad setting MEEPLE_LIMIT_GUESTS"),
    ({"MEEPLE_TRUSTED_PROXIES": "10.0.0.1,proxy"}, {}, "bad setting MEEPLE_TRUSTED_PROXIES"),
    ({}, {"port": 0}, "bad setting --port"),
    ({"MEEPLE_PUBLIC_URL": "play.example"}, {}, "bad setting MEEPLE_PUBLIC_URL: Value error"),
    ({}, {"public_url": "https://play.example/?s=2"}, "bad setting --public-url"),
    ({"MEEPLE_COOKIE_SECURE": "maybe"}, {}, "bad setting MEEPLE_COOKIE_SECURE: Input should be"),
    ({"MEEPLE_BOT_BUDGET_S": "0"}, {}, "bad setting MEEPLE_BOT_BUDGET_S: Input should be"),
    ({"MEEPLE_SMTP_URL": "http://mail"}, {}, "bad setting MEEPLE_SMTP_URL: Value error"),
    (
        {"MEEPLE_SMTP_URL": "smtp://mail.example"},
        {},
        "bad settings: Value error, MEEPLE_SMTP_URL needs MEEPLE_SITE_URL",
    ),
    (
        {"MEEPLE_COOKIE_SECUR": "true"},
        {},
        "unknown setting MEEPLE_COOKIE_SECUR (did you mean MEEPLE_COOKIE_SECURE?)",
    ),
    ({"MEEPLE_PORTS": "80"}, {}, "unknown setting MEEPLE_PORTS (did you mean MEEPLE_PORT?)"),
]


@pytest.mark.parametrize(("env", "flags", "message"), WRONG)
def test_a_wrong_setting_is_named_in_one_line(
    clean_env: Path,
    monkeypatch: pytest.MonkeyPatch,
    env: dict[str, str],
    flags: dict[str, object],
    message: str,
) -> None:
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    with pytest.raises(ConfigError) as caught:
        load_settings(**flags)
    assert str(caught.value).startswith(message)
    assert "\n" not in str(caught.value)


def test_meeple_serve_stops_on_a_wrong_setting_with_one_line(
    clean_env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("MEEPLE_CHAT_MAX_CHARS", "0")
    parser = argparse.ArgumentParser()
    serve.register(parser.add_subparsers())
    args = parser.parse_args(["serve"])
    with pytest.raises(SystemExit) as caught:
        args.func(args)
    assert caught.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("meeple: bad setting MEEPLE_CHAT_MAX_CHARS") and err.count("\n") == 1


def test_meeple_serve_names_a_database_it_cannot_open(
    clean_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    settings = Settings(data_dir=clean_env, db="postgresql://nobody@127.0.0.1:1/none")
    with pytest.raises(SystemExit):
        serve.preflight(settings)
    err = capsys.readouterr().err
    assert err.startswith("meeple: cannot open the database MEEPLE_DB") and err.count("\n") == 1


def test_meeple_serve_names_a_database_it_cannot_open_without_its_password(
    clean_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    settings = Settings(data_dir=clean_env, db="postgresql://nobody:s3cret-word@127.0.0.1:1/none")
    with pytest.raises(SystemExit):
        serve.preflight(settings)
    err = capsys.readouterr().err
    assert "nobody:***@127.0.0.1:1" in err and "s3cret-word" not in err


def test_a_data_folder_that_cannot_be_made_is_named(clean_env: Path) -> None:
    (clean_env / "a-file").write_text("not a folder", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"^bad setting MEEPLE_DATA_DIR: "):
        load_settings(data_dir=clean_env / "a-file" / "meeple")


def test_every_meeple_variable_the_code_reads_is_a_setting_or_known_not_to_be() -> None:
    """So that refusing unknown ``MEEPLE_*`` names never refuses one that meeple reads."""
    settings = {f"MEEPLE_{name.upper()}" for name in Settings.model_fields}
    named: dict[str, str] = {}
    for folder in ("src", "tests", "bench", "scripts", ".ci"):
        for path in sorted((REPO / folder).rglob("*")):
            if not path.is_file() or path.suffix not in ("", ".py", ".sh") or path == THIS:
                continue
            text = path.read_text(encoding="utf-8", errors="replace")
            for name in re.findall(r"\bMEEPLE_[A-Z0-9_]*[A-Z0-9]\b", text):
                named.setdefault(name, str(path.relative_to(REPO)))
    strangers = {n: where for n, where in named.items() if n not in settings | NOT_SETTINGS}
    assert strangers == {}
