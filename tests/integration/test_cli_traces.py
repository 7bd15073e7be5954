"""Export and import from the command line: a trace recorded here opens elsewhere, unchanged."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest
from google.protobuf import json_format
from opentelemetry.proto.trace.v1.trace_pb2 import TracesData

from inspector.traces.redact import REDACTED
from tests.support.cli_process import cli_here as cli  # what it says, not its process
from tests.support.fault_server import Exchange, FaultServer

ROOT = Path(__file__).resolve().parents[2]
SECRET = "Bearer do-not-export-me"


def record_three_runs(db: str) -> None:
    """ok, failed (tool error) and failed (HTTP 500) runs against a real loopback server."""
    def work(exchange: Exchange) -> None:
        name = (exchange.request.params or {}).get("name")
        if name == "broken":
            exchange.send(500, b"down", content_type="text/plain")
        else:
            exchange.send_result({"content": [{"type": "text", "text": f"ran {name}"}],
                                  "isError": name == "refuses"})

    with FaultServer("session", work=work) as server:
        for tool in ("fine", "refuses", "broken"):
            cli("call", server.url, tool, "--args", '{"password": "hunter2-secret"}',
                "--header", f"Authorization: {SECRET}", "--db", db)


def timeline(db: str, run_id: int) -> list[dict]:
    shown = json.loads(cli("runs", "show", str(run_id), "--json", "--db", db).stdout)
    return [{key: entry[key] for key in ("time", "sequence", "kind", "round", "duration_ms", "outcome", "payload")}
            for entry in shown["timeline"]]


def test_export_then_import_elsewhere_gives_the_same_runs(tmp_path: Path) -> None:
    here = str(tmp_path / "here.db")
    record_three_runs(here)
    for file_format in ("trace", "otlp"):
        exported = tmp_path / f"all.{file_format}.json"
        done = cli("export", "--all", "-o", str(exported), "--format", file_format, "--json", "--db", here)
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout)["runs"] == 3
        content = exported.read_bytes()
        assert b"do-not-export-me" not in content and b"hunter2-secret" not in content
        if file_format == "otlp":
            json_format.Parse(content.decode(), TracesData())
        target = str(tmp_path / f"there-{file_format}.db")
        imported = cli("import", str(exported), "--json", "--db", target)
        assert imported.returncode == 0, imported.stderr
        report = json.loads(imported.stdout)
        assert len(report["run_ids"]) == 3
        originals = json.loads(cli("runs", "list", "--json", "--db", here).stdout)["runs"]
        copies = json.loads(cli("runs", "list", "--json", "--db", target).stdout)["runs"]
        assert [(r["uid"], r["status"], r["title"]) for r in originals] == [
            (r["uid"], r["status"], r["title"]) for r in copies]
        assert {r["source"] for r in copies} == {"imported"}
        for original, copy in zip(originals, copies, strict=True):
            expected = timeline(here, original["id"])
            for entry in expected:  # the only change: the credential never left this machine
                assert entry["payload"]["toolArguments"] == {"password": "hunter2-secret"}
                entry["payload"]["toolArguments"] = {"password": REDACTED}
            assert timeline(target, copy["id"]) == expected
        # The same trace again: nothing new.
        again = json.loads(cli("import", str(exported), "--json", "--db", target).stdout)
        assert again["run_ids"] == [] and len(again["already_present"]) == 3


def test_export_filters_by_outcome_and_names_runs(tmp_path: Path) -> None:
    db = str(tmp_path / "runs.db")
    record_three_runs(db)
    out = tmp_path / "failed.json"
    assert cli("export", "--all", "--outcome", "failed", "-o", str(out), "--db", db).returncode == 0
    assert [run["status"] for run in json.loads(out.read_text())["runs"]] == ["failed", "failed"]
    first = tmp_path / "first.json"
    assert cli("export", "1", "-o", str(first), "--db", db).returncode == 0
    assert len(json.loads(first.read_text())["runs"]) == 1
    missing = cli("export", "77", "-o", str(tmp_path / "none.json"), "--db", db)
    assert missing.returncode == 2 and "77" in missing.stderr  # a run that is not there is bad input
    assert not (tmp_path / "none.json").exists()
    assert cli("export", "-o", str(tmp_path / "x.json"), "--db", db).returncode == 2
    # A filter alone selects, as --all with the filter does.
    alone = tmp_path / "failed-alone.json"
    done = cli("export", "--outcome", "failed", "-o", str(alone), "--db", db)
    assert done.returncode == 0, done.stderr
    assert json.loads(alone.read_text())["runs"] == json.loads(out.read_text())["runs"]
    assert "Exported 2 runs" in done.stdout and "(s)" not in done.stdout
    # An interrupted run (the program stopped while it ran) can be chosen as runs list chooses it.
    from inspector.store import RunStore

    with RunStore.open(db) as store:
        stopped = store.start_run("stopped midway", "live", None)
        store.finish_run(stopped, "interrupted")
    interrupted = tmp_path / "interrupted.json"
    done = cli("export", "--outcome", "interrupted", "-o", str(interrupted), "--db", db)
    assert done.returncode == 0, done.stderr
    assert [run["title"] for run in json.loads(interrupted.read_text())["runs"]] == ["stopped midway"]


def test_a_bad_file_changes_nothing_and_says_where(tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    record_three_runs(str(db))
    good = tmp_path / "good.json"
    cli("export", "--all", "-o", str(good), "--db", str(db))
    document = json.loads(good.read_text())
    document["runs"][1]["steps"][0]["payload"]["toolOutcome"] = "ok"  # contradicts toolIsError: true
    bad = tmp_path / "tampered.json"
    bad.write_text(json.dumps(document))

    def fingerprint() -> str:
        digest = hashlib.sha256()
        for suffix in ("", "-wal"):
            file = Path(f"{db}{suffix}")
            digest.update(file.read_bytes() if file.exists() else b"-")
        return digest.hexdigest()

    before = fingerprint()
    done = cli("import", str(bad), "--db", str(db))
    assert done.returncode == 2
    assert "runs[1].steps[0].payload" in done.stderr
    assert "Nothing was imported" in done.stderr
    assert fingerprint() == before
    truncated = tmp_path / "truncated.json"
    truncated.write_text(good.read_text()[:200])
    cut = cli("import", str(truncated), "--db", str(db))
    assert cut.returncode == 2 and "byte" in cut.stderr
    assert fingerprint() == before


def test_export_names_runs_as_runs_show_does(tmp_path: Path, capsys) -> None:
    """`runs show`, `compare`, `runs note` and `replay` take last, last~N or a uid's beginning;
    `export last` was refused ("a run id must be a whole number ..., not last")."""
    from inspector.cli import main
    from inspector.store import RunStore

    db = str(tmp_path / "runs.db")
    with RunStore.open(db) as store:
        first, second, third = (store.start_run(title, "live", None) for title in ("one", "two", "three"))
        uid = store.get_run(first).uid
    out = tmp_path / "named.json"
    assert main(["export", "last", "last~1", uid[:8], "-o", str(out), "--json", "--db", db]) == 0
    assert json.loads(capsys.readouterr().out)["runs"] == 3
    assert sorted(run["title"] for run in json.loads(out.read_text())["runs"]) == ["one", "three", "two"]
    assert main(["export", "last", "-o", str(out), "--force", "--db", db]) == 0
    assert [run["title"] for run in json.loads(out.read_text())["runs"]] == ["three"]
    capsys.readouterr()
    assert main(["export", "no", "-o", str(tmp_path / "none.json"), "--db", db]) == 2
    assert "no names no run: give a run's id, last, last~N" in capsys.readouterr().err
    assert main(["--lang", "de", "export", "last~9", "-o", str(tmp_path / "none.json"), "--db", db]) == 2
    assert "Es gibt keinen Lauf last~9" in capsys.readouterr().err
    assert not (tmp_path / "none.json").exists()
    assert (second, third) == (first + 1, first + 2)


def test_export_to_a_dash_is_refused_not_written_to_a_file_named_dash(tmp_path: Path, capsys,
                                                                    monkeypatch) -> None:
    from inspector.cli import main
    from inspector.store import RunStore

    db = str(tmp_path / "runs.db")
    with RunStore.open(db) as store:
        store.start_run("one", "live", None)
    monkeypatch.chdir(tmp_path)
    assert main(["export", "last", "-o", "-", "--db", db]) == 2
    assert capsys.readouterr().err.strip() == (
        "run-inspector: export writes a file, not standard output: give -o a file name (e.g. -o runs.json)")
    assert main(["--lang", "de", "export", "last", "-o", "-", "--db", db]) == 2
    assert capsys.readouterr().err.strip() == (
        "run-inspector: export schreibt eine Datei, nicht in die Standardausgabe: Geben Sie bei -o einen "
        "Dateinamen an (z. B. -o runs.json)")
    assert not (tmp_path / "-").exists()


def test_a_refused_file_leaves_no_database_behind(tmp_path: Path) -> None:
    """Importing a bad file into a database that did not exist yet leaves nothing: no database
    file (and a folder that does not exist is refused, not made); one that existed stays (with its runs)."""
    corrupt = tmp_path / "corrupt.json"
    corrupt.write_text('{"resourceSpans": [ {"resource": ')
    (tmp_path / "new").mkdir()
    db = tmp_path / "new" / "runs.db"
    for bad in (str(corrupt), "/dev/zero", str(tmp_path)):
        for extra in ((), ("--json",)):
            done = cli("import", bad, "--db", str(db), *extra)
            assert done.returncode == 2 and "Nothing was imported" in done.stdout + done.stderr
            assert not list((tmp_path / "new").iterdir()), bad
    elsewhere = cli("import", str(corrupt), "--db", str(tmp_path / "missing" / "runs.db"))
    assert elsewhere.returncode == 2 and "does not exist" in elsewhere.stderr
    assert not (tmp_path / "missing").exists()
    good = ROOT / "tests" / "fixtures" / "otel" / "mcp_sdk.jsonl"
    assert cli("import", str(good), "--db", str(db)).returncode == 0
    assert cli("import", str(corrupt), "--db", str(db)).returncode == 2
    listed = json.loads(cli("runs", "list", "--json", "--all", "--db", str(db)).stdout)
    assert len(listed["runs"]) == 4


def test_runs_list_filters_imported_runs_by_the_server_their_trace_names(tmp_path: Path) -> None:
    """An imported run's server is the MCP server its trace shows (the service of the calls' server
    sides; no URL, not configured): `runs list --server` takes it, as the window's server filter lists
    it. The agent's own service is not a server; a name nothing has is refused."""
    db = str(tmp_path / "runs.db")
    otel = ROOT / "tests" / "fixtures" / "otel"
    for name in ("mcp_sdk.jsonl", "traceloop.jsonl"):
        assert cli("import", str(otel / name), "--db", db).returncode == 0
    listed = json.loads(cli("runs", "list", "--server", "weather-mcp-server", "--json", "--db", db).stdout)["runs"]
    assert [run["title"] for run in listed if run["title"].startswith("invoke_agent")] == \
        ["invoke_agent support-agent"] * 2
    assert {run["server"] for run in listed} == {"weather-mcp-server"}
    failed = cli("runs", "list", "--server", "weather-mcp-server", "--outcome", "failed", "--json", "--db", db)
    assert failed.returncode == 0 and len(json.loads(failed.stdout)["runs"]) == 2
    agent = cli("runs", "list", "--server", "support-agent", "--db", db)
    assert agent.returncode == 2 and "no stored run names it as its server" in agent.stderr


