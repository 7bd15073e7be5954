"""Export: no credential ever reaches the file, the file appears whole or not at all, and the
runs are read as one consistent snapshot."""

from __future__ import annotations

import base64
import json
import os
from pathlib import Path

import pytest
from test_trace_support import T0, fill, snapshot

from inspector.runs import RunStep, RunTrace, ToolResult
from inspector.store import RunStore, UnknownRunError
from inspector.transfer.exporting import TraceExportError, export
from inspector.transfer.importing import import_trace

SECRETS = [f"S3cretValue{n:02d}x9" for n in range(24)]


@pytest.fixture
def store(tmp_path: Path) -> RunStore:
    opened = RunStore.open(tmp_path / "runs.db")
    yield opened
    opened.close()


def plant_secrets(store: RunStore) -> int:
    """A run whose title, server and step payloads hold credentials in every common form."""
    s = SECRETS
    run = store.start_run(f"call https://admin:{s[0]}@host/", "live", f"http://u:{s[1]}@127.0.0.1:1/mcp",
                          started_at=T0)
    arguments = {
        "api_key": s[2], "Authorization": f"Bearer {s[3]}", "client_secret": s[4], "sessionId": s[5],
        "nested": {"X-Api-Key": s[6], "list": [{"password": s[7]}, {"PASSWORD": s[8]}]},
        "credentials": {"user": "bob", "pass": s[9]}, "cookie": s[10], "access_token": s[11],
        "apikey": s[12], "secret": s[13], "Mcp-Session-Id": s[14], "query": "cats", "limit": 3,
    }
    trace = RunTrace()
    store.append_step(run, trace.record_tool_result(1, "search", arguments, ToolResult.text(
        f'{{"refresh_token": "{s[15]}", "hits": 0}}'), 5.0), T0)
    store.append_step(run, RunStep(
        kind="llm", round=1, duration_ms=10.0,
        messages_sent=({"role": "user", "content": f"my key is Bearer {s[16]} and password={s[17]}"},),
        content="Authorization: Basic " + base64.b64encode(f"bob:{s[18]}".encode()).decode(),
        thinking=f"use sk-{s[19]}abcdefgh",
        raw={"headers": [{"name": "Authorization", "value": f"Bearer {s[20]}"}],
             "request": {"url": f"https://user:{s[21]}@api.example.com/v1?token={s[22]}&page=2"},
             "env": f"X_AUTH_TOKEN={s[23]}\nHOME=/home/bob"},
        prompt_tokens=12, completion_tokens=3, total_tokens=15), T0)
    store.finish_run(run, "ok", T0)
    return run


@pytest.mark.parametrize("file_format", ["trace", "otlp"])
def test_no_credential_is_ever_in_the_exported_file(store: RunStore, tmp_path: Path, file_format: str) -> None:
    plant_secrets(store)
    path = tmp_path / "out.json"
    export(store, None, None, path, format=file_format)
    data = path.read_bytes()
    leaked = [secret for secret in SECRETS if secret.encode() in data]
    assert leaked == []
    assert b"[REDACTED]" in data
    # What is not a credential stays: counts named like tokens, ordinary arguments, other lines.
    for kept in (b"cats", b"promptTokens", b"HOME=/home/bob", b"page=2", b"api.example.com"):
        assert kept in data


@pytest.mark.parametrize("file_format", ["trace", "otlp"])
def test_a_redacted_export_imports_cleanly(store: RunStore, tmp_path: Path, file_format: str) -> None:
    plant_secrets(store)
    export(store, None, None, tmp_path / "out.json", format=file_format)
    target = RunStore.open(tmp_path / "target.db")
    try:
        import_trace(target, tmp_path / "out.json")
        (run,) = target.list_runs(limit=None)
        steps = list(target.iter_steps(run.id))
        assert steps[0].payload["toolArguments"]["api_key"] == "[REDACTED]"
        assert steps[0].payload["toolArguments"]["limit"] == 3 and steps[1].payload["promptTokens"] == 12
        assert run.server == "http://127.0.0.1:1/mcp"  # kept as a run made here keeps its server
    finally:
        target.close()


