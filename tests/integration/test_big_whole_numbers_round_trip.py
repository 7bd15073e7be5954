"""A live call whose arguments hold whole numbers beyond 64 bits (2^64, and -2^63, which yajl refuses too):
stored exactly, its export in our trace format could not be imported anywhere ("invalid JSON: a whole number
too large to read (more than 64 bits)"), nor the export of what the receiver made of its OTLP. The import
now reads such a file again with a parser that reads whole numbers of any size. A real demo server, the real
command line, real SQLite files, a real receiver on 127.0.0.1."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from inspector.capture import ReceiverOptions, TraceReceiver
from inspector.demo import DemoServer
from inspector.store import RunStore
from inspector.transfer import import_trace
from tests.support.cli_process import cli_here

FORMATS = ("trace", "otlp")
ARGUMENTS = {"a": 2**64, "b": -(2**63)}
SAID = "18446744073709551616 + -9223372036854775808 = 9223372036854775808"


def stored_calls(db: Path) -> list[tuple[Any, Any]]:
    """Each stored call's arguments and result, as the database holds them."""
    with RunStore.open(db) as store:
        return [(step.payload["toolArguments"], step.payload["toolResult"])
                for run in store.list_runs() for step in store.iter_steps(run.id)]


@pytest.fixture(scope="module")
def called(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database holding a `call add` whose arguments are beyond 64 bits, made against the demo server."""
    db = tmp_path_factory.mktemp("big") / "runs.db"
    with DemoServer() as server:
        done = cli_here("--lang", "en", "call", server.url, "add", "--args", json.dumps(ARGUMENTS), "--db", str(db))
    assert done.returncode == 0 and SAID in done.stdout, done.stdout + done.stderr
    assert stored_calls(db) == [(ARGUMENTS, SAID)]
    return db


def exported(db: Path, kind: str, path: Path) -> Path:
    """Every run of ``db`` written to ``path`` by `run-inspector export` in the format ``kind``."""
    done = cli_here("--lang", "en", "export", "--all", "--format", kind, "-o", str(path), "--db", str(db))
    assert done.returncode == 0, done.stderr
    return path


@pytest.mark.parametrize("kind", FORMATS)
def test_a_call_beyond_64_bits_exports_and_imports_again_in_each_format(called: Path, tmp_path: Path,
                                                                        kind: str) -> None:
    path = exported(called, kind, tmp_path / f"runs.{kind}.json")
    done = cli_here("--lang", "en", "import", str(path), "--db", str(tmp_path / "again.db"))
    assert done.returncode == 0, done.stderr
    assert stored_calls(tmp_path / "again.db") == [(ARGUMENTS, SAID)]
    shown = cli_here("runs", "show", "1", "--json", "--db", str(tmp_path / "again.db"))
    assert json.loads(shown.stdout)["timeline"][0]["payload"]["toolArguments"] == ARGUMENTS
    other = FORMATS[1 - FORMATS.index(kind)]  # and what was imported exports in the other format, and reads back
    third = tmp_path / "third.db"
    with RunStore.open(third) as store:
        import_trace(store, exported(tmp_path / "again.db", other, tmp_path / f"again.{other}.json"))
    assert stored_calls(third) == [(ARGUMENTS, SAID)]


def test_a_call_beyond_64_bits_is_received_and_its_export_imports(called: Path, tmp_path: Path) -> None:
    body = exported(called, "otlp", tmp_path / "runs.otlp.json").read_bytes()
    with TraceReceiver(tmp_path / "received.db", ReceiverOptions(port=0, quiet_s=0.4)) as receiver:
        answer = httpx.post(receiver.url, content=body, headers={"Content-Type": "application/json"}, timeout=30)
    assert answer.status_code == 200 and "partialSuccess" not in answer.json(), answer.text
    assert stored_calls(tmp_path / "received.db") == [(ARGUMENTS, SAID)]
    with RunStore.open(tmp_path / "again.db") as store:
        import_trace(store, exported(tmp_path / "received.db", "trace", tmp_path / "received.trace.json"))
    assert stored_calls(tmp_path / "again.db") == [(ARGUMENTS, SAID)]
