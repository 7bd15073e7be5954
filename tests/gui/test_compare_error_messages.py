"""Two calls that failed in both runs, their error texts and content blocks both other: the window's row said
"another error message and other content blocks" and its summary "1 with another result and other content blocks".
The window's summary, its rows, ``compare`` and its ``--json`` say one thing now, in English and German. The runs:
stored in a real SQLite file, opened in the window."""

from __future__ import annotations

import json

import pytest

from inspector.gui.language import switch_language
from inspector.runs.step import RunStep
from inspector.store import RunStore, resolve_db_path
from tests.gui.test_runs_compare import cells, open_compare
from tests.support.cli_process import cli_here

#: (tool, how it ended in each run, its text in each run, the address its block links to in each run)
CALLS = (("fetch_invoice", ("failed", "failed"), ("upstream 503", "upstream 504"), ("demo://a", "demo://b")),
         ("fetch_order", ("ok", "ok"), ("Order 7 shipped.", "Order 7 lost."), ("demo://a", "demo://b")),
         ("fetch_refund", ("failed", "failed"), ("timed out", "refused"), ("demo://a", "demo://a")))

SAID = {
    "en": ("0 steps alike, 1 with another result and other content blocks, 1 with another error message and other "
           "content blocks, and 1 with another error message",
           ["another error message and other content blocks", "another result and other content blocks",
            "another error message"]),
    "de": ("0 Schritte gleich, 1 mit anderem Resultat und anderen Inhaltsblöcken, 1 mit anderer Fehlermeldung und "
           "anderen Inhaltsblöcken und 1 mit anderer Fehlermeldung",
           ["andere Fehlermeldung und andere Inhaltsblöcke", "anderes Resultat und andere Inhaltsblöcke",
            "andere Fehlermeldung"]),
}


def _two_runs() -> tuple[int, int]:
    """The two runs of :data:`CALLS`, stored as the window and ``compare`` read them."""
    ids = []
    with RunStore.open(resolve_db_path()) as store:
        for side in (0, 1):
            run_id = store.start_run("support agent", "live")
            for tool, outcomes, texts, links in CALLS:
                store.append_step(run_id, RunStep.from_payload({
                    "kind": "tool", "round": 1, "durationMs": 40, "toolName": tool, "toolArguments": {"id": 7},
                    "toolResult": texts[side], "toolIsError": outcomes[side] != "ok", "toolOutcome": outcomes[side],
                    "contentBlocks": [{"type": "resource_link", "uri": links[side], "name": "record"}]}))
            store.finish_run(run_id, "failed")
            ids.append(run_id)
    return ids[0], ids[1]


@pytest.mark.parametrize("language", ["en", "de"])
def test_two_failed_calls_are_said_alike_in_the_summary_the_rows_and_the_command_line(qtbot, make_window,
                                                                                     language) -> None:
    first, second = _two_runs()
    summary, rows = SAID[language]
    window = make_window(wait_tools=False)
    switch_language(language)
    try:
        dialog = open_compare(qtbot, window.runs_tab, [first, second])
        qtbot.addWidget(dialog)
        assert cells(dialog.model, "differences") == rows
        assert dialog.summary.text() == summary
    finally:
        switch_language("en")
    env = {"RUN_INSPECTOR_DB": str(resolve_db_path())}
    readable = cli_here("--lang", language, "compare", str(first), str(second), env=env).stdout.splitlines()
    assert summary in readable
    differing = [line.rstrip() for line in readable if line.startswith("≠")]
    assert len(differing) == 3 and all(line.endswith(said) for line, said in zip(differing, rows, strict=True))
    report = json.loads(cli_here("compare", str(first), str(second), "--json", env=env).stdout)["summary"]
    assert report["text"] == SAID["en"][0]
    assert (report["results"], report["error_messages"], report["content_blocks"]) == (3, 2, 2)
