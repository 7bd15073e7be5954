"""Window tests: offscreen Qt, settings in a temporary file, real servers on 127.0.0.1."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from inspector.mcp import ServerEndpoint
from tests.support.asgi_server import serve_asgi
from tests.support.screens import offscreen_platform
from tests.support.sdk_server import ToolEvents, build_sdk_server


@pytest.fixture(autouse=True)
def _isolated_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Never the user's settings: every test gets its own settings file."""
    path = tmp_path / "settings.ini"
    monkeypatch.setenv("RUN_INSPECTOR_SETTINGS", str(path))
    monkeypatch.setenv("QT_QPA_PLATFORM", offscreen_platform("1920x1080"))
    return path


@pytest.fixture(autouse=True)
def _fresh_demo_in_a_thread(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """The Play tab's fresh demo server (a scenario played with no server chosen) runs in a thread of
    this process (tests/support/threaded_demo.py): the same server and options, without 1-2 s of a
    process start. A test about that process asks for ``play_demo_process`` and keeps it."""
    if "play_demo_process" in request.fixturenames:
        return
    from inspector.gui.workbench import demo_process, demo_service  # noqa: F401
    from tests.support.threaded_demo import ThreadedDemo

    # demo_service (the window's own demo server, a process of its own) binds DemoProcess when it is
    # first imported: imported here first, before the patch, it keeps the real one for the whole test
    # process (imported first under the patch, it kept ThreadedDemo for good, and a test of the window's
    # demo process run alone never saw the process's stderr).
    monkeypatch.setattr(demo_process, "DemoProcess", ThreadedDemo)  # what the Play worker starts


@pytest.fixture
def play_demo_process() -> None:
    """The Play tab starts its fresh demo server in a process of its own, as the application does."""


@dataclass
class SdkServer:
    url: str
    events: ToolEvents

    @property
    def endpoint(self) -> ServerEndpoint:
        # The handshake era, pinned: this server's tools ask by sending requests on the stream
        # (elicit_form, create_message, list_roots), which only that era has; `auto` would find the
        # stateless era here. What the window does with a question asked in rounds is tested
        # against the demo server (test_stateless_questions).
        return ServerEndpoint(self.url, name="sdk server", era="handshake")


@pytest.fixture
def sdk_server() -> Iterator[SdkServer]:
    """The official SDK server (echo, add, explode, slow) on a free port."""
    events = ToolEvents()
    app = build_sdk_server(events).streamable_http_app(json_response=False, stateless_http=False)
    with serve_asgi(app) as url:
        yield SdkServer(url, events)


@pytest.fixture
def make_window(qtbot):
    """Opens the main window on the test's run database with the given servers configured
    (``era`` stores the era the window speaks to each of them in, for a test of one era's ways)."""
    from inspector.gui.main_window import MainWindow
    from inspector.gui.settings import AppSettings
    from inspector.store import RunStore, ServerRegistry, resolve_db_path
    from inspector.store.secrets import NoSecretKeeper

    opened = []

    def make(*servers: tuple[str, str], budget_s: float | None = None, wait_tools: bool = True,
             era: str | None = None):
        store = RunStore.open(resolve_db_path())
        registry = ServerRegistry(store.db)
        for url, name in servers:
            registry.save_server(url, name=name, budget_s=budget_s, era=era)
        window = MainWindow(store, resolve_db_path(), AppSettings(), secrets=NoSecretKeeper())
        opened.append((window, store))
        qtbot.addWidget(window)
        window.show()
        qtbot.waitExposed(window)
        if wait_tools and servers:
            tools = window.workbench.tools
            qtbot.waitUntil(lambda: tools.model.rowCount() > 0 or (tools.task is not None
                                                                          and not window.workbench.tools.task.running),
                            timeout=20000)  # generous: a loaded CI machine once needed more than 10 s
        return window

    yield make
    for window, store in opened:
        window.shut_down()
        store.close()


@pytest.fixture
def points(request):
    """The application's font at ``request.param`` points (a projector's desktop font), the
    usual one again after; used indirectly: ``@pytest.mark.parametrize(..., indirect=["points"])``."""
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance()
    before = app.font()
    if request.param is not None:
        font = app.font()
        font.setPointSizeF(request.param)
        app.setFont(font)
    yield request.param
    app.setFont(before)


@pytest.fixture
def answers():
    """The window's answers to a server's requests (questions, sampling), without a window."""
    from inspector.gui.workbench.server_requests import WindowAnswers

    return WindowAnswers()


@pytest.fixture
def engine(qtbot, answers):
    """A running operations engine that answers a server's requests through ``answers``."""
    from inspector.gui.workbench.engine import OperationsEngine

    engine = OperationsEngine(None, answers=answers)
    engine.start()
    yield engine
    engine.shutdown()


@pytest.fixture
def runs_tab_showing(qtbot, make_window):
    """Opens a stored run in the Runs tab: ``runs_tab_showing(run_id, language="de")`` makes a window on
    the test's run database (or takes ``window``, made already: wider, with servers), resizes it to
    ``size``, shows its Runs tab, switches to ``language`` (``language_first``: before the window is made,
    as a user's language is), then waits for the run's row, selects it and waits for its timeline (see
    :meth:`RunsShown.select` for ``listed`` and ``steps``; without ``run_id`` nothing is selected yet:
    ``.select`` each run). Returns the :class:`RunsShown`; a language switched to is switched back to
    English after the test."""
    from PySide6.QtCore import QSize

    from inspector.gui.language import switch_language
    from tests.support.runs_tab import RunsShown

    switched = []

    def show(run_id: int | None = None, *, language: str | None = None, window=None,
             size: QSize | tuple[int, int] | None = None, language_first: bool = False, listed: int | None = None,
             steps: int | None = None) -> RunsShown:
        assert not (language_first and window is not None), "language_first makes the window itself"
        if language is not None and language_first:
            switched.append(switch_language(language))
        if window is None:
            window = make_window(wait_tools=False)
        if size is not None:
            window.resize(QSize(*size) if isinstance(size, tuple) else size)
        window.tabs.setCurrentWidget(window.runs_tab)
        if language is not None and not language_first:
            switched.append(switch_language(language))
        shown = RunsShown(qtbot, window)
        if run_id is not None:
            shown.select(run_id, listed=listed, steps=steps)
        return shown

    yield show
    if switched:
        switch_language("en")


@pytest.fixture
def announcements(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """What the window asks Qt to announce to a screen reader (Qt 6.8's announcement events)."""
    from PySide6.QtGui import QAccessible

    said: list[str] = []
    passed_on = QAccessible.updateAccessibility

    def update(event) -> None:
        if event.type() == QAccessible.Event.Announcement:
            said.append(event.message())
        passed_on(event)

    monkeypatch.setattr(QAccessible, "updateAccessibility", update)
    yield said
