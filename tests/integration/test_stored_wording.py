"""Our own sentences at the head of a stored step (a catalogue, a tool that reported an error, a
transport error, a ping) are said in the reader's language wherever a person reads them, while the
stored English, `--json` and exports stay as they were; the wording travels with a trace file.

Real parts: the demo server on 127.0.0.1, a port nobody listens on, a SQLite file, the command line."""

from __future__ import annotations

import asyncio
import json
import subprocess
from pathlib import Path

import pytest

from inspector.agent import execute_tool, list_tools_step, ping_step
from inspector.cli.recording import RunRecording
from inspector.mcp import McpClient, ServerEndpoint
from inspector.store import RunStore
from inspector.transfer import export, import_trace
from tests.support.asgi_server import closed_port
from tests.support.cli_process import cli_here

ROOT = Path(__file__).resolve().parents[2]


def cli(db: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``run-inspector ARGS`` on the database ``db``, in this process (the test is about what it says,
    not about its process: some forty commands here)."""
    return cli_here(*args, env={"RUN_INSPECTOR_DB": str(db)})


def record_runs(db: Path, url: str) -> list[int]:
    """A catalogue, a tool that reports an error, a ping, a ping of a port nobody listens on, and an
    answer with a picture (a block that is not text)."""
    server = ServerEndpoint(url, name="demo")
    nowhere = ServerEndpoint(f"http://127.0.0.1:{closed_port()}/mcp", name="nowhere")

    async def operate() -> list[int]:
        client = McpClient()
        made = []
        with RunStore.open(db) as store:
            for title, call in (("tools", lambda: list_tools_step(client, server, budget_s=20)),
                                ("fail", lambda: execute_tool(client, server, "fail", {"reason": "disk full"},
                                                              budget_s=20)),
                                ("ping", lambda: ping_step(client, server, budget_s=20)),
                                ("nowhere", lambda: ping_step(client, nowhere, budget_s=5)),
                                ("picture", lambda: execute_tool(client, server, "describe_image", {},
                                                                 budget_s=20))):
                recording = RunRecording(store, db, title, url)
                recording.start()
                fate = recording.finish(await call())
                assert fate.run_id is not None, fate.problem
                made.append(fate.run_id)
        return made

    return asyncio.run(operate())


def shown_details(db: Path, run_id: int, lang: str) -> str:
    shown = cli(db, "--lang", lang, "runs", "show", str(run_id))
    assert shown.returncode == 0, shown.stderr
    return next(line for line in shown.stdout.splitlines() if line.startswith("1 "))


def recorded_url(db: Path) -> str:
    with RunStore.open(db) as store:
        return store.list_runs()[-1].server


@pytest.fixture
def recorded(tmp_path: Path, demo_server) -> tuple[Path, list[int]]:
    db = tmp_path / "runs.db"
    return db, record_runs(db, demo_server.url)


def test_each_stored_sentence_of_ours_is_said_in_german_and_the_stored_english_is_unchanged(recorded) -> None:
    db, (tools, fail, ping, nowhere, picture) = recorded
    with RunStore.open(db) as store:
        payloads = {run: next(store.iter_steps(run)).payload for run in (tools, fail, ping, nowhere, picture)}
    # The stored English, as before the wording was kept beside it.
    assert payloads[tools]["content"].startswith("tools/list: 10 tools in 1 page: echo, add, ")
    assert payloads[fail]["toolResult"].startswith("The tool fail on demo reported an error: ")
    assert payloads[ping]["content"].startswith("ping: the server run-inspector-demo speaks MCP ")
    assert payloads[picture]["toolResult"].startswith("[1 block is not shown as text: 1 image.]\nA ")
    for run, payload in payloads.items():
        wording = payload["wording"]
        shown = payload.get("toolResult", payload.get("content"))
        assert shown.startswith(wording["text"]), run
    german = {run: shown_details(db, run, "de") for run in payloads}
    assert "tools/list: 10 Tools auf 1 Seite: echo, add, " in german[tools]
    assert "fail: Das Tool fail auf demo meldete einen Fehler: " in german[fail]
    assert "ping: der Server run-inspector-demo spricht MCP " in german[ping]
    # The demo server speaks the stateless era: no ping there, server/discover answered (0,003 s).
    assert " und hat server/discover in " in german[ping] and " s beantwortet (die zustands" in german[ping]
    assert "," in german[ping].split("server/discover in ")[1]
    assert "ping: Der Server nowhere war beim Senden von " in german[nowhere] and "nicht erreichbar" in german[nowhere]
    assert "describe_image: [1 Block wird nicht als Text gezeigt: 1 Bild.]" in german[picture]
    # The command line's own print of an answer says the note on its picture in German too.
    called = cli(db, "--lang", "de", "call", recorded_url(db), "describe_image")
    assert "[1 Block wird nicht als Text gezeigt: 1 Bild.]" in called.stdout, called.stdout + called.stderr
    english = {run: shown_details(db, run, "en") for run in payloads}
    assert "tools/list: 10 tools in 1 page: echo, add, " in english[tools]
    assert "fail: The tool fail on demo reported an error: " in english[fail]
    # What machines read does not change with the language.
    for run in payloads:
        as_json = [cli(db, "--lang", lang, "runs", "show", "--json", str(run)).stdout for lang in ("en", "de")]
        assert as_json[0] == as_json[1] and "reported an error" in cli(
            db, "--lang", "de", "runs", "show", "--json", str(fail)).stdout


@pytest.mark.parametrize("format", ["trace", "otlp"])
def test_the_wording_travels_with_an_export_and_is_said_in_german_where_it_is_opened(
        recorded, tmp_path: Path, format: str) -> None:
    db, runs = recorded
    written = tmp_path / f"runs.{format}.json"
    with RunStore.open(db) as store:
        export(store, runs, None, written, format)
    elsewhere = tmp_path / "elsewhere.db"
    with RunStore.open(elsewhere) as store:
        report = import_trace(store, written)
        imported = [run.id for run in store.list_runs()]
        payloads = [step.payload for run in imported for step in store.iter_steps(run)]
    assert report.runs_imported == 5
    worded = [payload for payload in payloads if "wording" in payload]
    assert len(worded) == 5
    fail = next(p for p in worded if p.get("toolName") == "fail")
    shown = [shown_details(elsewhere, run, "de") for run in imported]
    assert any("Das Tool fail auf demo meldete einen Fehler: " in line for line in shown), (fail, shown)
    assert any("10 Tools auf 1 Seite" in line for line in shown)


def test_a_stranger_s_wording_that_reaches_into_objects_is_shown_as_the_stored_english(tmp_path: Path) -> None:
    trace = {"format": "run-inspector-trace", "version": 1, "runs": [{
        "uid": "11111111-2222-4333-8444-555555555555", "title": "stranger", "server": "http://example.test/mcp",
        "status": "failed", "createdAt": "2026-12-01T10:00:00.000000+00:00",
        "finishedAt": "2026-12-01T10:00:01.000000+00:00",
        "steps": [{"sequence": 1, "startedAt": "2026-12-01T10:00:00.000000+00:00", "payload": {
            "kind": "request", "round": 0, "durationMs": 1.0, "content": "ping: stored english",
            "wording": {"template": "{x.__class__.__mro__}", "params": {"x": "a"}, "text": "ping: stored english"},
        }}],
    }]}
    path = tmp_path / "stranger.json"
    path.write_text(json.dumps(trace), encoding="utf-8")
    db = tmp_path / "runs.db"
    imported = cli(db, "import", str(path))
    if imported.returncode != 0:
        pytest.fail(f"the trace did not import: {imported.stderr}")
    with RunStore.open(db) as store:
        run = store.list_runs()[0].id
    assert "ping: stored english" in shown_details(db, run, "de")
