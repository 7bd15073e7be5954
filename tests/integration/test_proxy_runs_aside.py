"""The recording proxy's run the database does not take is kept in a side file, as a call's is: it was
dropped with "The proxy could not store the run ...". Real SQLite files; the database is deleted under the
proxy's writer (SQLite would write into the deleted file, where no one reads it)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from inspector.capture.proxy.steps import ProxiedRun
from inspector.capture.proxy.writer import RunWriter
from inspector.i18n.messages import Message
from inspector.runs import RunTrace, ToolResult
from inspector.store import RunStore
from inspector.transfer import import_trace


def a_run() -> ProxiedRun:
    step = RunTrace().record_tool_result(0, "echo", {"text": "kept"}, ToolResult.text("kept"), 3.0)
    return ProxiedRun("tools/call echo · proxy", "http://127.0.0.1:9/mcp", step, "ok", "ok", 3.0,
                      datetime.now(UTC), number=1)


def test_a_run_the_database_does_not_take_goes_to_a_side_file_that_imports_whole(tmp_path: Path) -> None:
    path = tmp_path / "runs.db"
    problems: list[Message] = []
    writer = RunWriter(path, problem=problems.append)
    writer.start()
    path.unlink()
    writer.put(a_run())
    writer.stop()
    (said,) = problems
    (side_file,) = (path.parent / "unsaved-runs").iterdir()
    assert str(said) == (f"The proxy could not store the run tools/call echo · proxy in {path} (the file was deleted "
                         f"or replaced while it was open): it was written to {side_file} instead; once the proxy has "
                         f"stopped, add it to the database with: run-inspector import {side_file} --db {path}")
    with RunStore.open(tmp_path / "again.db") as store:
        import_trace(store, side_file)
        (run,) = store.list_runs()
        assert run.status == "ok" and next(store.iter_steps(run.id)).payload["toolResult"] == "kept"
