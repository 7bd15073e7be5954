"""How much work ``runs show`` does per step: each stored step's payload is built from its step once (a
run read from a trace of 100,000 spans nested in one chain built each payload eight times for the readable
listing), and the listing still streams: the first steps are written before the later ones are read.
A real SQLite file, traces imported into it, the command in this process (its work counted)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from inspector.cli import main
from inspector.runs.step import RunStep
from inspector.store import RunStore
from inspector.store.browse import list_runs
from inspector.transfer import import_trace
from tests.support.chain_trace import chain_trace

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "otel"
#: Spans in the chain: four pages of the listing (it reads 500 steps at a time).
CHAIN = 2_000


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Run 1: the chain; then the recorded traces of real software (model calls, joined sides, wrappers)."""
    folder = tmp_path_factory.mktemp("work")
    db = folder / "runs.db"
    with RunStore.open(db) as store:
        import_trace(store, chain_trace(folder / "chain.jsonl", CHAIN))
        for fixture in ("pydantic_ai", "fastmcp", "traceloop"):
            import_trace(store, FIXTURES / f"{fixture}.jsonl")
    return db


@pytest.fixture
def builds(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The real ``RunStep.to_payload``, each call counted (one entry per build)."""
    real = RunStep.to_payload
    calls: list[int] = []

    def counted(step: RunStep, *args, **kwargs):
        calls.append(1)
        return real(step, *args, **kwargs)

    monkeypatch.setattr(RunStep, "to_payload", counted)
    return calls


def _every_run(db: Path) -> list[tuple[int, int]]:
    with RunStore.open(db) as store:
        return [(run.id, run.step_count or 0) for run in list_runs(store)]


@pytest.mark.parametrize("options", [(), ("--plumbing",), ("--json",)], ids=["readable", "plumbing", "json"])
def test_runs_show_builds_each_steps_payload_once(database: Path, builds: list[int], capsys, options) -> None:
    runs = _every_run(database)
    assert len(runs) > 3 and runs[-1] == (1, CHAIN)
    for run_id, steps in runs:
        builds.clear()
        capsys.readouterr()
        assert main(["runs", "show", str(run_id), "--db", str(database), *options]) == 0
        out = capsys.readouterr().out
        listed = steps if "--json" in options else _listed(out)
        assert len(builds) == listed, (run_id, len(builds), listed)


def _listed(out: str) -> int:
    """How many step rows a readable listing holds (its counts line says how many are shown)."""
    counts = next(line for line in out.splitlines() if line.startswith("  started "))
    if " shown (" in counts:
        return int(counts.split(", ")[-1].split(" of ")[0].replace(",", ""))
    return int(counts.rsplit(", ", 1)[-1].split(" ")[0].replace(",", ""))


def test_runs_show_writes_the_first_steps_before_it_reads_the_next_page(database: Path, capsys,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Steps are read 500 at a time (a nested run by id, a flat one and ``--json`` by time): when the
    second page is read, the first page's steps are written already."""
    written_at_second_page: list[str] = []

    def watched(read):
        def reading(store: RunStore, *args, **kwargs):
            reads.append(1)
            if len(reads) == 2:
                written_at_second_page.append(sys.stdout.getvalue())
            return read(store, *args, **kwargs)
        return reading

    monkeypatch.setattr(RunStore, "steps_by_id", watched(RunStore.steps_by_id))
    monkeypatch.setattr(RunStore, "steps_page", watched(RunStore.steps_page))
    for options in ((), ("--json",)):
        reads: list[int] = []
        written_at_second_page.clear()
        capsys.readouterr()
        assert main(["runs", "show", "1", "--db", str(database), *options]) == 0
        [written] = written_at_second_page
        assert "level-500" in written and "level-501\n" not in written and 'level-501"' not in written
        assert capsys.readouterr().out.count("level-") >= CHAIN
