"""Shared test settings: no test ever touches the user's real run database or keyring."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from tests.support.file_keyring import BACKEND_NAME, FILE_ENV, FileKeyring
from tests.support.isolation import isolate
from tests.support.real_folders import RealFolders, escaped
from tests.support.screens import use_offscreen_screen

# Property tests check properties, not speed: on 2 shared cores running the GUI tests beside them, one
# draw once took 1.9 s and Hypothesis failed the test for it ("input generation is slow"). Timing
# claims are measured in benchmarks/; here neither generation speed nor a per-example deadline fails a test.
settings.register_profile("suite", suppress_health_check=[HealthCheck.too_slow], deadline=None)
settings.load_profile("suite")

# The window fits the screen it opens on: tests see a common desktop screen, not the offscreen
# platform's own 800×800 (tests of small screens start a window on a screen of their own).
use_offscreen_screen(os.environ, "1920x1080")
# Never the developer's real keyring: set before any test module is imported (one could ask keyring
# for its backend while it is collected), and again for each test below.
os.environ["PYTHON_KEYRING_BACKEND"] = "keyring.backends.fail.Keyring"
os.environ.pop(FILE_ENV, None)
# The user's own folders as the run found them, by the environment before any isolation: every test (and
# the session at its end) must leave them so (_real_folders_untouched). Watched rather than hidden: HOME
# pointed elsewhere would not stop a process started without it (Python then takes the account's home
# folder from the password database), and would cost the tools the tests start their caches there.
REAL_FOLDERS = RealFolders.of(os.environ)


@pytest.fixture(scope="session", autouse=True)
def _isolated_session(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """What runs before any test's own isolation (a fixture shared by a module's tests: a run played
    once, a database filled once) keeps its files in a folder of the session, never the user's. Its
    language is the machine's (such a fixture says --lang where its words matter)."""
    with pytest.MonkeyPatch.context() as patch:
        isolate(patch, tmp_path_factory.mktemp("session-data"), english=False)
        yield
    if changes := REAL_FOLDERS.changes():  # after the last test: what a module's or the session's fixture did
        pytest.fail(escaped(changes), pytrace=False)


@pytest.fixture(autouse=True)
def _real_folders_untouched() -> Iterator[None]:
    """The test (and every process it started) wrote nothing into the user's own database, settings, log or
    keyring folders; else it fails, naming what it wrote. Checked after the test's other fixtures ended."""
    yield
    if changes := REAL_FOLDERS.changes():
        pytest.fail(escaped(changes), pytrace=False)


@pytest.fixture(autouse=True)
def _isolated_run_database(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Every test (and every process it starts) gets its own RUN_INSPECTOR_DB, data folder and window
    settings; no window's demo entry is known (a window opened by an earlier test said its own)."""
    from inspector.i18n import entry_names

    folder = tmp_path_factory.mktemp("data")
    isolate(monkeypatch, folder)
    monkeypatch.setattr(entry_names, "_window_entry", None)
    yield folder / "runs.db"


@pytest.fixture(autouse=True)
def _english() -> Iterator[None]:
    """Each test starts, and leaves the process, in English: its words and its numbers and dates (a
    test that switched to German and did not switch back must not leave "2,1 s" to the next)."""
    from inspector.i18n import set_language

    set_language("en")
    yield
    set_language("en")


@pytest.fixture
def german(_english: None) -> Iterator[None]:
    """The test runs in German (the compiled catalogue is there); English again after it."""
    from inspector.i18n import set_language

    assert set_language("de") == "de", "the German catalogue is not compiled (make translations)"
    yield


@pytest.fixture
def utc(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The computer's time zone as UTC, so that a time reads the same on every machine."""
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


@pytest.fixture(autouse=True)
def _no_real_keyring() -> Iterator[None]:
    """Each test starts, and leaves the process, with a keyring that keeps nothing: a test that
    installed another one (``keyring.set_keyring``) cannot hand it to the next."""
    import keyring
    from keyring.backends import fail

    keyring.set_keyring(fail.Keyring())
    yield
    keyring.set_keyring(fail.Keyring())


@pytest.fixture
def file_keyring(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Iterator[FileKeyring]:
    """A usable keyring whose entries live in a file in a temporary folder: in this process, and in
    every process the test starts (through PYTHON_KEYRING_BACKEND). ``.entries()`` lists them."""
    import keyring

    path = tmp_path_factory.mktemp("keyring") / "keyring.json"
    monkeypatch.setenv(FILE_ENV, str(path))
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", BACKEND_NAME)
    # A process started from another folder still finds tests.support.
    root = str(Path(__file__).resolve().parent.parent)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, (root, os.environ.get("PYTHONPATH")))))
    backend = FileKeyring(path)
    keyring.set_keyring(backend)
    yield backend


@pytest.fixture
def demo_server():
    """The project's demo server (echo, hang, slow_task, fail, ...) on a free port, in this process."""
    from inspector.demo import DemoServer

    server = DemoServer()
    server.start()
    yield server
    server.stop()
