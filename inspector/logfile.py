"""The log file: unexpected errors with their traceback (and the window's Qt warnings), in the user's
log folder, rotated, scrubbed.

``RUN_INSPECTOR_LOG`` names the file; else it is ``run-inspector.log`` in the platform's user log
folder (e.g. ``~/.local/state/run-inspector/log``). Nothing is set up at import: the window installs
:func:`install_excepthook` when it starts (and passes Qt's own warnings to :func:`log_message`), the
command line calls :func:`log_unexpected` on its internal-error path, and only then are ``logging``
and the file opened. Every line passes through the trace redaction (bearer tokens,
``Authorization``-like headers, ``password=``/``token=`` values, URL user info), so a secret quoted in
an exception's message never reaches the disk.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import logging

LOG_ENV = "RUN_INSPECTOR_LOG"
LOG_FILENAME = "run-inspector.log"
#: One file of about 1 MB and three older ones: enough for a bug report, never a full disk.
MAX_BYTES = 1_000_000
BACKUPS = 3
LOGGER_NAME = "run_inspector.errors"


def log_path() -> Path:
    """The log file in use: ``RUN_INSPECTOR_LOG``, else ``run-inspector.log`` in the user log folder."""
    from_env = os.environ.get(LOG_ENV, "").strip()
    if from_env:
        return Path(from_env).expanduser()
    import platformdirs

    from inspector.store.paths import APP_NAME

    return Path(platformdirs.user_log_dir(APP_NAME, appauthor=False)) / LOG_FILENAME


def _error_logger(path: Path) -> logging.Logger:
    """The errors logger, writing to ``path`` (its handler is replaced when the path changed)."""
    import logging
    import logging.handlers

    from inspector.traces.redact import redact_text

    class ScrubbingFormatter(logging.Formatter):
        """Formats a record with its traceback, then removes the credentials the text spells out."""

        def format(self, record: logging.LogRecord) -> str:
            return redact_text(super().format(record))

    class QuietRotatingHandler(logging.handlers.RotatingFileHandler):
        """A log that cannot be written must not add a second traceback to the first one."""

        def handleError(self, record: logging.LogRecord) -> None:  # noqa: N802 (logging's name)
            pass

    logger = logging.getLogger(LOGGER_NAME)
    logger.propagate = False  # the user's terminal already shows the traceback; the file is the record
    logger.setLevel(logging.WARNING)  # errors, and the warnings of the libraries below (Qt's)
    for handler in list(logger.handlers):
        if getattr(handler, "baseFilename", None) == os.path.abspath(path):
            return logger
        logger.removeHandler(handler)
        handler.close()
    path.parent.mkdir(parents=True, exist_ok=True)
    handler = QuietRotatingHandler(path, maxBytes=MAX_BYTES, backupCount=BACKUPS, encoding="utf-8", delay=True)
    handler.setFormatter(ScrubbingFormatter("%(asctime)s %(levelname)s %(message)s"))
    logger.addHandler(handler)
    return logger


def log_unexpected(what: str, error: BaseException) -> Path | None:
    """Write ``what`` and ``error``'s traceback to the log file; return the file, or None when it
    could not be written (a read-only home must not turn one error into two)."""
    try:
        path = log_path()
        logger = _error_logger(path)
        logger.error("%s", what, exc_info=(type(error), error, error.__traceback__))
        for handler in logger.handlers:
            handler.flush()
    except Exception:  # noqa: BLE001 (logging an error must never raise another)
        return None
    return path if path.exists() else None


def log_message(level: str, text: str) -> Path | None:
    """Write one line at ``level`` ("warning", "error" or "critical"), e.g. a warning of Qt's; return the
    file, or None when it could not be written."""
    try:
        import logging

        path = log_path()
        logger = _error_logger(path)
        logger.log(logging.getLevelName(level.upper()), "%s", text)
        for handler in logger.handlers:
            handler.flush()
    except Exception:  # noqa: BLE001 (logging must never raise)
        return None
    return path if path.exists() else None


def install_excepthook() -> None:
    """Log every exception nothing caught (in the window: a slot's), then let the previous hook print it."""
    previous = sys.excepthook
    if getattr(previous, "_run_inspector_logs", False):
        return  # installed already (a second window in one process, a test)

    def hook(kind: type[BaseException], error: BaseException, traceback: TracebackType | None) -> None:
        if not issubclass(kind, KeyboardInterrupt):
            log_unexpected("Unhandled exception in the window", error.with_traceback(traceback))
        previous(kind, error, traceback)

    hook._run_inspector_logs = True  # type: ignore[attr-defined]
    sys.excepthook = hook