@pytest.mark.parametrize(("language", "said"), [
    ("en", "No stored run has the status cancelled: "), ("de", "Kein gespeicherter Lauf hat den Status abgebrochen: ")])
def test_an_export_filter_matching_no_run_says_so(tmp_path: Path, language: str, said: str) -> None:
    """`export --outcome cancelled` where no run was cancelled: one sentence saying so (not "Exported
    0 runs"); the file is still written, holding no runs, as a scheduled export of none needs."""
    db = str(tmp_path / "runs.db")
    assert cli("import", str(ROOT / "tests" / "fixtures" / "otel" / "mcp_sdk.jsonl"), "--db", db).returncode == 0
    out = tmp_path / "cancelled.json"
    done = cli("export", "--outcome", "cancelled", "-o", str(out), "--lang", language, "--db", db)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(said) and str(out) in done.stdout and done.stdout.count("\n") == 1
    assert json.loads(out.read_text())["runs"] == []


def test_export_and_import_write_their_counts_as_the_language_does(tmp_path: Path, capsys) -> None:
    """"Exported 1200 runs" and "1200 Läufe aus … importiert": the counts were bare digits."""
    from inspector.cli import main
    from inspector.store import RunStore

    db = str(tmp_path / "runs.db")
    with RunStore.open(db) as store:
        for number in range(1200):
            store.finish_run(store.start_run(f"run {number}", "live", None), "ok")
    out = str(tmp_path / "many.json")
    capsys.readouterr()
    assert main(["export", "--all", "-o", out, "--db", db, "--lang", "en"]) == 0
    assert capsys.readouterr().out.startswith(f"Exported 1,200 runs to {out}.\n")
    assert main(["--lang", "de", "import", out, "--db", str(tmp_path / "other.db")]) == 0
    assert capsys.readouterr().out.startswith("1.200 Läufe aus ")
    assert main(["--lang", "de", "import", out, "--db", str(tmp_path / "other.db")]) == 0
    assert "1.200 Läufe waren schon vorhanden" in capsys.readouterr().out  # more than the report names