def test_server_health_and_header_settings_are_not_exported(store: RunStore, tmp_path: Path) -> None:
    fill(store)
    text_before = {name for (name,) in store.db.conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"server_health", "servers"} <= text_before
    store.db.conn.execute("INSERT INTO servers (url, name, headers) VALUES ('http://h/mcp', 'h', "
                          "'[{\"name\": \"X-Team\", \"value\": \"team-blue-77\"}]')")
    store.db.conn.execute("INSERT INTO server_health (url, last_contact_at, last_latency_ms, ok_count) "
                          "VALUES ('http://h/mcp', '2026-11-30T08:00:00.000000Z', 123.4, 99)")
    for file_format in ("trace", "otlp"):
        export(store, None, None, tmp_path / f"out.{file_format}", format=file_format)
        data = (tmp_path / f"out.{file_format}").read_text()
        assert "team-blue-77" not in data and "123.4" not in data and "http://h/mcp" not in data


def test_a_failed_export_leaves_the_destination_as_it_was(store: RunStore, tmp_path: Path) -> None:
    fill(store)
    destination = tmp_path / "out.json"
    destination.write_text("the previous trace")

    class Stop(Exception):
        pass

    def stop(done: int, total: int) -> None:
        raise Stop

    with pytest.raises(Stop):
        export(store, None, None, destination, progress=stop)
    assert destination.read_text() == "the previous trace"
    assert sorted(os.listdir(tmp_path)) == ["out.json", "runs.db", "runs.db-shm", "runs.db-wal"]  # no .part left


def test_an_unknown_run_or_format_writes_nothing(store: RunStore, tmp_path: Path) -> None:
    fill(store)
    with pytest.raises(UnknownRunError, match="no run 99"):
        export(store, [1, 99], None, tmp_path / "out.json")
    with pytest.raises(ValueError, match="unknown export format"):
        export(store, None, None, tmp_path / "out.json", format="csv")
    assert not (tmp_path / "out.json").exists()


def test_an_unwritable_destination_is_a_store_error(store: RunStore, tmp_path: Path) -> None:
    fill(store)
    with pytest.raises(TraceExportError, match="could not be written to"):
        export(store, None, None, tmp_path / "missing-folder" / "out.json")


def test_the_export_is_one_snapshot_even_while_steps_are_written(store: RunStore, tmp_path: Path) -> None:
    run_ids = fill(store)
    writer = RunStore.open(tmp_path / "runs.db")  # another connection, as another thread would have
    added: list[int] = []

    def write_meanwhile(done: int, total: int) -> None:
        if not added:
            added.append(writer.append_step(run_ids[0], RunStep(kind="llm", round=9, duration_ms=1.0), T0))

    try:
        import inspector.transfer.exporting as trace_export
        interval, trace_export.PROGRESS_INTERVAL_S = trace_export.PROGRESS_INTERVAL_S, 0
        try:
            report = export(store, None, None, tmp_path / "out.json", progress=write_meanwhile)
        finally:
            trace_export.PROGRESS_INTERVAL_S = interval
    finally:
        writer.close()
    assert added and report.steps == 8
    doc = json.loads((tmp_path / "out.json").read_text())
    assert sum(len(run["steps"]) for run in doc["runs"]) == 8
    assert store.count_steps(run_ids[0]) == 5  # the step was written; just not into this file


def test_a_large_run_is_exported_page_by_page(store: RunStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run = store.start_run("long", "live", None, started_at=T0)
    store.append_steps(run, [(RunStep(kind="llm", round=n, duration_ms=1.0, content=f"turn {n}"), T0)
                             for n in range(1200)])
    pages: list[int] = []
    page = RunStore.steps_page

    def counting_page(self, *args, **kwargs):
        result = page(self, *args, **kwargs)
        pages.append(len(result))
        return result

    monkeypatch.setattr(RunStore, "steps_page", counting_page)
    assert export(store, None, None, tmp_path / "out.json").steps == 1200
    assert max(pages) <= 500 and len(pages) >= 3
    assert snapshot(store)[0]["steps"][-1][0] == 1200
