"""Where a test's work keeps its files: never the user's run database, settings, log or keyring."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.file_keyring import FILE_ENV


def isolate(monkeypatch: pytest.MonkeyPatch, folder: Path, *, english: bool = True) -> None:
    """This process (and every process it starts) uses ``folder`` for its RUN_INSPECTOR_DB, data folder,
    window settings and log, never the user's, and never the real keyring; in English (``LANG=C``) unless
    not ``english``. Each test is given a folder so, and the session one for what runs before any test
    (tests/conftest.py)."""
    monkeypatch.setenv("RUN_INSPECTOR_DB", str(folder / "runs.db"))
    monkeypatch.setenv("XDG_DATA_HOME", str(folder / "xdg"))
    # The window's settings (the server selected last, the language, ...): never the user's, and never
    # what an earlier test left (a window a test starts in a process of its own included). The config
    # folder too, for whatever asks QSettings without RUN_INSPECTOR_SETTINGS.
    monkeypatch.setenv("RUN_INSPECTOR_SETTINGS", str(folder / "settings.ini"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(folder / "xdg-config"))
    # The log file (inspector/logfile.py): never the user's log folder, whatever the platform.
    monkeypatch.setenv("XDG_STATE_HOME", str(folder / "xdg-state"))
    monkeypatch.setenv("RUN_INSPECTOR_LOG", str(folder / "logs" / "run-inspector.log"))
    # Never the developer's real keyring (here, and in the processes a test starts).
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyring.backends.fail.Keyring")
    monkeypatch.delenv(FILE_ENV, raising=False)
    # Tests read English sentences: a German machine must not change them (nor the processes started).
    # Only LANG is set, so a test (or a process it starts) that gives LANG itself decides the language.
    if not english:  # the session's: Qt's application, made once, must not start in the "C" locale
        return
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("LANG", "C")
