"""A settings file too large to be settings (a 200 MB one took the window to 760 MB at start: Qt reads
the file whole as it opens it) is not read: the box over the window says so, the defaults apply, and
the file is left byte for byte as it was, though the window saves its layout as it closes. The
window's own writes stay far below the limit: arguments too long to retype are not remembered."""

from __future__ import annotations

import hashlib
from pathlib import Path

from PySide6.QtCore import QSettings, QTimer

from inspector.gui.app import run_window
from inspector.gui.settings import AppSettings, open_qsettings
from inspector.gui.settings_size import MAX_REMEMBERED_ARGUMENTS_CHARS, MAX_SETTINGS_BYTES
from tests.gui.test_unreadable_settings import close_when_shown

#: Settings a read file would apply; the padding (one comment line) makes the file the size asked.
HEAD = b"[operations]\ndefault_budget_s=35\n[window]\nlanguage=de\n; "


def settings_of_size(path: Path, size: int) -> str:
    path.write_bytes(HEAD + b"x" * (size - len(HEAD) - 1) + b"\n")
    assert path.stat().st_size == size
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_settings_file_too_large_is_not_read_and_left_as_it_was(qtbot, tmp_path: Path,
                                                                   _isolated_settings: Path, capsys) -> None:
    digest = settings_of_size(_isolated_settings, MAX_SETTINGS_BYTES + 1)
    before = _isolated_settings.stat().st_mtime_ns
    seen: dict[str, str] = {}
    QTimer.singleShot(50, lambda: close_when_shown(seen))
    assert run_window(str(tmp_path / "runs.db"), language="en") == 0  # the window saves its layout as it closes
    assert "said" in seen, "no box over the window"
    assert seen["said"] == (
        f"The settings file {_isolated_settings} is 4 MB, too large to be settings (at most 4 MB), so it was not "
        "read and the defaults apply. The file is left as it is: settings chosen now hold until the window closes "
        "and are not saved. Move the file away or delete it to have settings saved again.")
    assert seen["said"] in capsys.readouterr().err
    assert hashlib.sha256(_isolated_settings.read_bytes()).hexdigest() == digest
    assert _isolated_settings.stat().st_mtime_ns == before
    assert sorted(path.name for path in tmp_path.iterdir() if path.name.startswith("settings")) == ["settings.ini"]


def test_what_is_chosen_meanwhile_holds_for_the_session_and_the_defaults_apply(_isolated_settings: Path) -> None:
    settings_of_size(_isolated_settings, MAX_SETTINGS_BYTES + 1)
    first = AppSettings()
    assert first.default_budget_s != 35 and first.language == ""  # the file's values are not read
    first.default_budget_s = 12
    first.sync()
    assert AppSettings().default_budget_s == 12  # another reader (the transfer folder's) sees the same stand-in
    assert open_qsettings().fileName() != str(_isolated_settings)


def test_a_settings_file_at_the_limit_is_read(_isolated_settings: Path) -> None:
    settings_of_size(_isolated_settings, MAX_SETTINGS_BYTES)
    settings = AppSettings()
    assert settings.default_budget_s == 35 and settings.language == "de"


def test_arguments_too_long_to_retype_are_not_remembered(tmp_path: Path) -> None:
    path = tmp_path / "settings.ini"
    settings = AppSettings(QSettings(str(path), QSettings.Format.IniFormat))
    settings.language = "en"
    settings.remember_arguments("http://127.0.0.1:9/mcp", "echo", {"text": "short"})
    settings.remember_arguments("http://127.0.0.1:9/mcp", "echo", {"text": "x" * MAX_REMEMBERED_ARGUMENTS_CHARS})
    settings.sync()
    assert settings.last_arguments("http://127.0.0.1:9/mcp", "echo") is None  # not the older, shorter ones
    assert path.stat().st_size < 1000 and AppSettings(QSettings(str(path), QSettings.Format.IniFormat)).language == "en"
    settings.remember_arguments("http://127.0.0.1:9/mcp", "echo", {"text": "y" * 1000})
    assert settings.last_arguments("http://127.0.0.1:9/mcp", "echo") == {"text": "y" * 1000}