@pytest.mark.parametrize(("language", "again", "partly"), [
    ("en", "The runs of {path} are here already (nothing was imported): runs 1, 2, 3, 4.\n",
     "1 run was already here and was not imported again: run 1."),
    ("de", "Die Läufe aus {path} sind schon hier (nichts wurde importiert): Läufe 1, 2, 3, 4.\n",
     "1 Lauf war schon vorhanden und wurde nicht erneut importiert: Lauf 1."),
])
def test_a_trace_imported_again_names_the_runs_it_is(tmp_path: Path, language: str, again: str,
                                                      partly: str) -> None:
    """A support engineer who imports the customer's file a second time learns which runs to show (it
    said "Imported 0 runs … 0 steps were added. 4 runs were already here", and no number)."""
    path = ROOT / "tests" / "fixtures" / "otel" / "mcp_sdk.jsonl"
    db = str(tmp_path / "runs.db")
    cli("--lang", language, "import", str(path), "--db", db)
    assert cli("--lang", language, "import", str(path), "--db", db).stdout == again.format(path=path)
    # a file holding a run that is here and one that is not: the new one's number, and the old one's
    exported = tmp_path / "two.json"
    cli("export", "1", "-o", str(exported), "--db", db)
    mixed = json.loads(exported.read_text(encoding="utf-8"))
    other = json.loads(json.dumps(mixed["runs"][0]))
    other["uid"] = "another-run"
    mixed["runs"].append(other)
    exported.write_text(json.dumps(mixed), encoding="utf-8")
    said = cli("--lang", language, "import", str(exported), "--db", db).stdout
    assert partly in said and " 5" in said, said


