"""A support engineer given the same runs twice, in our trace format and as OTLP JSON, imports both
files: the second adds nothing, and says so without claiming that file was imported before (it never
was: its runs came in the other one). Real runs in a real SQLite file, exported by the command line."""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector.store import RunStore
from tests.support.cli_process import cli_here as cli


def _two_exports(tmp_path: Path) -> tuple[Path, Path]:
    source = str(tmp_path / "developer.db")
    with RunStore.open(source) as store:
        store.finish_run(store.start_run("tools/call echo", "live", "http://127.0.0.1:8765/mcp"), "ok")
        store.finish_run(store.start_run("tools/call hang", "live", "http://127.0.0.1:8765/mcp"), "cancelled")
    trace, otlp = tmp_path / "runs-trace.json", tmp_path / "runs-otlp.json"
    cli("export", "--all", "-o", str(trace), "--db", source)
    cli("export", "--all", "--format", "otlp", "-o", str(otlp), "--db", source)
    return trace, otlp


@pytest.mark.parametrize(("language", "said"), [
    ("en", "The runs of {path} are here already (nothing was imported): runs 1, 2.\n"),
    ("de", "Die Läufe aus {path} sind schon hier (nichts wurde importiert): Läufe 1, 2.\n"),
])
def test_the_same_runs_in_the_other_format_are_here_already(tmp_path: Path, language: str, said: str) -> None:
    trace, otlp = _two_exports(tmp_path)
    db = str(tmp_path / "engineer.db")
    first = cli("--lang", language, "import", str(trace), "--db", db).stdout
    assert first.startswith((f"Imported 2 runs from {trace}.", f"2 Läufe aus {trace} importiert."))
    assert cli("--lang", language, "import", str(otlp), "--db", db).stdout == said.format(path=otlp)
    with RunStore.open(db) as store:
        assert [run.status for run in store.list_runs()] == ["cancelled", "ok"]  # nothing doubled, cancelled kept
