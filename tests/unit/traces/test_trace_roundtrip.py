"""Export, then import into an empty database: the same runs, steps, legs and outcomes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_trace_support import LLM_PAYLOAD, TOOL_PAYLOAD, fill, run_doc, snapshot, step_doc, trace_doc, write_json

from inspector.store import RunStore
from inspector.transfer.exporting import export
from inspector.transfer.importing import ImportReport, import_trace


@pytest.fixture
def source(tmp_path: Path) -> RunStore:
    store = RunStore.open(tmp_path / "source.db")
    fill(store)
    yield store
    store.close()


@pytest.fixture
def target(tmp_path: Path) -> RunStore:
    store = RunStore.open(tmp_path / "target.db")
    yield store
    store.close()


@pytest.mark.parametrize("file_format", ["trace", "otlp"])
def test_a_round_trip_gives_identical_runs(source: RunStore, target: RunStore, tmp_path: Path,
                                           file_format: str) -> None:
    path = tmp_path / f"runs.{file_format}.json"
    exported = export(source, None, None, path, format=file_format)
    assert (exported.runs, exported.steps) == (3, 8)

    report = import_trace(target, path)

    assert snapshot(target) == snapshot(source)  # uid, title, server, status, times, every step
    assert report.runs_imported == 3 and report.steps_imported == 8 and report.already_present == ()
    assert report.file_format == file_format
    for run in target.list_runs(limit=None):
        assert run.source == "imported" and run.origin == path.name


def test_steps_keep_payloads_legs_sequences_times_and_outcomes(source: RunStore, target: RunStore,
                                                                tmp_path: Path) -> None:
    export(source, None, None, tmp_path / "t.json")
    import_trace(target, tmp_path / "t.json")
    run = target.find_run_by_uid(source.list_runs(outcome="cancelled")[0].uid)
    steps = list(target.iter_steps(run.id))
    assert [s.sequence for s in steps] == [1, 2, 3, 4]
    assert [s.outcome for s in steps] == ["", "ok", "failed", "cancelled"]
    last = steps[-1].step
    assert [leg.method for leg in last.legs] == ["initialize", "notifications/initialized", "tools/call"]
    assert last.legs[-1].outcome == "cancelled" and last.cancelled_in_flight is True
    assert steps[0].payload["raw"] == {"id": "resp-1", "choices": [None, 1.5, True]}
    assert steps[0].payload["completionTokens"] == 0 and steps[0].payload["estimatedCost"] == 0.0


def test_cancelled_stays_cancelled_through_otlp(source: RunStore, target: RunStore, tmp_path: Path) -> None:
    path = tmp_path / "t.otlp.json"
    export(source, None, "cancelled", path, format="otlp")
    import_trace(target, path)
    (run,) = target.list_runs(limit=None)
    assert run.status == "cancelled"
    assert [s.outcome for s in target.iter_steps(run.id)][-1] == "cancelled"
    spans = json.loads(path.read_text())["resourceSpans"][0]["scopeSpans"][0]["spans"]
    root = spans[0]
    assert root.get("status", {}).get("code", 0) == 0  # cancelled is not an error...
    assert {"key": "error.type", "value": {"stringValue": "cancelled"}} in root["attributes"]  # ...but is said


def test_legacy_rows_import_and_render_as_before(source: RunStore, target: RunStore, tmp_path: Path) -> None:
    export(source, None, "failed", tmp_path / "t.json")
    import_trace(target, tmp_path / "t.json")
    (run,) = target.list_runs(limit=None)
    legacy = [s for s in target.iter_steps(run.id) if s.payload.get("toolName") == "old"]
    assert [s.outcome for s in legacy] == ["failed", "ok"]
    assert all("toolOutcome" not in s.payload for s in legacy)
    assert legacy[0].started_at is None  # an unknown time stays unknown


def test_importing_twice_adds_nothing_the_second_time(source: RunStore, target: RunStore, tmp_path: Path) -> None:
    export(source, None, None, tmp_path / "t.json")
    import_trace(target, tmp_path / "t.json")
    before = snapshot(target)
    again = import_trace(target, tmp_path / "t.json")
    assert again.runs_imported == 0 and again.steps_imported == 0
    assert sorted(again.already_present) == sorted(run.uid for run in source.list_runs(limit=None))
    assert snapshot(target) == before


def test_only_new_runs_of_a_file_are_added(source: RunStore, target: RunStore, tmp_path: Path) -> None:
    export(source, None, "ok", tmp_path / "ok.json")
    import_trace(target, tmp_path / "ok.json")
    export(source, None, None, tmp_path / "all.json", format="otlp")
    report = import_trace(target, tmp_path / "all.json")
    assert report.runs_imported == 2 and len(report.already_present) == 1
    assert snapshot(target) == snapshot(source)


def test_export_selects_runs_by_id_and_by_outcome(source: RunStore, tmp_path: Path) -> None:
    cancelled, failed, ok = source.list_runs(limit=None)[::-1]
    report = export(source, [cancelled.id, ok.id], None, tmp_path / "two.json")
    doc = json.loads((tmp_path / "two.json").read_text())
    assert report.runs == 2 and [run["uid"] for run in doc["runs"]] == [cancelled.uid, ok.uid]
    export(source, [cancelled.id, ok.id], "ok", tmp_path / "one.json")
    assert [run["uid"] for run in json.loads((tmp_path / "one.json").read_text())["runs"]] == [ok.uid]
    export(source, [], None, tmp_path / "none.json")
    assert json.loads((tmp_path / "none.json").read_text())["runs"] == []


def test_the_trace_file_has_the_documented_shape(source: RunStore, tmp_path: Path) -> None:
    export(source, None, None, tmp_path / "t.json")
    doc = json.loads((tmp_path / "t.json").read_text(encoding="utf-8"))
    assert (doc["format"], doc["version"]) == ("run-inspector-trace", 1)
    assert doc["exported_at"].endswith("Z")
    run = doc["runs"][0]
    assert set(run) == {"uid", "title", "source", "server", "status", "started_at", "finished_at", "steps"}
    assert set(run["steps"][0]) == {"sequence", "started_at", "payload"}
    assert "health" not in (tmp_path / "t.json").read_text() and "last_contact" not in (tmp_path / "t.json").read_text()


def test_a_bare_list_of_payloads_is_one_run_named_after_the_file(target: RunStore, tmp_path: Path) -> None:
    legacy = {"kind": "tool", "round": 2, "durationMs": 5.0, "toolName": "x", "toolIsError": True}
    path = write_json(tmp_path / "support-case-17.json", [LLM_PAYLOAD, TOOL_PAYLOAD, legacy])
    report = import_trace(target, path)
    (run,) = target.list_runs(limit=None)
    assert (run.title, run.source, run.status, run.origin) == ("support-case-17", "imported", "failed", path.name)
    assert run.uid.startswith("payloads-") and report.imported_uids == (run.uid,)
    steps = list(target.iter_steps(run.id))
    assert [s.sequence for s in steps] == [1, 2, 3] and [s.outcome for s in steps] == ["", "ok", "failed"]
    assert steps[2].payload == legacy  # stored as it was: no outcome invented

    # The same steps, written differently, are the same run.
    path.write_text(json.dumps([LLM_PAYLOAD, TOOL_PAYLOAD, legacy], indent=4, sort_keys=True))
    assert import_trace(target, path).already_present == (run.uid,)


def test_a_running_run_is_imported_as_interrupted(target: RunStore, tmp_path: Path) -> None:
    path = write_json(tmp_path / "t.json", trace_doc([run_doc(status="running", finished_at=None)]))
    import_trace(target, path)
    (run,) = target.list_runs(limit=None)
    assert run.status == "interrupted" and run.finished_at is None


def test_times_with_another_zone_are_stored_in_utc(target: RunStore, tmp_path: Path) -> None:
    doc = trace_doc([run_doc(started_at="2026-11-30T10:00:00+02:00",
                             steps=[step_doc(1, LLM_PAYLOAD, started_at="2026-11-30T09:00:01.5+01:00")])])
    import_trace(target, write_json(tmp_path / "t.json", doc))
    (run,) = target.list_runs(limit=None)
    assert run.started_at.isoformat() == "2026-11-30T08:00:00+00:00"
    assert next(target.iter_steps(run.id)).started_at.isoformat() == "2026-11-30T08:00:01.500000+00:00"


def test_a_utf8_byte_order_mark_is_skipped(target: RunStore, tmp_path: Path) -> None:
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(trace_doc()).encode())
    assert import_trace(target, path).runs_imported == 1


def test_progress_is_reported_up_to_the_total(source: RunStore, target: RunStore, tmp_path: Path) -> None:
    export_calls: list[tuple[int, int]] = []
    export(source, None, None, tmp_path / "t.json", progress=lambda done, total: export_calls.append((done, total)))
    assert export_calls[-1] == (8, 8)
    import_calls: list[tuple[int, int]] = []
    import_trace(target, tmp_path / "t.json", progress=lambda done, total: import_calls.append((done, total)))
    size = (tmp_path / "t.json").stat().st_size
    assert import_calls[-1] == (2 * size, 2 * size)
    assert all(done <= total for done, total in import_calls)


def test_an_empty_trace_imports_nothing(target: RunStore, tmp_path: Path) -> None:
    report = import_trace(target, write_json(tmp_path / "t.json", trace_doc([])))
    assert report == ImportReport("trace", (), (), (), 0)


def test_a_repeated_runs_key_does_not_merge_runs(target: RunStore, tmp_path: Path) -> None:
    first = json.dumps(trace_doc([run_doc("a", steps=[step_doc(1, LLM_PAYLOAD)])]))
    second = json.dumps([run_doc("b", steps=[step_doc(2, LLM_PAYLOAD)])])
    path = tmp_path / "t.json"
    path.write_text(first[:-1] + ', "runs": ' + second + "}")
    assert import_trace(target, path).imported_uids == ("a", "b")
    runs = {run.uid: [s.sequence for s in target.iter_steps(run.id)] for run in target.list_runs(limit=None)}
    assert runs == {"a": [1], "b": [2]}


def _through_a_file(payload: dict, status: str, target: RunStore, tmp_path: Path, file_format: str) -> dict:
    """The payload of a run's one step, stored, exported in ``file_format`` and imported into ``target``."""
    from inspector.runs import RunStep

    source = RunStore.open(tmp_path / "client.db")
    run_id = source.start_run("call files")
    source.append_step(run_id, RunStep.from_payload(payload))
    source.finish_run(run_id, status)
    export(source, None, None, tmp_path / "t.json", format=file_format)
    source.close()
    import_trace(target, tmp_path / "t.json")
    (stored,) = target.iter_steps(target.list_runs()[0].id)
    return stored.payload