def test_importing_the_current_folder_names_it(tmp_path: Path, capsys, monkeypatch) -> None:
    """`import .` said "Cannot import : the file: is a folder" (a folder without a name of its own)."""
    from inspector.cli import main

    monkeypatch.chdir(tmp_path)
    capsys.readouterr()
    assert main(["import", ".", "--db", str(tmp_path / "runs.db"), "--lang", "en"]) == 2
    assert capsys.readouterr().err.startswith("run-inspector: Cannot import .: it is a folder")
    assert main(["import", "/", "--db", str(tmp_path / "runs.db"), "--lang", "en"]) == 2
    assert capsys.readouterr().err.startswith("run-inspector: Cannot import /: it is a folder")


@pytest.mark.parametrize(("language", "said"), [
    ("en", "Cannot import {path}: it cannot be read (no such file or folder). Nothing was imported."),
    ("de", "{path} kann nicht importiert werden: Die Datei kann nicht gelesen werden (keine solche Datei und "
           "kein solcher Ordner). Es wurde nichts importiert."),
])
def test_a_missing_file_is_said_of_the_file_not_of_a_place_named_the_file(tmp_path: Path, capsys, language: str,
                                                                          said: str) -> None:
    """`import missing.json` said "Cannot import missing.json: the file: cannot be read (...)": "the file" read as
    a place inside it. The problem is said of the file itself, named by its path as given (the folder may be
    what is wrong); --json keeps the English."""
    from inspector.cli import main

    capsys.readouterr()
    missing = str(tmp_path / "missing.json")
    assert main(["import", missing, "--db", str(tmp_path / "runs.db"), "--lang", language]) == 2
    assert capsys.readouterr().err == f"run-inspector: {said.format(path=missing)}\n"
    assert main(["import", missing, "--db", str(tmp_path / "runs.db"), "--lang", language, "--json"]) == 2
    assert json.loads(capsys.readouterr().out)["error"]["message"] == \
        f"Cannot import {missing}: it cannot be read (no such file or folder). Nothing was imported."


