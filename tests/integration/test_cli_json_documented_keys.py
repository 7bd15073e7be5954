"""The keys `export`, `import`, `runs list` and `runs show` print with `--json` are the ones docs/cli-json.md
lists for them: a script written from the document finds every key it reads, and the document names every
key there is (`import`'s `joined` was printed, and described, but missing from its list)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from inspector.cli import main
from inspector.store import RunStore
from tests.support.sample_runs import mixed_run

DOC = (Path(__file__).resolve().parents[2] / "docs" / "cli-json.md").read_text(encoding="utf-8")


def documented(pattern: str) -> set[str]:
    """The names in the first `{...}` after ``pattern`` in the document (quoted or not)."""
    found = re.search(re.escape(pattern) + r"[^{]*\{([^}]*)\}", DOC)
    assert found, pattern
    return {name.strip(' "\n') for name in found.group(1).split(",")}


def printed(capsys, *words: str) -> dict:
    capsys.readouterr()
    assert main([*words, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_export_import_and_runs_print_the_documented_keys(tmp_path: Path, capsys) -> None:
    db, other = tmp_path / "runs.db", tmp_path / "other.db"
    with RunStore.open(db) as store:
        mixed_run(store)
    trace = str(tmp_path / "runs.json")
    assert set(printed(capsys, "export", "--all", "-o", trace, "--db", str(db))) == documented("`export` prints `")
    assert set(printed(capsys, "import", trace, "--db", str(other))) == documented("`import` prints `")
    [run] = printed(capsys, "runs", "list", "--db", str(other))["runs"]
    assert set(run) == documented("- `runs list --json`: `{\"runs\": [")
    shown = printed(capsys, "runs", "show", "last", "--db", str(other))
    assert set(shown) == {"run", "timeline", "reason"}
    assert shown["reason"] == run["reason"]  # one function says both
    # "as `runs list --json` gives it, without `push` and `reason` and with `steps`"
    assert set(shown["run"]) == set(run) - {"push", "reason"} | {"steps"}
    assert {key for step in shown["timeline"] for key in step} == documented("\"timeline\": [")
