"""A call's arguments nested as deep as ``call --args`` and a scenario file take them (100 levels) are
stored, exported in both formats, imported again and received, for each format puts levels of its own
around them (``runs[0].steps[0].payload.requestedToolCalls[0].arguments``): the importer's limits
left them out before (a scenario's arguments read back only to 92 levels). One level more is refused by
each. A real demo server, the real command line, real SQLite files, a real receiver on 127.0.0.1."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from inspector.agent.scenario import MAX_ARGUMENT_DEPTH
from inspector.capture import ReceiverOptions, TraceReceiver
from inspector.demo import DemoServer
from inspector.store import RunStore
from inspector.traces.format import MAX_VALUE_DEPTH
from inspector.transfer import TraceImportError, export, import_trace
from tests.support.cli_process import cli_here

FORMATS = ("trace", "otlp")


def nested(levels: int) -> dict[str, Any]:
    """Arguments nesting ``levels`` lists and objects, the object itself the first."""
    value: Any = "x"
    for _ in range(levels - 1):
        value = [value]
    return {"text": "hi", "deep": value}


def stored_arguments(db: Path) -> list[dict[str, Any]]:
    """The arguments of every call stored in ``db``, asked for by a model or made."""
    found = []
    with RunStore.open(db) as store:
        for run in store.list_runs():
            for step in store.iter_steps(run.id):
                payload = step.payload
                found += [call["arguments"] for call in payload.get("requestedToolCalls") or []]
                found += [payload["toolArguments"]] if payload.get("toolArguments") else []
    return found


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database holding a scenario run and a `call` run, each with arguments 100 levels deep."""
    folder = tmp_path_factory.mktemp("deep")
    db, scenario = folder / "runs.db", folder / "deep.json"
    scenario.write_text(json.dumps({"scenario": 1, "name": "deep", "description": "d", "prompt": "p", "rounds": [
        {"calls": [{"tool": "echo", "arguments": nested(MAX_ARGUMENT_DEPTH)}]}]}))
    with DemoServer() as server:
        for command in (("scenario", str(scenario), "--server", server.url),
                        ("call", server.url, "echo", "--args", json.dumps(nested(MAX_VALUE_DEPTH)))):
            done = cli_here("--lang", "en", *command, "--db", str(db))
            assert "Traceback" not in done.stderr and "nested deeper" not in done.stderr, done.stderr
    assert stored_arguments(db) == [nested(100)] * 3  # the model's request, its call, and the `call` run
    return db


def exported(db: Path, kind: str, path: Path) -> Path:
    with RunStore.open(db) as store:
        export(store, None, None, path, kind)
    return path


@pytest.mark.parametrize("kind", FORMATS)
def test_arguments_at_the_limit_export_and_import_again_in_each_format(played: Path, tmp_path: Path,
                                                                       kind: str) -> None:
    again = tmp_path / "again.db"
    with RunStore.open(again) as store:
        import_trace(store, exported(played, kind, tmp_path / f"runs.{kind}.json"))
    assert stored_arguments(again) == [nested(100)] * 3
    other = FORMATS[1 - FORMATS.index(kind)]  # and what was imported exports in the other format, and reads back
    third = tmp_path / "third.db"
    with RunStore.open(third) as store:
        import_trace(store, exported(again, other, tmp_path / f"again.{other}.json"))
    assert stored_arguments(third) == [nested(100)] * 3


def test_arguments_at_the_limit_are_received(played: Path, tmp_path: Path) -> None:
    body = exported(played, "otlp", tmp_path / "runs.otlp.json").read_bytes()
    with TraceReceiver(tmp_path / "received.db", ReceiverOptions(port=0, quiet_s=0.4)) as receiver:
        answer = httpx.post(receiver.url, content=body, headers={"Content-Type": "application/json"}, timeout=30)
    assert answer.status_code == 200 and "partialSuccess" not in answer.json(), answer.text
    assert stored_arguments(tmp_path / "received.db") == [nested(100)] * 3


def deepened(value: Any) -> Any:
    """``value`` with each ``deep`` of the arguments one list deeper, and each step payload of an OTLP
    file (a JSON string in an attribute) so too."""
    if isinstance(value, list):
        return [deepened(item) for item in value]
    if not isinstance(value, dict):
        return value
    if value.get("key") == "run_inspector.step.payload":
        return {**value, "value": {"stringValue": json.dumps(deepened(json.loads(value["value"]["stringValue"])))}}
    return {key: [item] if key == "deep" else deepened(item) for key, item in value.items()}


@pytest.mark.parametrize("kind", FORMATS)
def test_one_level_more_than_is_stored_is_refused_by_the_import(played: Path, tmp_path: Path, kind: str) -> None:
    text = exported(played, kind, tmp_path / f"runs.{kind}.json").read_text()
    path = tmp_path / f"deeper.{kind}.json"
    path.write_text(json.dumps(deepened(json.loads(text))))
    assert path.read_text().count("[" * MAX_VALUE_DEPTH) == 3
    with RunStore.open(tmp_path / "deeper.db") as store, pytest.raises(TraceImportError) as refused:
        import_trace(store, path)
    assert "nested deeper than" in str(refused.value)