@pytest.mark.parametrize(("kind", "typed", "problem"), [
    ("device", "/dev/null", "it is a device"),
    ("fifo", "./trace.fifo", "it is a named pipe"),
    ("socket", "./trace.sock", "it is a socket"),
    ("folder", "traces/", "it is a folder"),
])
def test_a_special_file_is_named_by_the_path_typed(tmp_path: Path, capsys, monkeypatch, kind: str, typed: str,
                                                   problem: str) -> None:
    """`import /dev/null` said "Cannot import null: it is a device" (and `import <(...)`, "Cannot import 63"):
    such a file is known by its path. A device, a named pipe, a socket and a folder are each named as typed,
    in English, in German and in --json, and nothing is made."""
    import socket

    from inspector.cli import main

    monkeypatch.chdir(tmp_path)
    if kind == "fifo":
        os.mkfifo(typed)
    elif kind == "folder":
        os.mkdir(typed)
    elif kind == "socket":
        listening = socket.socket(socket.AF_UNIX)
        listening.bind(typed)
    db = str(tmp_path / "runs.db")
    capsys.readouterr()
    try:
        assert main(["import", typed, "--db", db, "--lang", "en"]) == 2
        assert capsys.readouterr().err.startswith(f"run-inspector: Cannot import {typed}: {problem}, not a regular "
                                                  "file; save the trace to a file and import that.")
        assert main(["import", typed, "--db", db, "--lang", "de"]) == 2
        assert capsys.readouterr().err.startswith(f"run-inspector: {typed} kann nicht importiert werden: Die Datei ist")
        assert main(["import", typed, "--db", db, "--json"]) == 2
        assert json.loads(capsys.readouterr().out)["error"]["message"].startswith(f"Cannot import {typed}: {problem}")
    finally:
        if kind == "socket":
            listening.close()
    assert not (tmp_path / "runs.db").exists()


def test_runs_show_aligns_step_numbers_that_run_past_the_step_count(tmp_path: Path) -> None:
    """A collector that wrote the server's spans before the agent's (the mcp SDK's trace, its two
    lines the other way round): the 7 steps are numbered 7 to 13, and the # column is as wide as
    13, so each row's time starts under the heading's."""
    lines = (ROOT / "tests" / "fixtures" / "otel" / "mcp_sdk.jsonl").read_text(encoding="utf-8").splitlines()
    trace = tmp_path / "server-first.jsonl"
    trace.write_text("\n".join(reversed(lines)) + "\n", encoding="utf-8")
    db = str(tmp_path / "runs.db")
    assert cli("import", str(trace), "--db", db).returncode == 0
    listed = json.loads(cli("runs", "list", "--json", "--db", db).stdout)["runs"]
    (run_id,) = [run["id"] for run in listed if run["title"] == "invoke_agent support-agent"]
    shown = cli("runs", "show", str(run_id), "--db", db).stdout.splitlines()
    heading = next(line for line in shown if line.lstrip().startswith("#"))
    rows = [line for line in shown if line[:1] in (" ", *"0123456789") and line.strip()[:1].isdigit()
            and ":" in line[:20]]
    numbers = sorted(int(row.split()[0]) for row in rows)
    assert numbers[-1] > len(rows) == 7
    column = heading.index("Time")
    assert all(row[column - 2:column] == "  " and row[column].isdigit() for row in rows), (heading, rows)


@pytest.mark.parametrize(("language", "said"), [
    ("en", "a note may have at most 20,000 characters, this one has 20,001. Nothing was imported."),
    ("de", "eine Notiz darf höchstens 20.000 Zeichen haben, diese hat 20.001. Es wurde nichts importiert.")])
def test_a_note_too_long_in_a_file_is_refused_with_the_numbers_as_the_language_writes_them(
        tmp_path: Path, language: str, said: str) -> None:
    from inspector.store import RunStore
    from tests.support.sample_runs import mixed_run

    source = str(tmp_path / "source.db")
    with RunStore.open(Path(source)) as store:
        mixed_run(store)
    exported = tmp_path / "runs.json"
    assert cli("export", "--all", "-o", str(exported), "--db", source).returncode == 0
    document = json.loads(exported.read_text(encoding="utf-8"))
    document["runs"][0]["note"] = "x" * 20_001
    exported.write_text(json.dumps(document), encoding="utf-8")
    done = cli("--lang", language, "import", str(exported), "--db", str(tmp_path / "other.db"))
    assert done.returncode == 2 and said in done.stderr, done.stderr


