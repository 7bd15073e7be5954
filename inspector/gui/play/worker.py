"""Playing agent runs on a worker thread: one asyncio loop of its own, never the GUI thread's.

What a run reports (the model asked, each operation's legs, each step stored, the end) is posted
to a :class:`Mailbox` on the worker; the mailbox wakes the GUI thread with one queued signal for
however many reports wait (coalesced: a 200-round run does not send the GUI one signal per leg).
The run is stored as it happens, by the worker's own connection to the run database, so the Runs
tab lists it at once and sees it grow. Cancel, from the GUI thread, reaches the run's
:class:`~inspector.agent.AgentRun` at once: the call in flight is cancelled on the wire, no
further step is recorded and the run ends ``cancelled``.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal

from inspector.agent.scenario import DEMO_SERVER_NAME
from inspector.i18n import current_language
from inspector.mcp import NullObserver, Secrets, ServerEndpoint
from inspector.runs import RunStep

#: A scenario's demo modes to the demo server's command line (port, language) -> words.
DemoCommand = Callable[[dict[str, Any]], Callable[[int, str | None], list[str]]]
#: How long the worker waits for the demo server's process to say where it listens.
DEMO_START_BOUND_S = 20.0
#: Closing the window: how long the run in progress gets to end after its cancel.
SHUTDOWN_BOUND_S = 2.0


class Mailbox(QObject):
    """Reports from the worker, taken by the GUI thread in batches: one ``arrived`` per batch."""

    arrived = Signal()

    def __init__(self) -> None:
        super().__init__()
        self._lock = threading.Lock()
        self._items: list[tuple] = []
        self._pending = False

    def post(self, *item: Any) -> None:
        """Any thread: keep ``item``; wake the GUI thread unless a wake-up is already on its way."""
        with self._lock:
            self._items.append(item)
            wake = not self._pending
            self._pending = True
        if wake:
            self.arrived.emit()

    def post_latest(self, *item: Any) -> None:
        """Any thread: as :meth:`post`, but when the report last posted and not yet taken is of the
        same kind and key (its first value), it is replaced: only the newest counts (a model's text
        so far, which grows token by token, reaches the GUI thread once per batch)."""
        with self._lock:
            if self._items and self._items[-1][:2] == item[:2]:
                self._items[-1] = item
                return  # its wake-up is on its way
            self._items.append(item)
            wake = not self._pending
            self._pending = True
        if wake:
            self.arrived.emit()

    def take(self) -> list[tuple]:
        """The GUI thread: everything posted since the last take, in order."""
        with self._lock:
            items, self._items = self._items, []
            self._pending = False
        return items


@dataclass
class PlayJob:
    """What to play: the model (built on the worker), the prompt, where, under which limits."""

    title: str
    #: The run's source in the store: ``scenario`` or ``live`` (a real model).
    source: str
    make_model: Callable[[], Any]
    prompt: str
    #: The server; ``None``: a fresh demo server in a process of its own, with ``demo_modes``.
    server: ServerEndpoint | None = None
    demo_modes: dict[str, Any] = field(default_factory=dict)
    era: str = "auto"
    budget_s: float | None = None
    cancel_after_s: float | None = None
    max_rounds: int = 8
    secrets: Secrets | None = None


class PlayHandle:
    """A run being played, as the GUI thread holds it: cancel it from there at any time."""

    def __init__(self, job: PlayJob, mailbox: Mailbox, askers: Callable[..., Any] | None = None) -> None:
        self.job = job
        self.mailbox = mailbox
        #: Makes the asker of each tool call (``asking.play_askers``): a server's questions name it.
        self.askers = askers
        self.agent: Any = None
        self.cancel_requested = False
        #: The worker is done with the run (set on the worker thread at its very end).
        self.done = False
        self._wake: Callable[[], None] | None = None

    def cancel(self) -> None:
        """Cancel the run now: the call in flight is cancelled in flight; nothing further is recorded."""
        self.cancel_requested = True
        agent = self.agent
        if agent is not None:
            agent.cancel()
        elif self._wake is not None:
            self._wake()  # the demo server is still starting: stop waiting for it


class _Observer(NullObserver):
    """The client's observer of every operation of the run: reports posted with the time seen."""

    def __init__(self, mailbox: Mailbox) -> None:
        self._mailbox = mailbox

    def operation_started(self, report: Any) -> None:
        self._mailbox.post("op_started", report, time.monotonic())

    def leg_started(self, report: Any) -> None:
        self._mailbox.post("leg_started", report, time.monotonic())

    def leg_finished(self, report: Any) -> None:
        self._mailbox.post("leg_finished", report, time.monotonic())

    def progress(self, report: Any) -> None:
        self._mailbox.post("progress", report, time.monotonic())

    def operation_finished(self, report: Any) -> None:
        self._mailbox.post("op_finished", report, time.monotonic())


