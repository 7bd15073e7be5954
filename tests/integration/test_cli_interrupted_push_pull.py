"""Ctrl-C or SIGTERM while `import --from-jaeger/--from-tempo` waits for the query service, or while `export
--otlp-endpoint` waits for the collector: one sentence on stderr naming the signal, exit status 130, no traceback,
nothing half written (no runs, no cached trace, no database the pull made; the run being sent goes back to the
queue, and the next push sends every run). SIGTERM killed the process where it stood (status -15, no sentence).
Real processes against the loopback query services and collector of tests/support, a real SQLite file."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from inspector.store import RunStore
from inspector.store.outbox import Outbox
from tests.support.cli_process import start_cli, stopped, wait_for
from tests.support.otlp_collector import Answer, running_collector
from tests.support.sample_runs import mixed_run
from tests.support.trace_backends import Route, fixture_trace_ids, trace_backend

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(("backend", "path", "signum", "language", "said"), [
    ("jaeger", "/api/v3/traces/{id}", signal.SIGINT, "en",
     "Cancelled (Ctrl-C) before the trace was opened: nothing was imported."),
    ("tempo", "/api/traces/{id}", signal.SIGTERM, "en",
     "Ended by a signal (SIGTERM) before the trace was opened: nothing was imported."),
    ("jaeger", "/api/v3/traces/{id}", signal.SIGTERM, "de",
     "Durch ein Signal (SIGTERM) beendet, bevor der Trace geöffnet war: nichts wurde importiert."),
])
def test_an_interrupted_pull_imports_nothing_and_makes_no_database(tmp_path: Path, backend: str, path: str,
                                                                   signum: int, language: str, said: str) -> None:
    db = tmp_path / "runs.db"
    trace_id = fixture_trace_ids()[0]
    released = threading.Event()
    with trace_backend() as service:
        asked = path.format(id=trace_id)
        service.routes[asked] = Route(body=b"{}", hold=released)
        process = start_cli("import", f"--from-{backend}", service.base, "--trace", trace_id, "--db", str(db),
                         language=language)
        try:
            wait_for(lambda: service.hits.get(asked) == 1, process, "request")
            _, stderr = stopped(process, signum)
        finally:
            released.set()
    assert stderr.strip() == f"run-inspector: {said}"
    assert list(tmp_path.iterdir()) == []  # no database, no cached trace (nor its folder)


def test_an_interrupted_pull_into_a_database_adds_nothing_and_says_so_in_json(tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    with RunStore.open(db) as store:
        mixed_run(store, "there before")
    trace_id = fixture_trace_ids()[0]
    released = threading.Event()
    with trace_backend() as service:
        asked = f"/api/v3/traces/{trace_id}"
        service.routes[asked] = Route(body=b"{}", hold=released)
        process = start_cli("import", "--from-jaeger", service.base, "--trace", trace_id, "--db", str(db), "--json",
                         language="de")
        try:
            wait_for(lambda: service.hits.get(asked) == 1, process, "request")
            stdout, _ = stopped(process, signal.SIGTERM)
        finally:
            released.set()
    said = "Ended by a signal (SIGTERM) before the trace was opened: nothing was imported."
    assert json.loads(stdout)["error"] == {"kind": "cancelled", "message": said}  # English, whatever the language
    with RunStore.open(db) as store:
        assert [run.title for run in store.list_runs()] == ["there before"]
    assert sorted(path.name for path in tmp_path.iterdir() if not path.name.startswith("runs.db")) == []


@pytest.mark.parametrize(("signum", "language", "said"), [
    (signal.SIGINT, "en", "Cancelled (Ctrl-C) before the push was done: what was not sent to {endpoint} stays "
                          "queued for the next push."),
    (signal.SIGTERM, "en", "Ended by a signal (SIGTERM) before the push was done: what was not sent to {endpoint} "
                           "stays queued for the next push."),
    (signal.SIGTERM, "de", "Durch ein Signal (SIGTERM) beendet, bevor das Senden fertig war: was nicht an {endpoint} "
                           "gesendet wurde, wartet auf das nächste Senden."),
])
def test_an_interrupted_push_keeps_what_was_not_sent_queued(tmp_path: Path, signum: int, language: str,
                                                            said: str) -> None:
    db = tmp_path / "runs.db"
    with RunStore.open(db) as store:
        runs = [mixed_run(store, f"run {number}") for number in range(3)]
    released = threading.Event()
    with running_collector() as collector:
        collector.answers.append(Answer(hold=released))  # the first run's answer waits
        endpoint = collector.endpoint
        process = start_cli("export", "--all", "--otlp-endpoint", endpoint, "--db", str(db), language=language)
        try:
            wait_for(lambda: collector.hits == 1, process, "first run sent")
            _, stderr = stopped(process, signum)
        finally:
            released.set()
        assert stderr.strip() == "run-inspector: " + said.format(endpoint=f"{endpoint}/v1/traces")
        with RunStore.open(db) as store:
            states = Outbox(store.db.conn).of_runs(runs)
            assert sorted(entry.state for entry in states.values()) == ["queued"] * 3  # none left "sending"
        again = subprocess.run([sys.executable, "-m", "inspector", "export", "--otlp-endpoint", endpoint,
                                "--db", str(db), "--json"], capture_output=True, text=True, timeout=60, cwd=ROOT)
        assert again.returncode == 0, again.stderr
        assert json.loads(again.stdout)["sent"] == 3


def test_a_refused_pull_leaves_no_database_it_made(tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    with trace_backend() as service:  # it has no trace: 404
        done = subprocess.run([sys.executable, "-m", "inspector", "import", "--from-tempo", service.base, "--trace",
                               "abc", "--db", str(db)], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 2 and "There is no trace" in done.stderr
    assert list(tmp_path.iterdir()) == []  # as a refused file's import: no database left behind
