"""Start-up of the window: checks, the application object, the store, the demo server, the window."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from .startup import platform_problem

if TYPE_CHECKING:
    from PySide6.QtWidgets import QApplication

    from inspector.store import RunStore, ServerRegistry
    from inspector.store.secrets import SecretKeeper

    from .database_start import Chooser
    from .main_window import MainWindow
    from .settings import AppSettings
    from .workbench.demo_service import DemoService

#: Exit status when no window can open here (no display, missing libraries, unusable database).
EXIT_NO_WINDOW = 1
EXIT_BAD_DATABASE = 2


def run_window(db_option: str | None = None, argv: list[str] | None = None, *,
               open_file: str | os.PathLike[str] | None = None, language: str | None = None,
               choose: Chooser | None = None) -> int:
    """Open the window on the run database and run until it is closed; return the exit status.

    ``open_file`` (``run-inspector FILE``) is imported once the window shows, and its run selected.
    ``choose`` asks what to do when the database cannot be used (default: a dialog)."""
    problem = platform_problem()
    if problem is not None:
        print(f"run-inspector: {problem}", file=sys.stderr)
        return EXIT_NO_WINDOW

    from PySide6.QtWidgets import QApplication

    from .settings import APPLICATION, ORGANIZATION

    app = QApplication.instance() or QApplication(argv if argv is not None else sys.argv[:1])
    app.setOrganizationName(ORGANIZATION)
    app.setApplicationName(APPLICATION)
    from .quit_signals import QuitOnSignals

    # SIGTERM and SIGINT quit as File → Quit does: status 0, the demo server stopped, the database closed.
    signals = QuitOnSignals(lambda: quit_application(app))
    try:
        return _run(app, db_option, open_file=open_file, language=language, choose=choose)
    finally:
        signals.remove()


def quit_application(app: QApplication) -> None:
    """Close every window (a dialog's own loop ends too) and end the event loop with status 0."""
    app.closeAllWindows()
    app.exit(0)


def _run(app: QApplication, db_option: str | None, *, open_file: str | os.PathLike[str] | None,
         language: str | None, choose: Chooser | None) -> int:
    """The window's life once the application object exists (see :func:`run_window`)."""
    from inspector.logfile import install_excepthook

    from .app_icon import present_application
    from .qt_messages import log_qt_messages
    from .settings import AppSettings, keep_unreadable_copy

    install_excepthook()  # a slot's unexpected error goes to the log file too (logging loads on the first)
    log_qt_messages()  # and Qt's own warnings, still passed on to the handler before
    present_application(app)
    settings = AppSettings()
    settings_copy = keep_unreadable_copy(settings.qsettings)  # before anything is saved over it
    from inspector.i18n import choose_language

    from .language import switch_language

    # `--lang` wins for this session; else the setting, else the system's language.
    switch_language(language or choose_language(settings.language or None))
    from .database_start import ask_with_dialog, moved_aside_note, open_or_ask, say_damaged_log

    # A database that cannot be used is a dialog (a window started from a menu has no terminal).
    path = database_path(db_option, settings.database_path)
    from_settings = path if settings.database_path and path == Path(settings.database_path).expanduser() else None
    opened = open_or_ask(path, choose or (lambda problem, asked: ask_with_dialog(problem, asked, from_settings)),
                         lambda store, path: open_window(store, path, settings, opening_file=open_file is not None))
    if opened is None:
        return EXIT_BAD_DATABASE
    store, window = opened.store, opened.built
    if opened.moved_to is not None:
        note = moved_aside_note(opened.moved_to)
        window.status.setText(note)  # a long path may not fit the status line: its tip is whole where it is cut
    window.show()
    say_damaged_log(window, opened.path, store)
    say_settings_problems(window, settings, settings_copy)
    if open_file is not None:
        from PySide6.QtCore import QTimer

        QTimer.singleShot(0, lambda: window.open_trace(Path(open_file)))
    app.aboutToQuit.connect(window.shut_down)
    try:
        return app.exec()
    finally:
        window.shut_down()
        store.close()


def say_settings_problems(window: MainWindow, settings: AppSettings, copy: Path | None) -> None:
    """Lines of the settings file that could not be read (``copy``: where the file was copied), a file too
    large to be read, and values that cannot be used, in a box over the shown window (the status line is
    soon taken by the runs) and on stderr for whoever started the window from a terminal."""
    from inspector.i18n import _

    from .settings import settings_file, unreadable_settings_note
    from .settings_check import unusable_values, unusable_values_note
    from .settings_size import not_a_file, not_a_file_note, oversized, oversized_settings_note
    from .widgets.notice_box import notice_box

    sentences = [] if copy is None else [unreadable_settings_note(settings.qsettings, copy)]
    path = settings_file()
    size = oversized(path)
    if size is not None:
        sentences.append(oversized_settings_note(path, size))
    elif not_a_file(path):
        sentences.append(not_a_file_note(path))
    values = unusable_values(settings.qsettings)
    if values:
        sentences.append(unusable_values_note(settings.qsettings, values))
    if not sentences:
        return
    notice_box(window, _("Run Inspector: settings"), " ".join(sentences), "settings-problem")


def database_path(option: str | None, configured: str) -> Path:
    """``--db`` wins, then ``RUN_INSPECTOR_DB``, then the settings, then the user data folder."""
    from inspector.store import DB_ENV, resolve_db_path

    if option or os.environ.get(DB_ENV, "").strip() or not configured:
        return resolve_db_path(option)
    return Path(configured).expanduser()


def open_window(store: RunStore, db_path: Path, settings: AppSettings, *,
                secrets: SecretKeeper | None = None, opening_file: bool = False) -> MainWindow:
    """A launch's window (not yet shown): the demo server started or its entry marked, then the window.

    ``opening_file`` (``run-inspector FILE``): opening a file is only opening a file. The demo server
    does not start (its entry, if there is one, stays "not running" with its Start button; none is
    added) and no server is selected, so no tools are listed and nothing but the import is recorded."""
    from inspector.store import ServerRegistry
    from inspector.store.browse import list_runs

    from .main_window import MainWindow
    from .runs.run_listing import PAGE_SIZE
    from .workbench.demo_controls import DemoControls
    from .workbench.engine import OperationsEngine

    # The first page the Runs tab lists, read before the window is made: damaged pages there are
    # met here, where the database dialog asks (the tab itself is built after the first paint).
    list_runs(store, limit=PAGE_SIZE + 1)
    registry = ServerRegistry(store.db)
    # its process is spawned once the window has painted
    demo = autostart_demo(registry, settings, held=True, autostart=not opening_file)
    engine = OperationsEngine(db_path, default_budget_s=settings.default_budget_s)
    try:
        window = MainWindow(store, db_path, settings, engine=engine, secrets=secrets, demo=demo,
                            opening_file=opening_file)
    except BaseException:
        # E.g. damaged pages met while the window reads the database: what it started stops.
        engine.shutdown()
        if demo is not None:
            demo.stop()
        raise
    if demo is not None:
        from .first_paint import AfterFirstPaint

        window.after_demo = AfterFirstPaint(window, demo.release)
        demo.send_output_to(window.engine.log)  # its log lines, in the Server log
        window.demo_controls = DemoControls(demo, window.servers, registry,
                                            lambda url: window.admin.reload_servers(select_url=url))
        demo.changed.connect(lambda: demo.problem and not demo.running and window.status.setText(demo.problem))
        if demo.problem:
            window.status.setText(demo.problem)
        if opening_file and registry.settings(demo.entry_url) is not None:
            # The one server selected: the demo entry, not running, with its Start (it asks no server anything).
            window.admin.reload_servers(select_url=demo.entry_url, remember=False)
    return window


def autostart_demo(registry: ServerRegistry, settings: AppSettings, *, held: bool = False,
                   autostart: bool = True) -> DemoService | None:
    """The demo at launch: started (or its entry kept, not running) as :class:`DemoService` decides
    (``held``: its process waits for :meth:`DemoService.release`; ``autostart=False``: not started
    whatever the settings say, and no entry added)."""
    from .workbench.demo_service import DemoService

    return DemoService.at_launch(registry, settings, held=held, autostart=autostart)


__all__ = ["EXIT_BAD_DATABASE", "EXIT_NO_WINDOW", "autostart_demo", "database_path", "open_window", "run_window"]