@pytest.mark.parametrize("file_format", ["trace", "otlp"])
def test_the_client_keys_of_a_step_survive_a_round_trip(target: RunStore, tmp_path: Path, file_format: str) -> None:
    payload = {"kind": "tool", "round": 0, "durationMs": 12.5, "toolName": "files", "toolArguments": {},
               "toolResult": "done", "toolIsError": True, "toolOutcome": "cancelled", "cancelledInFlight": True,
               "contentBlocks": [{"type": "resource_link", "uri": "file:///srv/a.csv", "name": "a.csv", "size": 4}],
               "contentBlocksDropped": 2,
               "serverRequests": [{"method": "elicitation/create", "count": 1, "declined": True}],
               "progress": [{"atMs": 1.5, "progress": 1, "total": None, "message": "working"}],
               "progressDropped": 3, "serverToldToStop": False}
    assert _through_a_file(payload, "cancelled", target, tmp_path, file_format) == payload


@pytest.mark.parametrize("file_format", ["trace", "otlp"])
@pytest.mark.parametrize("kept", [{"structuredContent": {"items": [{"price": 3, "note": "Grüße"}], "empty": {}}},
                                  {"structuredContentText": '{"rows":[1,2\n\n[Cut: the original content had …]'}])
def test_a_steps_structured_content_survives_a_round_trip(target: RunStore, tmp_path: Path, file_format: str,
                                                          kept: dict) -> None:
    payload = {"kind": "tool", "round": 0, "durationMs": 3.5, "toolName": "structure_only", "toolArguments": {},
               "toolResult": "The tool returned no textual content.", "toolIsError": False, "toolOutcome": "ok",
               **kept}
    assert _through_a_file(payload, "ok", target, tmp_path, file_format) == payload


