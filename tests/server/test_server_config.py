"""Settings: defaults with no settings at all, the kept secret key, wrong settings named."""

from __future__ import annotations

import argparse
import os
import stat
from pathlib import Path

import pytest

from meeple.cli import serve
from meeple.config import ConfigError, Settings, default_data_dir, load_settings


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


def test_the_secret_key_is_generated_once_and_kept_private(clean_env: Path) -> None:
    key = load_settings().resolved_secret_key()
    path = clean_env / "meeple" / "secret_key"
    assert len(key) >= 32 and stat.S_IMODE(path.stat().st_mode) == 0o600
    assert load_settings().resolved_secret_key() == key


def test_environment_and_flags(clean_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEEPLE_PORT", "9001")
    monkeypatch.setenv("MEEPLE_DB", "postgresql://u@h/db")
    assert load_settings().port == 9001
    assert load_settings(port=9002, host=None).port == 9002
    assert load_settings().db == "postgresql://u@h/db"


WRONG = [
    ({"MEEPLE_PORT": "eighty"}, {}, "bad setting MEEPLE_PORT"),
    ({"MEEPLE_PORT": "70000"}, {}, "bad setting MEEPLE_PORT"),
    ({"MEEPLE_DB": "mysql://x"}, {}, "bad setting MEEPLE_DB: Value error, must be a sqlite"),
    ({"MEEPLE_REDIS": "http://x"}, {}, "bad setting MEEPLE_REDIS"),
    ({"MEEPLE_SECRET_KEY": "short"}, {}, "bad setting MEEPLE_SECRET_KEY"),
    ({"MEEPLE_BOT_EXECUTOR": "gpu"}, {}, "bad setting MEEPLE_BOT_EXECUTOR"),
    ({}, {"port": 0}, "bad setting --port"),
]


@pytest.mark.parametrize(("env", "flags", "message"), WRONG)
def test_a_wrong_setting_is_named_in_one_line(
    clean_env: Path,
    monkeypatch: pytest.MonkeyPatch,
    env: dict[str, str],
    flags: dict[str, int],
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
