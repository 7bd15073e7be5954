"""`runs show` names a stored step's content blocks as the window's step detail does: the first hundred, then
how many more (an imported step of 5,000 blocks printed every one, each a few lines, and an embedded text of
200,000 lines whole). `--json` keeps every block, whole. A real SQLite file, a trace imported into it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inspector.cli import main
from inspector.store import RunStore
from inspector.transfer import import_trace


@pytest.fixture(scope="module")
def many_blocks(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database holding one run of one step with 5,000 content blocks (the second a long embedded text)."""
    blocks = [{"type": "resource_link", "uri": f"demo://item/{number}", "name": f"item {number}",
               "annotations": {"audience": ["user"], "priority": 0.5}} for number in range(5000)]
    blocks[1] = {"type": "resource", "uri": "demo://big", "mimeType": "text/plain", "text": "line\n" * 200_000}
    trace = {"format": "run-inspector-trace", "version": 1, "exported_at": "2026-11-30T12:00:00.000000Z",
             "runs": [{"uid": "many-blocks-1", "title": "tools/call many", "source": "live", "server": None,
                       "status": "ok", "started_at": "2026-11-30T08:00:00.000000Z",
                       "finished_at": "2026-11-30T08:00:01.000000Z",
                       "steps": [{"sequence": 1, "started_at": "2026-11-30T08:00:00.500000Z", "payload": {
                           "kind": "tool", "round": 1, "durationMs": 12.5, "toolName": "many",
                           "toolResult": "Many links.", "toolIsError": False, "toolOutcome": "ok",
                           "contentBlocks": blocks, "contentBlocksDropped": 1234}}]}]}
    folder = tmp_path_factory.mktemp("blocks")
    path = folder / "many.trace.json"
    path.write_text(json.dumps(trace), encoding="utf-8")
    db = folder / "runs.db"
    with RunStore.open(db) as store:
        assert list(import_trace(store, path).run_ids) == [1]
    return db


@pytest.mark.parametrize(("language", "more", "dropped"), [
    ("en", "    4,900 more content blocks are not named here.", "    1,234 more content blocks were not kept."),
    ("de", "    4.900 weitere Inhaltsblöcke sind hier nicht genannt.",
     "    1.234 weitere Inhaltsblöcke wurden nicht behalten."),
])
def test_runs_show_names_the_first_hundred_blocks_and_counts_the_rest(many_blocks: Path, capsys, language: str,
                                                                      more: str, dropped: str) -> None:
    capsys.readouterr()
    assert main(["runs", "show", "1", "--db", str(many_blocks), "--lang", language]) == 0
    out = capsys.readouterr().out
    assert out.count("demo://item/") == 99 and "demo://item/99." in out and "demo://item/100." not in out
    assert out.count("\n        line") == 10_000 // 5  # the embedded text cut before its lines are made
    assert out.endswith(f"\n{more}\n{dropped}\n")
    assert len(out) < 60_000


def test_runs_show_json_keeps_every_block_whole(many_blocks: Path, capsys) -> None:
    capsys.readouterr()
    assert main(["runs", "show", "1", "--db", str(many_blocks), "--json"]) == 0
    [step] = json.loads(capsys.readouterr().out)["timeline"]
    blocks = step["payload"]["contentBlocks"]
    assert len(blocks) == 5000 and blocks[-1]["uri"] == "demo://item/4999"
    assert blocks[1]["text"] == "line\n" * 200_000
    assert step["payload"]["contentBlocksDropped"] == 1234
