"""The main window: it lays out the rooms (the Servers panel, the Workbench and Runs tabs, the
Server log dock), the menus and their actions, and the status bar. The rooms hold the logic."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QRect, QSize, Qt
from PySide6.QtGui import QAction, QCloseEvent, QGuiApplication, QKeySequence
from PySide6.QtWidgets import QMainWindow, QSplitter, QWidget

from inspector.i18n import _, choose_language, current_language
from inspector.i18n.entry_names import know_window_entry
from inspector.i18n.messages import translate
from inspector.mcp import InvalidServerError
from inspector.store import RunStore, ServerRecord
from inspector.store.secrets import SecretKeeper, system_secret_keeper

from .collection_pacer import CollectionPacer
from .first_paint import AfterFirstPaint, DeferredTab
from .help_menu import install_help_menu, with_keys
from .language import on_language_changed, switch_language, translated, translated_tab
from .play_tab import PlayTab
from .receiving import ReceiverSwitch
from .runs.note_keys import NoteKeys
from .servers_splitter import ServersSplitter
from .settings import AppSettings
from .status_line import StatusLine, saying, status_label
from .team import TeamBackend
from .view_menu import ViewMenu
from .widgets.focus_ring import FocusRing
from .widgets.steady_tabs import SteadyTabs
from .widgets.tab_keys import TabKeys
from .window_layout import restore_layout, save_layout
from .workbench import room
from .workbench.demo_service import DemoService
from .workbench.engine import OperationsEngine
from .workbench.keyring_line import finish_secrets
from .workbench.listening import WindowListener
from .workbench.log_dock import ServerLogDock
from .workbench.operation_task import OperationOutcome, OperationTask
from .workbench.proxy_controls import ProxyControls
from .workbench.questions import QuestionDialogs
from .workbench.server_admin import ServerAdmin, select_at_start
from .workbench.server_requests import WindowAnswers, sampler_from_settings
from .workbench.servers_panel import ServersPanel
from .workbench.signin_panel import SignInRoom

if TYPE_CHECKING:
    from .runs.tab import RunsTab

#: The window's first size; on a smaller screen it takes what the screen offers.
DEFAULT_SIZE = QSize(1200, 760)
#: Below this height the Server log starts hidden (a 1024×600 netbook or a small laptop window).
SHORT_SCREEN_PX = 700


class MainWindow(QMainWindow):
    """Run Inspector's window."""

    def __init__(self, store: RunStore, db_path: Path, settings: AppSettings,
                 engine: OperationsEngine | None = None, *, secrets: SecretKeeper | None = None,
                 demo: DemoService | None = None, opening_file: bool = False) -> None:
        super().__init__()
        translated(self, "setWindowTitle", lambda: _("Run Inspector"))
        self.store, self.db_path, self.settings, self.demo = store, db_path, settings, demo
        self.engine = engine or OperationsEngine(db_path, default_budget_s=settings.default_budget_s)
        self.answers = self.engine.answers = self.engine.answers or WindowAnswers()
        know_window_entry(demo.entry_url if demo is not None else "")  # its name said in the reader's language
        self.answers.set_sampler(sampler_from_settings(settings))
        self.questions = QuestionDialogs(self.answers, self)
        self.dialogs = self.questions.dialogs
        self.engine.start()
        self.engine.signins.hold_reads()  # the keyring is read once the window has painted
        #: The listening session of the selected server (log messages, list changes, its requests).
        self.listener = WindowListener(self.engine)
        self.listener.log_level = settings.server_log_level
        self.engine.set_log_level(settings.server_log_level)  # every operation's session asks for it too
        self._closed = False
        secrets = secrets or system_secret_keeper()
        self.team = TeamBackend(self, secrets)  # pushing runs to the team's collector, traces by id
        self._build(secrets)
        self._menus()
        self.focus_ring = FocusRing(self)  # where the keys go: around a focused list, table or text
        self.pacer = CollectionPacer(self, lambda: bool(self.engine.running_tasks()) or self.play.playing)
        self.status_line = StatusLine(self.status, self.engine, self.play, db_path)  # operations and played runs
        self.proxies.run_recorded.connect(self.status_line.run_recorded)  # and an agent's, through a proxy
        self._update_status()
        restore_layout(self, self._splitters(), self.settings)
        self.admin.secrets.hold()  # the keyring is read once the window has painted (read_secrets)
        select_at_start(self.admin, demo.entry_url if demo is not None else None, opening_file)
        on_language_changed(self, self.retranslate)

    def retranslate(self) -> None:
        """Say again, in the new language, what the window shows that depends on its state."""
        self.workbench.retranslate()
        self.admin.retranslate()
        self.log_dock.retranslate()
        self._update_status()

    # -- layout ------------------------------------------------------------------------------

    def _build(self, secrets: SecretKeeper) -> None:
        self.status = status_label(self)
        self.servers = ServersPanel()
        self.admin = ServerAdmin(self.servers, self.store, self.engine, self.settings, secrets,
                                 saying(self.status), self)
        self.workbench = room.Workbench(self.engine, self.admin, self.settings)
        self.signin = SignInRoom(self.engine.signins, self.admin, self.servers, self, self.listener, self.demo)
        self.tabs = SteadyTabs()
        translated(self.tabs, "setAccessibleName", lambda: _("Workbench and runs"))
        self.tab_keys = TabKeys(self, self.tabs)  # Ctrl+PgDown/PgUp; Alt+W/U/P take the focus into the tab
        translated_tab(self.tabs, self.workbench, lambda: _("&Workbench"))
        # Built once the window has painted (or when first asked for): the first paint does not
        # wait for the run list, the timeline and the step detail.
        self._runs = DeferredTab(self.tabs, lambda: _("R&uns"), self._build_runs_tab)
        self._after_paint = AfterFirstPaint(self, self._after_first_paint)
        self.main = main_splitter(self.servers, self.tabs)
        self.setCentralWidget(self.main)
        size = first_size(available(self))
        self.resize(size)
        self.log_dock = ServerLogDock(self.listener, self)
        self.engine.log.entries.connect(self.log_dock.add_entries)  # what servers log, in paced batches
        self.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, self.log_dock)
        self.log_dock.fit()  # as high as what it shows: an empty log its state line and column heads
        if size.height() < SHORT_SCREEN_PX:
            # On a short screen the rooms need the height more: View → Server log shows it.
            self.log_dock.hide()
        self.admin.selected.connect(self._server_selected)
        self.admin.changing.connect(self.log_dock.server_changing)
        self.engine.tools_changed.connect(self.workbench.tools_changed)
        self.listener.tools_changed.connect(self.workbench.tools_changed)
        self.engine.submitted.connect(self._submitted)

    def _after_first_paint(self) -> None:
        """What the first paint did not wait for: the keyring's reads, the Runs tab."""
        if not self._closed:  # a window closed at once starts nothing more
            self.engine.signins.release_reads()
            self.admin.read_secrets()
            self._runs.page()
            self.team.settings_changed()

    @property
    def runs_tab(self) -> RunsTab:
        return self._runs.page()  # type: ignore[return-value]

    def _build_runs_tab(self) -> RunsTab:
        from .runs.tab import RunsTab

        tab = RunsTab(self.store, self.db_path)
        tab.watch(self.engine)
        tab.accept_drops_on(self)
        tab.workbench_wanted.connect(self._in_workbench)
        tab.transfers.stored.connect(self.status_line.runs_imported)
        self.note_keys.attach(tab)
        return tab

    def _action(self, menu, text, slot, shortcut=None) -> QAction:
        shortcuts = [] if shortcut is None else shortcut if isinstance(shortcut, list) else [shortcut]
        action = translated(QAction(self), "setText", with_keys(text, shortcuts))
        action.setShortcuts(shortcuts)  # none: as it was
        action.triggered.connect(slot)
        menu.addAction(action)
        return action

    def _menus(self) -> None:
        menu = translated(self.menuBar().addMenu(""), "setTitle", lambda: _("&File"))
        self.open_trace_action = self._action(menu, lambda: _("&Open trace…"), lambda: self._in_runs_tab(
            lambda tab: tab.choose_trace()), QKeySequence(QKeySequence.StandardKey.Open))
        self._action(menu, lambda: _("Open trace &by id…"), self.team.open_trace_by_id)
        self.export_selected_action = self._action(menu, lambda: _("&Export the selected runs…"),
                                                   lambda: self._in_runs_tab(lambda tab: tab.choose_export(True)),
                                                   QKeySequence("Ctrl+Shift+E"))  # Ctrl+E is a line edit's "end"
        self.export_listed_action = self._action(menu, lambda: _("Export the &listed runs…"),
                                                 lambda: self._in_runs_tab(lambda tab: tab.choose_export(False)))
        self.delete_runs_action = self._action(menu, lambda: _("&Delete the selected runs…"),
                                               lambda: self.runs_tab.delete_selected())
        self.note_keys = NoteKeys(self, menu, self.tabs)  # Note on this run… / this step…, in the Runs tab
        self._action(menu, lambda: _("&Import servers…"), self.admin.import_servers)
        self.receiving = ReceiverSwitch(self.db_path, self.settings, self, menu)  # Receive OTLP traces
        menu.addSeparator()
        self._action(menu, lambda: _("&Settings…"), self.open_settings)
        self._action(menu, lambda: _("&Quit"), self.close, QKeySequence(QKeySequence.StandardKey.Quit))
        menu = translated(self.menuBar().addMenu(""), "setTitle", lambda: _("&Run"))
        self.run_action = self._action(menu, lambda: _("&Run the tool"), lambda: self._in_workbench(
            room.Workbench.run_current_tool), [QKeySequence("Ctrl+Return"), QKeySequence("Ctrl+Enter")])
        self.cancel_action = self._action(menu, lambda: _("&Cancel the selected operation"),
                                          self.workbench.cancel_current, QKeySequence(Qt.Key.Key_Escape))
        for action in (self.run_action, self.cancel_action):
            action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        self._action(menu, lambda: _("Re&load tools"), self.workbench.load_tools,
                     QKeySequence(QKeySequence.StandardKey.Refresh))
        self.play = PlayTab(self, menu)  # the Play tab, its Run menu entries, Esc while it is shown
        menu = translated(self.menuBar().addMenu(""), "setTitle", lambda: _("&Server"))
        self._action(menu, lambda: _("&Add server…"), self.admin.add_server)
        self.servers.follow_selection([  # enabled as the panel's buttons are
            self._action(menu, lambda: _("&Edit server…"), self.admin.edit_current),
            self._action(menu, lambda: _("&Remove server"), self.admin.remove_current),
            self._action(menu, lambda: _("&Test connection"), self.admin.test_current)],
            self._action(menu, lambda: _("&Console (stderr)"), self.admin.console_current))
        self.proxies = ProxyControls(self.servers, self.db_path, menu)  # an agent's runs through a proxy
        menu = translated(self.menuBar().addMenu(""), "setTitle", lambda: _("&View"))
        menu.addAction(translated(self.log_dock.toggleViewAction(), "setText", lambda: _("Server &log")))
        self.view_menu = ViewMenu(self, menu)  # zoom, full screen, presentation
        # Actions live in the window too, so their shortcuts work wherever the focus is.
        self.addActions([self.run_action, self.cancel_action])
        self.help_menu = install_help_menu(self, self.db_path, self.settings.qsettings.fileName())
        self.help_menu.before_listing = self._runs.page  # the Runs tab's shortcuts are listed too

    # -- traces (the Runs tab does the work) ---------------------------------------------------

    def _in_runs_tab(self, do: Callable[[RunsTab], object]) -> None:
        self.tab_keys.show(self.runs_tab)
        do(self.runs_tab)

    def open_trace(self, path: Path) -> None:
        """Import a trace file (``run-inspector FILE``, a drop) and show its runs."""
        self._in_runs_tab(lambda tab: tab.open_trace(path))

    # -- the selected server and the operations ----------------------------------------------------

    def _server_selected(self, record: ServerRecord | None) -> None:
        if record is not None and self.demo is not None and self.demo.stopped_entry(record.url):
            # No tools, no listening: the panel offers Start (DemoControls).
            self.log_dock.listen_to(None, None)
            self.workbench.show_budget(record)
            self.workbench.tools.clear(self.demo.tools_note)
            return
        endpoint = unusable = None
        if record is not None:
            try:
                endpoint = self.admin.endpoint_for(record)
            except InvalidServerError as exc:  # e.g. its secrets still being read: said, not "no server selected"
                unusable = partial(translate, exc)
        self.log_dock.listen_to(record, endpoint, unusable)
        self.workbench.server_selected(record)

    def _in_workbench(self, request) -> None:
        if request(self.workbench) is not None:
            self.tabs.setCurrentWidget(self.workbench)  # a lookup or a replay runs where operations are shown

    def _submitted(self, task: OperationTask) -> None:
        self.workbench.operations.add(task)
        task.finished.connect(lambda outcome, task=task: self._finished(task, outcome))
        self._update_status()

    def _finished(self, task: OperationTask, outcome: OperationOutcome) -> None:
        if self._closed:
            return  # a report that crossed the quit: the store is closed
        # The selected operation's detail showed its end already: its result, its legs and the
        # links its answer carried follow the task's `changed`, which the end emits first.
        self.status_line.run_ended(outcome.run_id, task.title, outcome.status)
        self._update_status()
        # Health is read back once for a burst of endings (twenty operations may end together).
        self.admin.health_changed()

    def _update_status(self) -> None:
        count = len(self.engine.running_tasks())
        # Esc and the button cancel whatever runs (the selected operation first): with nothing
        # running they would do nothing, so they say so by being disabled.
        self.workbench.set_cancel_enabled(count > 0)
        self.cancel_action.setEnabled(count > 0)
        self.status_line.update()

    # -- settings, geometry, quitting ---------------------------------------------------------------

    def open_settings(self) -> None:
        from .dialogs.settings_dialog import SettingsDialog  # with the sampling and agent parts it shows

        dialog = SettingsDialog(self.settings, str(self.db_path), self, self.team.team.secrets)
        if dialog.exec() == SettingsDialog.DialogCode.Accepted:
            self.engine.default_budget_s = self.settings.default_budget_s
            self.answers.set_sampler(sampler_from_settings(self.settings))
            if self.settings.server_log_level != self.listener.log_level:
                self.listener.set_log_level(self.settings.server_log_level)
            self.engine.set_log_level(self.settings.server_log_level)
            # Only what the settings change: the budget shown; the catalogue and the chosen tool stay.
            self.workbench.show_budget(self.admin.current())
            # No language applied here: the dialog showed a chosen one at once; `--lang` keeps the rest.
            self.team.settings_changed()

    def apply_language(self) -> str:
        """Switch to the language the settings ask for (else the system's), if it is not the one shown."""
        wanted = choose_language(self.settings.language or None)
        return switch_language(wanted) if wanted != current_language() else wanted

    def _splitters(self) -> dict[str, QSplitter]:
        return {"main": self.main, "workbench": self.workbench, **{name: getattr(self.workbench, name)
                                                                    for name in room.SPLITTERS}}

    def save_layout(self) -> None:
        save_layout(self, self._splitters(), self.settings)

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802
        self.shut_down()
        super().closeEvent(event)

    def shut_down(self) -> None:
        """Cancel what runs, let housekeeping finish (bounded), stop the worker and the demo server."""
        if self._closed:
            return
        self._closed = True
        self.admin.close()
        self.save_layout()
        self.hide()  # off the screen before a command server's shutdown ladder may take seconds
        self.team.shut_down()
        if self._runs.built:
            self.runs_tab.shut_down()
        self.receiving.stop()
        self.proxies.stop_all()  # what they still hold is recorded before the database closes
        self.log_dock.stop()  # before the engine winds down: the session's DELETE is bounded
        self.engine.shutdown()
        finish_secrets(self.engine.keyring, [self.admin.secrets, *self.team.secrets.keepers()])  # bounded
        self.status_line.stop()
        self.pacer.stop()
        if self.demo is not None:
            self.demo.stop()


def main_splitter(servers: QWidget, tabs: QWidget) -> QSplitter:
    """The servers beside the tabs, the tabs taking the width the window gains (:class:`.ServersSplitter`)."""
    return ServersSplitter(servers, tabs)


def available(window: QMainWindow) -> QRect | None:
    """The screen's available area where ``window`` is (or the primary screen's)."""
    screen = window.screen() or QGuiApplication.primaryScreen()
    return screen.availableGeometry() if screen is not None else None


def first_size(available: QRect | None) -> QSize:
    """The first window's size: the default, or the screen's available area when that is smaller."""
    if available is None or not available.isValid():
        return DEFAULT_SIZE
    return DEFAULT_SIZE.boundedTo(available.size())
