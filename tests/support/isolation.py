"""Where a test's work keeps its files: never the user's run database, settings, log or keyring."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from tests.support.file_keyring import FILE_ENV

if TYPE_CHECKING:  # the benchmarks use the variables without pytest
    import pytest

ROOT = Path(__file__).resolve().parents[2]
#: The keyring that keeps nothing: never the developer's real one.
NO_KEYRING = "keyring.backends.fail.Keyring"


def isolating_variables(folder: Path) -> dict[str, str]:
    """The environment that keeps a process's files in ``folder``: its RUN_INSPECTOR_DB and data folder, its
    window settings (the server selected last, the language, ...; the config folder too, for whatever asks
    QSettings without RUN_INSPECTOR_SETTINGS), its log file whatever the platform; and a keyring that keeps
    nothing."""
    return {"RUN_INSPECTOR_DB": str(folder / "runs.db"), "XDG_DATA_HOME": str(folder / "xdg"),
            "RUN_INSPECTOR_SETTINGS": str(folder / "settings.ini"), "XDG_CONFIG_HOME": str(folder / "xdg-config"),
            "XDG_STATE_HOME": str(folder / "xdg-state"),
            "RUN_INSPECTOR_LOG": str(folder / "logs" / "run-inspector.log"), "PYTHON_KEYRING_BACKEND": NO_KEYRING}


#: What a process started with an environment of its own still takes from this one (clean_environment):
#: the isolation's variables, and the test keyring's file when a test uses one.
CARRIED = (*isolating_variables(Path()), FILE_ENV)


def isolate(monkeypatch: pytest.MonkeyPatch, folder: Path, *, english: bool = True) -> None:
    """This process (and every process it starts) uses ``folder`` for its RUN_INSPECTOR_DB, data folder,
    window settings and log, never the user's, and never the real keyring; in English (``LANG=C``) unless
    not ``english``. Each test is given a folder so, and the session one for what runs before any test
    (tests/conftest.py). A process started with an environment of its own: ``clean_environment``."""
    for name, value in isolating_variables(folder).items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv(FILE_ENV, raising=False)
    # Tests read English sentences: a German machine must not change them (nor the processes started).
    # Only LANG is set, so a test (or a process it starts) that gives LANG itself decides the language.
    if not english:  # the session's: Qt's application, made once, must not start in the "C" locale
        return
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("LANG", "C")


def clean_environment(*given: Mapping[str, str]) -> dict[str, str]:
    """The environment of its own for a process a test starts without this one's (a clean start, a child
    that must not inherit a variable): PATH (/usr/bin:/bin), PYTHONPATH (the checkout) and the test's
    isolation as it stands (its folder, its keyring; no language), then ``given`` in order. Without the
    isolation such a process used the user's own database, settings, log folder and keyring: ``env -i``
    or ``env={...}`` built from nothing drops XDG_* and RUN_INSPECTOR_*."""
    carried = {name: os.environ[name] for name in CARRIED if name in os.environ}
    merged = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), **carried}
    for more in given:
        merged.update(more)
    return merged
