"""Shared test settings: no test ever touches the user's real run database."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.screens import use_offscreen_screen

# The window fits the screen it opens on: tests see a common desktop screen, not the offscreen
# platform's own 800×800 (tests of small screens start a window on a screen of their own).
use_offscreen_screen(os.environ, "1920x1080")


@pytest.fixture(autouse=True)
def _isolated_run_database(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Every test (and every process it starts) gets its own RUN_INSPECTOR_DB and data folder."""
    folder = tmp_path_factory.mktemp("data")
    monkeypatch.setenv("RUN_INSPECTOR_DB", str(folder / "runs.db"))
    monkeypatch.setenv("XDG_DATA_HOME", str(folder / "xdg"))
    # Never the developer's real keyring, should the optional package be installed.
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyring.backends.fail.Keyring")
    # Tests read English sentences: a German machine must not change them (nor the processes started).
    # Only LANG is set, so a test (or a process it starts) that gives LANG itself decides the language.
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("LANG", "C")
    yield folder / "runs.db"


@pytest.fixture(autouse=True)
def _english() -> Iterator[None]:
    """Each test starts, and leaves the process, in English."""
    from inspector.i18n import install

    install(None)
    yield
    install(None)
