"""Qt's own warnings and errors in the log file: the window's start installs :func:`log_qt_messages`.

Qt says what went wrong inside it (a missing plugin, a broken image, a painter misused) through its
message handler, which by default prints to stderr: a window started from the desktop's menu has
none. The handler installed here writes warnings, criticals and fatals to the log file (through
:func:`inspector.logfile.log_message`, scrubbed of credentials like every line there) and then hands
every message on to the handler that was there before (pytest-qt's in the tests, so a Qt warning
still fails the test that caused it), or prints it as Qt would when there was none.
"""

from __future__ import annotations

import sys

from PySide6.QtCore import QMessageLogContext, QtMsgType, qFormatLogMessage, qInstallMessageHandler

from inspector.logfile import log_message

_LEVELS = {QtMsgType.QtWarningMsg: "warning", QtMsgType.QtCriticalMsg: "error", QtMsgType.QtFatalMsg: "critical"}


def log_qt_messages() -> None:
    """Install the handler (once: a second call while it is installed changes nothing)."""
    previous = []

    def handler(kind: QtMsgType, context: QMessageLogContext, message: str) -> None:
        level = _LEVELS.get(kind)
        if level is not None:
            category = context.category if context is not None else ""
            where = f"Qt ({category})" if category and category != "default" else "Qt"
            log_message(level, f"{where}: {message}")
        if previous and previous[0] is not None:
            previous[0](kind, context, message)
        else:
            sys.stderr.write(qFormatLogMessage(kind, context, message) + "\n")

    handler._run_inspector_logs = True  # type: ignore[attr-defined]
    before = qInstallMessageHandler(handler)
    if getattr(before, "_run_inspector_logs", False):
        qInstallMessageHandler(before)  # installed already: keep that one and what it passes on to
        return
    previous.append(before)


__all__ = ["log_qt_messages"]