class _Sink:
    """Stores the run as it happens (the agent layer's store sink) and posts each step."""

    def __init__(self, stored: Any, mailbox: Mailbox) -> None:
        self._stored = stored
        self._mailbox = mailbox

    @property
    def run_id(self) -> int | None:
        return self._stored.run_id

    def run_started(self, title: str, server_url: str, uid: str | None = None) -> None:
        self._stored.run_started(title, server_url, uid)
        self._mailbox.post("started", self._stored.run_id, server_url)

    def step_recorded(self, step: RunStep, started_at: datetime) -> None:
        self._stored.step_recorded(step, started_at)
        self._mailbox.post("step", step, getattr(self._stored, "last_step_id", None))

    def operation_finished(self, server_url: str, health: str, latency_ms: float) -> None:
        self._stored.operation_finished(server_url, health, latency_ms)

    def run_finished(self, status: str) -> None:
        self._stored.run_finished(status)


class _AnnouncingModel:
    """The run's model, announcing each round it is asked (the window shows it thinking) and its
    text as it arrives (``said``: the text so far, already scrubbed by the model)."""

    def __init__(self, model: Any, mailbox: Mailbox) -> None:
        self._model = model
        self._mailbox = mailbox
        self.wants_catalogue = model.wants_catalogue
        self.secrets = getattr(model, "secrets", None)

    async def respond(self, request: Any, on_text: Callable[[str], None] | None = None) -> Any:
        self._mailbox.post("asking", request.round)

        def said(text: str) -> None:
            self._mailbox.post_latest("said", request.round, text)
            if on_text is not None:
                on_text(text)

        return await self._model.respond(request, on_text=said)


