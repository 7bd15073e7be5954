"""Start-up of the window: checks, the application object, the store, the demo server, the window."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from .startup import platform_problem

if TYPE_CHECKING:
    from inspector.store import ServerRegistry

    from .settings import AppSettings
    from .workbench.demo_service import DemoService

#: Exit status when no window can open here (no display, missing libraries, unusable database).
EXIT_NO_WINDOW = 1
EXIT_BAD_DATABASE = 2


def run_window(db_option: str | None = None, argv: list[str] | None = None, *,
               open_file: str | os.PathLike[str] | None = None, language: str | None = None) -> int:
    """Open the window on the run database and run until it is closed; return the exit status.

    ``open_file`` (``run-inspector FILE``) is imported once the window shows, and its run selected."""
    problem = platform_problem()
    if problem is not None:
        print(f"run-inspector: {problem}", file=sys.stderr)
        return EXIT_NO_WINDOW

    from PySide6.QtWidgets import QApplication

    from inspector.store import RunStore, ServerRegistry, StoreError

    from .main_window import MainWindow
    from .settings import APPLICATION, ORGANIZATION, AppSettings

    app = QApplication.instance() or QApplication(argv if argv is not None else sys.argv[:1])
    app.setOrganizationName(ORGANIZATION)
    app.setApplicationName(APPLICATION)
    settings = AppSettings()
    from inspector.i18n import choose_language

    from .language import switch_language

    # `--lang` wins for this session; else the setting, else the system's language.
    switch_language(language or choose_language(settings.language or None))
    db_path = database_path(db_option, settings.database_path)
    try:
        store = RunStore.open(db_path)
    except StoreError as exc:
        print(f"run-inspector: {exc}", file=sys.stderr)
        return EXIT_BAD_DATABASE
    demo = None
    registry = ServerRegistry(store.db)
    if settings.demo_autostart:
        demo = autostart_demo(registry, settings)
    window = MainWindow(store, db_path, settings, demo=demo)
    if demo is not None and demo.problem:
        window.status.setText(demo.problem)
    window.show()
    if open_file is not None:
        from PySide6.QtCore import QTimer

        QTimer.singleShot(0, lambda: window.open_trace(Path(open_file)))
    app.aboutToQuit.connect(window.shut_down)
    try:
        return app.exec()
    finally:
        window.shut_down()
        store.close()


def database_path(option: str | None, configured: str) -> Path:
    """``--db`` wins, then ``RUN_INSPECTOR_DB``, then the settings, then the user data folder."""
    from inspector.store import DB_ENV, resolve_db_path

    if option or os.environ.get(DB_ENV, "").strip() or not configured:
        return resolve_db_path(option)
    return Path(configured).expanduser()


def autostart_demo(registry: ServerRegistry, settings: AppSettings) -> DemoService | None:
    """Start the demo server when no server but an earlier demo is configured."""
    from .workbench.demo_service import DemoService

    previous = str(settings.qsettings.value("demo/last_url", "") or "")
    others = [record for record in registry.all() if record.url != previous]
    if others:
        return None
    if previous:
        registry.remove_server(previous)  # its port is gone with the process that had it
    demo = DemoService()
    url = demo.start(registry)
    if url is not None:
        settings.qsettings.setValue("demo/last_url", url)
        settings.sync()
    return demo


__all__ = ["EXIT_BAD_DATABASE", "EXIT_NO_WINDOW", "autostart_demo", "database_path", "run_window"]
