"""A database another program holds locked for longer than an exporter's deadline loses nothing: the write
waits the lock out (a minute, ``--lock-wait``), where it waited the store's own 10 s and answered 503. The
OpenTelemetry Python SDK's exporter gives up after 10 s for an export, its retries included, so no 503 kept a
batch held longer than that (answered at once with ``Retry-After: 1``, it was lost as well: measured in
:data:`inspector.capture.receiver.LOCK_WAIT_S`).

The real ``run-inspector receive`` command with its defaults, the SDK's real exporter, a real SQLite lock."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.trace.export import SpanExportResult
from opentelemetry.trace import Tracer

from inspector.store.database import LOCK_WAIT_S as STORES_OWN_WAIT_S
from tests.support.receiver_turns import wait_until
from tests.support.refused_spans import sdk_spans

HELD_S = STORES_OWN_WAIT_S + 1.5


def test_spans_sent_while_the_database_is_held_past_the_exporters_deadline_are_kept(tmp_path: Path) -> None:
    def agent(tracer: Tracer) -> None:
        with tracer.start_as_current_span("invoke_agent patient-agent"):
            tracer.start_span("execute_tool lookup").end()

    spans = sdk_spans(agent)
    db = tmp_path / "runs.db"
    process = subprocess.Popen([sys.executable, "-m", "inspector", "receive", "--port", "0", "--quiet-after", "0.3",
                                "--json", "--db", str(db)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        url = json.loads(process.stdout.readline())["url"]
        other = sqlite3.connect(db, isolation_level=None)  # another program: a sqlite3 shell in a transaction
        other.execute("BEGIN EXCLUSIVE")
        held = time.monotonic()
        exporter = OTLPSpanExporter(endpoint=url, timeout=2)  # the SDK's deadline (10 s by default), shorter
        assert exporter.export(spans) == SpanExportResult.FAILURE  # it gave up
        exporter.shutdown()
        time.sleep(max(0.0, HELD_S - (time.monotonic() - held)))  # held past the store's own wait
        other.execute("ROLLBACK")
        other.close()

        def stored() -> int:
            with sqlite3.connect(db) as connection:
                return connection.execute("SELECT COUNT(*) FROM runs WHERE status = 'ok'").fetchone()[0]

        wait_until(lambda: stored() == 1, "the run written once the lock was let go of", timeout_s=20)
    finally:
        process.terminate()
        _, errors = process.communicate(timeout=30)
    assert "is locked by another program" not in errors  # its write waited; no request was refused
