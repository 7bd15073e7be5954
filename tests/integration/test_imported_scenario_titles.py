"""An English developer's played scenario, exported and imported by a German support engineer, is titled
as the developer's German colleague reads it ("Szenario happy-path"), in both export formats, and the
engineer's search for "Szenario" finds it: an import keeps the stored title ("scenario happy-path") and
makes the run's source ``imported``, and the title was said in the reader's language for source
``scenario`` only. Real runs in real SQLite files, exported and imported by the command line."""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector.i18n import set_language
from inspector.i18n.scenarios import run_title
from inspector.store import RunStore
from inspector.store.browse import RunFilter, list_runs
from tests.support.cli_process import cli_here as cli


@pytest.mark.parametrize("file_format", ["trace", "otlp"])
def test_a_german_engineer_reads_an_imported_scenario_run_in_german(tmp_path: Path, file_format: str) -> None:
    developer = str(tmp_path / "developer.db")
    with RunStore.open(developer) as store:
        played = store.start_run(run_title("happy-path"), "scenario", "http://127.0.0.1:8765/mcp")
        store.finish_run(played, "ok")
        echo = store.start_run("tools/call echo", "live", "http://127.0.0.1:8765/mcp")
        store.finish_run(echo, "ok")
    exported = str(tmp_path / f"runs-{file_format}.json")
    cli("export", "--all", "--format", file_format, "-o", exported, "--db", developer)
    engineer = str(tmp_path / "engineer.db")
    cli("import", exported, "--db", engineer)
    listed = cli("--lang", "de", "runs", "list", "--db", engineer).stdout
    assert "  Szenario happy-path\n" in listed and "scenario happy-path" not in listed
    assert "  tools/call echo\n" in listed  # our other words stay as stored
    assert cli("--lang", "de", "runs", "show", "1", "--db", engineer).stdout.startswith("Lauf 1: Szenario happy-path\n")
    assert cli("--lang", "en", "runs", "show", "1", "--db", engineer).stdout.startswith("Run 1: scenario happy-path\n")
    with RunStore.open(engineer) as store:
        set_language("de")
        try:
            assert [run.title for run in list_runs(store, RunFilter(text="Szenario"))] == ["scenario happy-path"]
        finally:
            set_language("en")