@pytest.mark.parametrize("file_format", ["trace", "otlp"])
def test_structured_content_as_deep_as_a_step_keeps_it_imports_again(target: RunStore, tmp_path: Path,
                                                                     file_format: str) -> None:
    """Structured content nested deeper than an import takes was kept as it was: its export was refused
    whole ("nested deeper than 108 levels. Nothing was imported")."""
    from inspector.runs import RunTrace, ToolResult
    from inspector.runs.result import MAX_STRUCTURE_DEPTH

    deepest = 1
    for _ in range(MAX_STRUCTURE_DEPTH):
        deepest = {"a": deepest}
    deeper = deepest
    for _ in range(10):  # past what an import takes (the payload itself sits 5 levels in a file)
        deeper = {"b": deeper}
    for tool, structured in (("deepest", deepest), ("deeper", deeper)):
        (tmp_path / tool).mkdir()
        step = RunTrace().record_tool_result(0, tool, {}, ToolResult.text("", structured_content=structured), 1.0)
        assert _through_a_file(step.to_payload(), "ok", target, tmp_path / tool, file_format) == step.to_payload()
    assert "structuredContent" in RunTrace().record_tool_result(
        0, "deepest", {}, ToolResult.text("", structured_content=deepest), 1.0).to_payload()
    assert RunTrace().record_tool_result(0, "deeper", {}, ToolResult.text("", structured_content=deeper), 1.0) \
        .to_payload()["structuredContentText"].startswith('{"b":{"b":{"b":')
