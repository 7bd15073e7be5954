"""The window's import says the spans it left out as the command line's `import` does: a file holding
its spans twice (``cat a.jsonl a.jsonl > b.jsonl``) opened in the window said only "Imported 1 run
from b.jsonl." while `run-inspector import` said "16 spans came again … and were left out"."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from inspector.gui.language import switch_language
from tests.gui.test_runs_tab import runs_window
from tests.gui.test_screenshots import save
from tests.support.cli_process import cli_here

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "otel" / "mcp_sdk.jsonl"


def _cli_said(doubled: Path, db: Path, lang: str) -> str:
    said = cli_here("import", str(doubled), "--db", str(db), "--lang", lang)
    assert said.returncode == 0, said.stderr
    return said.stdout.strip()


def _save(window, name: str) -> None:
    save(window, f"open-trace-left-out-{name}")


def test_the_window_says_the_left_out_spans_in_the_command_lines_words(qtbot, make_window, tmp_path) -> None:
    doubled = tmp_path / "b.jsonl"
    doubled.write_bytes(FIXTURE.read_bytes() * 2)
    english = _cli_said(doubled, tmp_path / "en.db", "en")
    german = _cli_said(doubled, tmp_path / "de.db", "de")
    spans = sum(len(scope["spans"]) for line in FIXTURE.read_text(encoding="utf-8").splitlines() if line.strip()
                for resource in json.loads(line)["resourceSpans"] for scope in resource["scopeSpans"])
    left_out = f"{spans} spans came again in their traces (the file holds them more than once) and were left out."
    assert english.endswith(left_out)
    german_left_out = german[german.index(f"{spans} Spans"):]
    window = runs_window(make_window)
    window.resize(1280, 800)
    tab = window.runs_tab
    try:
        with qtbot.waitSignal(tab.transfer_ended, timeout=20000):
            tab.open_trace(doubled)
        assert tab.status.text().startswith("Imported 4 runs from b.jsonl. ")
        assert tab.status.text().endswith(" " + left_out)
        _save(window, "left-out-en")
        switch_language("de")
        assert tab.status.text().endswith(" " + german_left_out)
        _save(window, "left-out-de")
        switch_language("en")
        # The same file again: its runs are here already, and again the spans it left out.
        again = tmp_path / "again.jsonl"
        shutil.copyfile(doubled, again)
        with qtbot.waitSignal(tab.transfer_ended, timeout=20000):
            tab.open_trace(again)
        assert tab.status.text() == ("The runs of again.jsonl are here already (nothing was imported): "
                                     f"they are selected. {left_out}")
    finally:
        switch_language("en")