class PlayWorker:
    """The thread and loop agent runs are played on (started with the first run)."""

    def __init__(self, db_path: Path | None, *, demo_command: DemoCommand | None = None,
                 answers: Any = None) -> None:
        self._db_path = db_path
        self._demo_command = demo_command
        #: The window's answers to a server's requests (``WindowAnswers``): its questions open dialogs.
        self._answers = answers
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._ready = threading.Event()
        self._store: Any = None
        self._running: set[asyncio.Task] = set()
        self._handles: list[PlayHandle] = []

    @property
    def thread(self) -> threading.Thread | None:
        return self._thread

    def start(self) -> None:
        if self._thread is not None:
            return
        self._thread = threading.Thread(target=self._work, name="run-inspector-play", daemon=True)
        self._thread.start()
        self._ready.wait(10)

    def play(self, job: PlayJob, mailbox: Mailbox, askers: Callable[..., Any] | None = None) -> PlayHandle:
        """Play ``job``; its reports go to ``mailbox``; ``askers`` names who asks. Returns at once."""
        self.start()
        assert self._loop is not None
        handle = PlayHandle(job, mailbox, askers)
        # The runs that ended are let go (each holds its whole trace).
        self._handles = [earlier for earlier in self._handles if not earlier.done]
        self._handles.append(handle)

        def begin() -> None:
            task = asyncio.get_running_loop().create_task(self._play(handle))
            self._running.add(task)
            task.add_done_callback(self._running.discard)

        self._loop.call_soon_threadsafe(begin)
        return handle

    def shutdown(self, bound_s: float = SHUTDOWN_BOUND_S) -> bool:
        """Cancel every run, let them end (bounded), stop the loop and the thread. True when it ended."""
        if self._thread is None or self._loop is None:
            return True
        for handle in self._handles:
            handle.cancel()
        loop, running = self._loop, self._running

        async def wind_down() -> None:
            if running:
                await asyncio.wait(list(running), timeout=bound_s)

        try:
            asyncio.run_coroutine_threadsafe(wind_down(), loop).result(bound_s + 5)
        except Exception:  # noqa: BLE001 - a loop already gone, or a run that would not end: stop anyway
            pass
        try:
            loop.call_soon_threadsafe(loop.stop)
        except RuntimeError:
            pass
        self._thread.join(bound_s + 5)
        alive = self._thread.is_alive()
        self._thread = None
        return not alive

    # -- on the worker thread ---------------------------------------------------------------------

    def _work(self) -> None:
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        self._loop = loop
        if self._db_path is not None:
            from inspector.store import RunStore, StoreError

            try:
                self._store = RunStore.open(self._db_path)  # this thread's own connection
            except StoreError:
                self._store = None
        self._ready.set()
        try:
            loop.run_forever()
        finally:
            if self._store is not None:
                self._store.close()
            loop.close()

    async def _play(self, handle: PlayHandle) -> None:
        job, mailbox = handle.job, handle.mailbox
        demo = None
        # Full collections wait while a run plays (the window's CollectionPacer): one would hold
        # the interpreter lock for 100-200 ms, and the GUI thread would wait.
        try:
            server = job.server
            if server is None:
                demo, url, problem = await self._start_demo(handle)
                if url is None:
                    status = "cancelled" if handle.cancel_requested else "failed"
                    mailbox.post("ended", status, "not_started", problem, None)
                    return
                server = ServerEndpoint(url, name=DEMO_SERVER_NAME, era=job.era)
            await self._run_agent(handle, server)
        except Exception as exc:  # noqa: BLE001 - the window must hear of every end, even a bug's
            mailbox.post("ended", "failed", "internal_error", f"{type(exc).__name__}: {exc}", None)
        finally:
            if demo is not None:
                await asyncio.get_running_loop().run_in_executor(None, demo.stop)
            handle.agent = None
            handle.done = True

    async def _run_agent(self, handle: PlayHandle, server: ServerEndpoint) -> None:
        from inspector.agent import AgentRun, NullSink, StoreSink
        from inspector.store import StoredEras
        from inspector.traces.redact import redact_text

        from .asking import AskingClient

        job, mailbox = handle.job, handle.mailbox
        store = self._store
        # A demo server started for this run alone (no server chosen) is not recorded among the servers.
        throwaway = job.server is None
        stored = StoreSink(store, job.source, health=not throwaway) if store is not None else NullSink()
        if store is None:
            stored.run_id = None  # type: ignore[attr-defined]
        askers = handle.askers
        client = AskingClient((lambda at, tool: askers(at, tool, stored.run_id)) if askers is not None else None,
                              handler=self._answers.handler() if self._answers is not None else None,
                              eras=StoredEras(store) if store is not None and not throwaway else None,
                              wire_patterns=redact_text)
        agent = AgentRun(_AnnouncingModel(job.make_model(), mailbox), server, job.prompt, title=job.title,
                         sink=_Sink(stored, mailbox), client=client, max_rounds=job.max_rounds,
                         budget_s=job.budget_s, cancel_after_s=job.cancel_after_s, observer=_Observer(mailbox),
                         secrets=job.secrets)
        handle.agent = agent
        if handle.cancel_requested:
            agent.cancel()
        outcome = await agent.run()
        # The error as a sentence: the window says it in the reader's language.
        mailbox.post("ended", outcome.status, outcome.stop_reason, outcome.error_sentence, outcome.final_answer)

    async def _start_demo(self, handle: PlayHandle) -> tuple[Any, str | None, str | None]:
        """A fresh demo server with the job's modes, in a process of its own: (process, url, problem)."""
        from ..workbench.demo_process import DemoProcess

        loop = asyncio.get_running_loop()
        settled = asyncio.Event()
        found: dict[str, str | None] = {}

        def ready(url: str) -> None:
            found["url"] = url
            loop.call_soon_threadsafe(settled.set)

        def ended(reason: str | None) -> None:
            found.setdefault("problem", reason)
            loop.call_soon_threadsafe(settled.set)

        handle._wake = lambda: loop.call_soon_threadsafe(settled.set)
        handle.mailbox.post("demo_starting")
        command = self._demo_command or demo_modes_command
        demo = DemoProcess(0, ready=ready, ended=ended, line=lambda _text: None, command=command(handle.job.demo_modes),
                           language=current_language())  # the server speaks the played run's language
        try:
            demo.start()
        except OSError as exc:
            return None, None, str(exc)
        if not handle.cancel_requested:
            try:
                await asyncio.wait_for(settled.wait(), DEMO_START_BOUND_S)
            except (TimeoutError, asyncio.TimeoutError):
                found.setdefault("problem", "the demo server did not start in time")
        handle._wake = None
        if handle.cancel_requested or "url" not in found:
            await loop.run_in_executor(None, lambda: demo.stop(at_once=True))
            return None, None, found.get("problem")
        return demo, found["url"], None


#: The scenario's demo modes and the ``serve-demo`` options that turn them on.
_MODE_OPTIONS = {"handshake_delay_s": "--handshake-delay", "page_size": "--page-size",
                 "catalogue_size": "--catalogue-size", "json_response": "--json-response",
                 "stateless": "--stateless"}


def demo_modes_command(modes: dict[str, Any]) -> Callable[[int, str | None], list[str]]:
    """The demo server's command line with a scenario's modes (``demo_server`` in its file)."""
    from ..workbench.demo_process import demo_command

    def command(port: int, language: str | None) -> list[str]:
        words = demo_command(port, language)
        for key, value in modes.items():
            option = _MODE_OPTIONS.get(key)
            if option is None or value is None or value is False:
                continue
            words += [option] if value is True else [option, str(value)]
        return words

    return command
