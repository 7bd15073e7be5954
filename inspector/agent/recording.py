"""Where an agent run goes as it happens: a sink told of each step; one that writes the run database."""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from inspector.runs import RunStep
from inspector.runs.replaying import OWN_DEMO_ORIGIN
from inspector.store import RunStore, ServerRegistry


class RunSink(Protocol):
    """Told of a run as it happens, on the thread that runs it."""

    def run_started(self, title: str, server_url: str, uid: str | None = None) -> None: ...
    def step_recorded(self, step: RunStep, started_at: datetime) -> None: ...
    def operation_finished(self, server_url: str, health: str, latency_ms: float) -> None: ...
    def run_finished(self, status: str) -> None: ...


class NullSink:
    """Keeps nothing (the run's trace is still returned by the loop)."""

    def run_started(self, title: str, server_url: str, uid: str | None = None) -> None:
        pass

    def step_recorded(self, step: RunStep, started_at: datetime) -> None:
        pass

    def operation_finished(self, server_url: str, health: str, latency_ms: float) -> None:
        pass

    def run_finished(self, status: str) -> None:
        pass


class StoreSink:
    """Writes the run, each step as it is recorded, and the server's health to the run database.

    A step is stored the moment it exists, so a run cut short (or a process killed) keeps
    every step it had; the run is ``running`` until :meth:`run_finished`.
    """

    def __init__(self, store: RunStore, source: str = "scenario", *, health: bool = True) -> None:
        self.store = store
        self.source = source
        #: Whether the server's health is recorded: not for a demo server started for this run
        #: alone (its address dies with it; it would stay listed among the servers for good).
        self.health = health
        self.run_id: int | None = None
        #: The id of the step stored last (the window shows that step when asked to).
        self.last_step_id: int | None = None

    def run_started(self, title: str, server_url: str, uid: str | None = None) -> None:
        """``uid``: the run's, chosen by the loop (its requests' traceparent names the run's trace).
        A run on a demo server of its own says so (its replay asks which server to use)."""
        self.run_id = self.store.start_run(title, self.source, server_url, uid=uid,
                                           origin=None if self.health else OWN_DEMO_ORIGIN)

    def step_recorded(self, step: RunStep, started_at: datetime) -> None:
        if self.run_id is not None:
            self.last_step_id = self.store.append_step(self.run_id, step, started_at)

    def operation_finished(self, server_url: str, health: str, latency_ms: float) -> None:
        # A cancel is not the server's fault: the registry counts it apart and records no contact.
        if self.health:
            ServerRegistry(self.store.db).record_operation(server_url, health, latency_ms)

    def run_finished(self, status: str) -> None:
        if self.run_id is not None:
            self.store.finish_run(self.run_id, status)