def test_more_than_ten_runs_imported_again_are_named_by_the_first_and_the_last(tmp_path: Path) -> None:
    from inspector.store import RunStore

    source = str(tmp_path / "source.db")
    with RunStore.open(source) as store:
        for number in range(12):
            store.finish_run(store.start_run(f"run {number}", "live", None), "ok")
    out = str(tmp_path / "twelve.json")
    cli("export", "--all", "-o", out, "--db", source)
    db = str(tmp_path / "runs.db")
    cli("import", out, "--db", db)
    said = f"The runs of {out} are here already (nothing was imported): runs 1 … 12.\n"
    assert cli("import", out, "--db", db).stdout == said


def test_more_than_ten_runs_here_already_in_another_order_are_named_by_the_lowest_and_the_highest(
        tmp_path: Path) -> None:
    """Support got two of a customer's runs first, then all twelve: here they are runs 3, 1, 4, … in the
    file's order. The file's first and last ("runs 3 … 12") left runs 1 and 2 out of what read as a range."""
    source, db, all_runs = _twelve_runs_two_came_first(tmp_path)

    again = cli("import", all_runs, "--db", db).stdout

    assert again == f"The runs of {all_runs} are here already (nothing was imported): runs 1 … 12.\n"


def test_notes_added_to_more_than_ten_runs_name_the_lowest_and_the_highest(tmp_path: Path) -> None:
    source, db, all_runs = _twelve_runs_two_came_first(tmp_path)
    for run_id in range(1, 13):
        cli("runs", "note", str(run_id), f"note {run_id}", "--db", source)
    noted = str(tmp_path / "noted.json")
    cli("export", "--all", "-o", noted, "--db", source)

    said = cli("import", noted, "--db", db).stdout

    assert said == (f"The runs of {noted} are here already: runs 1 … 12. "
                    "12 notes of the file were added to runs 1 … 12.\n")


def _twelve_runs_two_came_first(tmp_path: Path) -> tuple[str, str, str]:
    """A source database of twelve runs; a database that imported two of them (the 2nd and the 5th), then
    all twelve; the file of all twelve."""
    from inspector.store import RunStore

    source = str(tmp_path / "source.db")
    with RunStore.open(source) as store:
        for number in range(12):
            store.finish_run(store.start_run(f"run {number}", "live", None), "ok")
    all_runs, two = str(tmp_path / "twelve.json"), str(tmp_path / "two.json")
    cli("export", "--all", "-o", all_runs, "--db", source)
    cli("export", "2", "5", "-o", two, "--db", source)
    db = str(tmp_path / "runs.db")
    cli("import", two, "--db", db)
    assert "already here and were not imported again: runs 1, 2." in cli("import", all_runs, "--db", db).stdout
    return source, db, all_runs


def test_a_strangers_file_name_cannot_colour_the_terminal_or_forge_a_line(tmp_path: Path) -> None:
    """A downloaded trace named with an escape sequence, a right-to-left override and a line break:
    `runs show` showed its name safely, but `import` printed it as it was (the terminal turned red, a
    second line began). Both the line of an import and the line of a refusal are one plain line."""
    name = "ev\x1b[31mil\u202e\nFAKE: ok.json"
    hostile = tmp_path / name
    hostile.write_text(json.dumps({"resourceSpans": [{"scopeSpans": [{"spans": [{
        "traceId": "0af7651916cd43dd8448eb211c80319c", "spanId": "b7ad6b7169203331", "name": "n",
        "startTimeUnixNano": "1", "endTimeUnixNano": "2"}]}]}]}), encoding="utf-8")
    db = str(tmp_path / "runs.db")
    shown = str(tmp_path / "ev [31mil\ufffd \u23ce FAKE: ok.json")
    for done in (cli("import", str(hostile), "--db", db), cli("import", str(hostile), "--db", db)):
        assert done.returncode == 0 and shown in done.stdout
        assert "\x1b" not in done.stdout and "\u202e" not in done.stdout and done.stdout.count("\n") == 1
    hostile.write_text("x", encoding="utf-8")
    refused = cli("import", str(hostile), "--db", str(tmp_path / "other.db"))
    assert refused.returncode == 2 and "Cannot import ev [31mil\ufffd \u23ce FAKE: ok.json: byte 0" in refused.stderr
    assert "\x1b" not in refused.stderr and "\u202e" not in refused.stderr and refused.stderr.count("\n") == 1
