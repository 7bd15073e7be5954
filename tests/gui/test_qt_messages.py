"""Qt's own warnings reach the log file through the window's handler, which still hands each message on
to the handler before it: here pytest-qt's, so a Qt warning keeps failing the test that caused it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PySide6.QtCore import qWarning

from inspector.gui.qt_messages import log_qt_messages


@pytest.mark.qt_log_ignore("a probe warning")
def test_qt_warnings_go_to_the_log_file_and_on_to_the_handler_before(qtlog) -> None:
    log = Path(os.environ["RUN_INSPECTOR_LOG"])
    log_qt_messages()
    log_qt_messages()  # a second start in one process changes nothing: one line a message
    qWarning("a probe warning, password=hunter2-planted")
    captured = [record.message for record in qtlog.records]
    assert captured == ["a probe warning, password=hunter2-planted"]  # pytest-qt still sees it
    logged = log.read_text(encoding="utf-8")
    assert logged.count("WARNING Qt: a probe warning, password=") == 1
    assert "hunter2-planted" not in logged
