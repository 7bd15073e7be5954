"""The oldest Qt pyproject.toml allows has what the window uses: QAccessibleAnnouncementEvent (a run's end said
to a screen reader, inspector/gui/widgets/accessibility.py) came with Qt 6.8, and the code no longer asks
whether it is there (the announcements: tests/gui/test_keyboard_and_reader.py). PySide6 6.7 was allowed,
where nothing was announced; 6.12.0 stays out (tests/gui/test_qt_binding.py)."""

from __future__ import annotations

import tomllib
from pathlib import Path

from packaging.requirements import Requirement  # pytest's own dependency

ROOT = Path(__file__).resolve().parents[2]


def test_pyside6_is_required_from_6_8_without_6_12_0() -> None:
    dependencies = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]
    (pyside,) = [Requirement(text) for text in dependencies if Requirement(text).name == "PySide6-Essentials"]
    allowed = pyside.specifier
    assert not allowed.contains("6.7.3") and allowed.contains("6.8.0") and allowed.contains("6.11.3")
    assert not allowed.contains("6.12.0") and allowed.contains("6.12.1")

