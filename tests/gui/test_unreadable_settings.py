"""A settings file Qt cannot read whole (a line that is no INI): QSettings writes back only what it
read, so the window's first saved setting dropped the rest silently. Now a copy of the file as it was
is kept beside it before anything is saved, and a box over the window says where."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from inspector.gui.app import run_window
from inspector.gui.main_window import MainWindow

#: An unfinished section header and a line that is no key: Qt reads the rest.
UNREADABLE = b"[operations\ndefault_budget_s=35\n=====\n\n[window]\nlanguage=en\n"


def close_when_shown(seen: dict[str, str], tries: int = 200) -> None:
    """Close the window once the box over it shows (or 10 s after it shows without one), noting what
    the box says."""
    windows = [w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow) and w.isVisible()]
    box = windows[0].findChild(QMessageBox, "settings-problem") if windows else None
    if box is None or not box.isVisible():
        if windows and tries == 0:
            windows[0].close()
        else:
            QTimer.singleShot(50, lambda: close_when_shown(seen, tries - 1 if windows else tries))
        return
    seen["said"] = box.text()
    box.close()
    windows[0].close()


def test_an_unreadable_settings_file_is_copied_before_the_window_writes_over_it(
        qtbot, tmp_path: Path, _isolated_settings: Path, capsys) -> None:
    _isolated_settings.write_bytes(UNREADABLE)
    seen: dict[str, str] = {}
    QTimer.singleShot(50, lambda: close_when_shown(seen))
    assert run_window(str(tmp_path / "runs.db")) == 0
    assert "said" in seen, "no box over the window"
    (copy,) = tmp_path.glob("settings.ini.unreadable-*")
    assert copy.read_bytes() == UNREADABLE
    assert str(_isolated_settings) in seen["said"] and str(copy) in seen["said"]
    assert "cannot be read" in seen["said"] and str(copy) in capsys.readouterr().err


def test_a_readable_settings_file_is_not_copied(qtbot, tmp_path: Path, _isolated_settings: Path) -> None:
    _isolated_settings.write_bytes(b"[window]\nlanguage=en\n")
    windows: list[MainWindow] = []

    def close() -> None:
        windows.extend(w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow) and w.isVisible())
        if windows:
            windows[0].close()
        else:
            QTimer.singleShot(50, close)

    QTimer.singleShot(50, close)
    assert run_window(str(tmp_path / "runs.db")) == 0
    assert windows[0].findChild(QMessageBox, "settings-problem") is None
    assert not list(tmp_path.glob("settings.ini.unreadable-*"))


def test_values_that_cannot_be_used_are_named_and_kept_in_the_file(qtbot, tmp_path: Path,
                                                                  _isolated_settings: Path) -> None:
    """A budget of "abc" and a language there is no catalogue for fell back to their defaults silently."""
    _isolated_settings.write_text("[operations]\ndefault_budget_s=abc\n[window]\nlanguage=xx\n"
                                  "[receiver]\nport=4319\n", encoding="utf-8")
    seen: dict[str, str] = {}
    QTimer.singleShot(50, lambda: close_when_shown(seen))
    assert run_window(str(tmp_path / "runs.db")) == 0
    assert "said" in seen, "no box over the window"
    said = seen["said"]
    assert str(_isolated_settings) in said and "defaults apply" in said
    assert 'operations/default_budget_s = "abc"' in said and 'window/language = "xx"' in said
    assert "receiver/port" not in said  # a usable value is not named
    kept = _isolated_settings.read_text(encoding="utf-8")
    assert "default_budget_s=abc" in kept and "language=xx" in kept
    assert not list(tmp_path.glob("settings.ini.unreadable-*"))


def test_switches_and_token_counts_that_cannot_be_read_are_named_and_their_defaults_apply(
        _isolated_settings: Path) -> None:
    """A switch of "abc" was read as off (the demo server did not start, its default being on) and a token
    count of "lots" fell back to 1,024, both without a word."""
    from inspector.agent.sampling import DEFAULT_MAX_TOKENS
    from inspector.gui.settings import AppSettings
    from inspector.gui.settings_check import unusable_values

    _isolated_settings.write_text("[demo]\nautostart=abc\n[sampling]\nallow=maybe\nmax_tokens=lots\n"
                                  "[receiver]\nautostart=off\n", encoding="utf-8")
    settings = AppSettings()
    assert (settings.demo_autostart, settings.allow_sampling, settings.receiver_autostart) == (True, False, False)
    assert settings.sampling_max_tokens == DEFAULT_MAX_TOKENS
    assert unusable_values(settings.qsettings) == ['demo/autostart = "abc"', 'sampling/allow = "maybe"',
                                                   'sampling/max_tokens = "lots"']
    _isolated_settings.write_text("[demo]\nautostart=false\n[sampling]\nallow=true\nmax_tokens=5000000\n"
                                  "[receiver]\nautostart=1\n", encoding="utf-8")
    settings = AppSettings()  # as Qt writes them, and by hand: used, none named
    assert (settings.demo_autostart, settings.allow_sampling, settings.receiver_autostart) == (False, True, True)
    assert unusable_values(settings.qsettings) == []
