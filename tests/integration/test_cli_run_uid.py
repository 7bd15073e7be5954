"""`runs show` names the run's uid in its header (an import numbers runs anew; the uid stays the same on
every machine), and where an imported run came from."""

from __future__ import annotations

from inspector.cli import main
from inspector.store import RunStore
from tests.support.sample_runs import mixed_run


def test_runs_show_names_the_uid_and_the_file_an_imported_run_came_from(tmp_path, capsys) -> None:
    source, here = tmp_path / "source.db", tmp_path / "here.db"
    with RunStore.open(source) as store:
        for title in ("8", "9", "10"):
            mixed_run(store, title, source="live")
        uid = store.get_run(3).uid
    trace = tmp_path / "support-case.json"
    assert main(["--db", str(source), "export", "3", "-o", str(trace)]) == 0
    assert main(["--db", str(source), "runs", "show", "3"]) == 0
    out = capsys.readouterr().out
    assert f"  uid {uid}\n" in out and "imported from" not in out
    assert main(["--db", str(here), "import", str(trace)]) == 0
    capsys.readouterr()
    assert main(["--db", str(here), "runs", "show", "1"]) == 0  # run 3 there is run 1 here: the uid says so
    out = capsys.readouterr().out
    assert f"  uid {uid}\n  imported from support-case.json\n" in out
    assert main(["--db", str(here), "--lang", "de", "runs", "show", uid[:12]]) == 0
    out = capsys.readouterr().out
    assert f"  UID {uid}\n  importiert aus support-case.json\n" in out
