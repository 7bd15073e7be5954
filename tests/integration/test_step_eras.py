"""The era each step spoke: recorded (the client's word, else read off the agreed revision), stored,
printed by `runs show` (both languages), carried by both export formats and read back by an import;
the era configured with `servers set --era` and listed by `servers`; the command line's client keeps
what `auto` finds in the store.

Real parts: the official SDK server (a handshake-era server) on 127.0.0.1, the command line as a
user runs it, a real SQLite file, real export and import files.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from inspector.agent.operations import wire_fields
from inspector.mcp import OperationFinished, OperationRecorder, ServerEndpoint
from inspector.runs import RunStep
from inspector.store import RunStore, StoredEras
from inspector.transfer import export, import_trace
from tests.support.asgi_server import serve_asgi
from tests.support.cli_process import cli_here as cli  # what it says, not its process
from tests.support.sdk_server import ToolEvents, build_sdk_server


@pytest.fixture(scope="module")
def sdk_url() -> Iterator[str]:
    with serve_asgi(build_sdk_server(ToolEvents()).streamable_http_app()) as url:
        yield url


def finished(**wire: str | None) -> OperationRecorder:
    recorder = OperationRecorder()
    recorder.finished = OperationFinished("ping", "srv", 20, 12.0, "ok", **wire)
    return recorder


def test_a_step_records_the_clients_era_else_the_one_its_revision_belongs_to() -> None:
    server = ServerEndpoint("http://127.0.0.1:9/mcp")
    said = wire_fields(server, finished(protocol_version="2026-07-28", era="stateless"))
    assert (said["protocol_version"], said["era"]) == ("2026-07-28", "stateless")
    # A client that does not say (this one until the stateless core, or an older record's): read off the revision.
    assert wire_fields(server, finished(protocol_version="2025-06-18"))["era"] == "handshake"
    assert wire_fields(server, finished(protocol_version="2026-07-28"))["era"] == "stateless"
    assert "era" not in wire_fields(server, finished())  # it never got that far
    step = RunStep(kind="tool", round=0, duration_ms=1.0, **{k: v for k, v in said.items() if k != "transport"})
    assert step.to_payload()["era"] == "stateless"


def test_the_era_is_stored_shown_exported_and_imported(sdk_url: str, tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    # Pinned: the SDK server speaks both eras, and `auto` would find the stateless one.
    done = cli("ping", sdk_url, "--era", "handshake", "--json", "--db", str(db))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["era"] == "handshake"
    run_id = json.loads(done.stdout)["run_id"]

    shown = cli("runs", "show", str(run_id), "--db", str(db))
    assert shown.returncode == 0, shown.stderr
    assert ", handshake era" in shown.stdout
    german = cli("--lang", "de", "runs", "show", str(run_id), "--db", str(db))
    assert ", Handshake-Ära" in german.stdout, german.stdout
    timeline = json.loads(cli("runs", "show", str(run_id), "--json", "--db", str(db)).stdout)["timeline"]
    assert [entry["era"] for entry in timeline] == ["handshake"]
    assert timeline[0]["payload"]["era"] == "handshake"

    trace_file, otlp_file = tmp_path / "run.trace.json", tmp_path / "run.otlp.json"
    with RunStore.open(db) as store:
        export(store, [run_id], None, trace_file, "trace")
        export(store, [run_id], None, otlp_file, "otlp")
    spans = json.loads(otlp_file.read_text())["resourceSpans"][0]["scopeSpans"][0]["spans"]
    step_attributes = [{item["key"]: item["value"] for item in span["attributes"]} for span in spans
                       if {"key": "run_inspector.span", "value": {"stringValue": "step"}} in span["attributes"]]
    assert [attributes["run_inspector.mcp.era"] for attributes in step_attributes] == [{"stringValue": "handshake"}]
    for written in (trace_file, otlp_file):
        with RunStore.open(tmp_path / f"from-{written.stem}.db") as elsewhere:
            (imported,) = import_trace(elsewhere, written).run_ids
            (step,) = list(elsewhere.iter_steps(imported))
            assert step.payload["era"] == "handshake" and step.step.era == "handshake"


def test_servers_set_era_is_listed_and_used(sdk_url: str, tmp_path: Path) -> None:
    db = str(tmp_path / "runs.db")
    assert cli("servers", "set", sdk_url, "--name", "sdk", "--era", "handshake", "--db", db).returncode == 0
    (listed,) = json.loads(cli("servers", "--json", "--db", db).stdout)["servers"]
    assert (listed["era"], listed["found_era"], listed["found_era_at"]) == ("handshake", None, None)
    table = cli("servers", "--db", db).stdout
    assert table.splitlines()[0].split()[:3] == ["Server", "Transport", "Era"]
    assert table.splitlines()[1].split()[:3] == ["sdk", "http", "handshake"]
    assert cli("servers", "set", sdk_url, "--budget", "9", "--db", db).returncode == 0  # the era stays
    (listed,) = json.loads(cli("servers", "--json", "--db", db).stdout)["servers"]
    assert listed["era"] == "handshake"
    done = cli("ping", "sdk", "--json", "--db", db)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["era"] == "handshake"
    # What auto found is shown beside the configured era.
    with RunStore.open(db) as store:
        StoredEras(store).remember(ServerEndpoint(sdk_url).key, "stateless")
    assert cli("servers", "set", sdk_url, "--era", "auto", "--db", db).returncode == 0
    assert "auto → stateless" in cli("servers", "--db", db).stdout


def test_the_command_lines_client_keeps_eras_in_the_store(sdk_url: str, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    import inspector.cli.operations as operations
    from inspector.cli.app import run_command
    from inspector.mcp import McpClient

    made: list[McpClient] = []

    class Kept(McpClient):
        def __init__(self, *args: object, **kwargs: object) -> None:
            super().__init__(*args, **kwargs)  # type: ignore[arg-type]
            made.append(self)

    monkeypatch.setattr(operations, "McpClient", Kept)
    db = tmp_path / "runs.db"
    assert run_command(["ping", sdk_url, "--db", str(db)]) == 0
    assert run_command(["ping", sdk_url, "--no-store", "--db", str(tmp_path / "none.db")]) == 0
    stored, unstored = made
    assert isinstance(stored.eras, StoredEras)
    assert not isinstance(unstored.eras, StoredEras)  # --no-store: for this command only
