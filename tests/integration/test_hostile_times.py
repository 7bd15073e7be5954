"""Times at the edges of what a datetime holds: stored in one fixed width, refused when the
store cannot hold them, and never able to take `runs list`, `runs show` or `export` down."""

from __future__ import annotations

import json
import sqlite3
import subprocess
from datetime import datetime, timezone
from pathlib import Path

import pytest

from inspector.runs.times import UnstorableTimeError, from_stored_time, normal_stored_time, to_stored_time
from inspector.store import RunStore
from tests.support.cli_process import cli_here

STEP = {"sequence": 1, "started_at": "0001-01-01T00:00:00Z",
        "payload": {"kind": "llm", "round": 0, "durationMs": 1.0, "content": "old"}}


def cli(*args: str, tz: str = "UTC") -> subprocess.CompletedProcess[str]:
    """The command line in the time zone ``tz`` (what it prints and stores, not its process: in this one)."""
    return cli_here(*args, env={"TZ": tz})


def trace(path: Path, started_at: str, finished_at: str | None = None) -> Path:
    run = {"uid": "edge", "title": "edge of time", "source": "live", "server": None, "status": "ok",
           "started_at": started_at, "finished_at": finished_at, "steps": [STEP]}
    path.write_text(json.dumps({"format": "run-inspector-trace", "version": 1, "runs": [run]}))
    return path


def test_years_before_1000_are_stored_with_four_digits() -> None:
    assert to_stored_time(datetime(1, 1, 1, tzinfo=timezone.utc)) == "0001-01-01T00:00:00.000000Z"
    assert to_stored_time(datetime(999, 12, 31, 23, 59, 59, 5, tzinfo=timezone.utc)) == "0999-12-31T23:59:59.000005Z"
    assert to_stored_time(datetime(9999, 12, 31, 23, 59, 59, 999999, tzinfo=timezone.utc)) == \
        "9999-12-31T23:59:59.999999Z"
    assert from_stored_time("0001-01-01T00:00:00.000000Z") == datetime(1, 1, 1, tzinfo=timezone.utc)


@pytest.mark.parametrize("text", [
    "2026-12-02T13:34:54.275289Z", "0001-01-01T00:00:00.000000Z", "9999-12-31T23:59:59.999999Z",
    "0000-01-01T00:00:00.000000Z", "2026-13-01T00:00:00.000000Z", "2026-02-30T00:00:00.000000Z",
    "2026-12-31T23:59:60.000000Z", "2026-W49-3T13:34:54.275289Z", "2026-12-02T13:34:54Z", "999-01-01T00:00:00Z",
    "2026-12-02T13:34:54.2752Z", "2026-12-02T13:34:54.275289+01:00", "٢٠٢٦-12-02T13:34:54.275289Z", "", None,
    "2026-12-02 13:34:54.275289Z", "2026-12-02T13:34:54.275289z"])
def test_the_quick_normal_form_of_a_stored_time_is_the_round_trip(text: str | None) -> None:
    """An importer keeps a run's times as they are when they are in the stored form: exactly what
    reading them and writing them again would give, for the odd ones too."""
    assert normal_stored_time(text) == to_stored_time(from_stored_time(text))


def test_a_time_the_store_cannot_hold_is_refused_in_a_sentence() -> None:
    from datetime import timedelta
    with pytest.raises(UnstorableTimeError, match="years 1 to 9999"):
        to_stored_time(datetime(1, 1, 1, tzinfo=timezone(timedelta(hours=14))))


@pytest.mark.parametrize("tz", ["UTC", "America/New_York", "Pacific/Kiritimati"])
def test_a_run_from_year_one_imports_and_every_reader_still_works(tmp_path: Path, tz: str) -> None:
    db = str(tmp_path / "runs.db")
    done = cli("import", str(trace(tmp_path / "old.json", "0001-01-01T00:00:00Z", "9999-12-31T23:59:59Z")),
               "--db", db, tz=tz)
    assert done.returncode == 0, done.stderr
    stored = sqlite3.connect(db).execute("SELECT started_at, finished_at FROM runs").fetchone()
    assert stored == ("0001-01-01T00:00:00.000000Z", "9999-12-31T23:59:59.000000Z")
    assert sqlite3.connect(db).execute("SELECT started_at FROM steps").fetchone()[0] == "0001-01-01T00:00:00.000000Z"
    for args in (["runs", "list"], ["runs", "list", "--json"], ["runs", "show", "1"], ["runs", "show", "1", "--json"]):
        shown = cli(*args, "--db", db, tz=tz)
        assert shown.returncode == 0 and "Traceback" not in shown.stderr, (args, shown.stderr)
        # --json keeps the stored UTC; the readable output writes the year in the locale's date.
        assert any(year_one in shown.stdout for year_one in ("0001-01-0", "Jan 1, 0001", "Jan 2, 0001")), shown.stdout
    for file_format in ("trace", "otlp"):
        out = tmp_path / f"again.{file_format}.json"
        exported = cli("export", "--all", "-o", str(out), "--format", file_format, "--db", db, tz=tz)
        assert exported.returncode == 0, exported.stderr
        copy = str(tmp_path / f"copy-{file_format}.db")
        again = cli("import", str(out), "--json", "--db", copy)
        assert again.returncode == 0, again.stderr  # what we export, we read back, to the microsecond
        assert sqlite3.connect(copy).execute("SELECT started_at, finished_at FROM runs").fetchone() == stored
        if file_format == "otlp":  # OTLP times are unsigned nanoseconds: clamped there, exact in our attributes
            from google.protobuf import json_format
            from opentelemetry.proto.trace.v1.trace_pb2 import TracesData

            json_format.Parse(out.read_text(), TracesData())


def test_a_time_at_the_edge_with_an_offset_is_refused_naming_the_place(tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    RunStore.open(db).close()
    before = db.read_bytes()
    done = cli("import", str(trace(tmp_path / "edge.json", "0001-01-01T00:00:00+14:00")), "--db", str(db))
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert "runs[0].started_at" in done.stderr and "years 1 to 9999" in done.stderr
    assert db.read_bytes() == before


@pytest.mark.parametrize("bad", ["1-01-01T00:00:00.000000Z", "garbage", "2026-13-45T99:00:00.000000Z", ""])
def test_one_bad_row_written_straight_into_sqlite_never_takes_a_list_down(tmp_path: Path, bad: str) -> None:
    db = str(tmp_path / "runs.db")
    with RunStore.open(db) as store:
        good = store.start_run("good run", "live", None)
        store.finish_run(good, "ok")
        damaged = store.start_run("damaged run", "live", None)
        store.finish_run(damaged, "ok")
    with sqlite3.connect(db) as conn:  # what an older version (or a hand edit) left behind
        conn.execute("UPDATE runs SET started_at = ?, finished_at = ? WHERE id = ?", (bad, bad, damaged))
    listed = cli("runs", "list", "--db", db)
    assert listed.returncode == 0, listed.stderr
    assert "good run" in listed.stdout and "damaged run" in listed.stdout
    as_json = json.loads(cli("runs", "list", "--json", "--db", db).stdout)
    assert {run["title"] for run in as_json["runs"]} == {"good run", "damaged run"}
    shown = cli("runs", "show", str(damaged), "--db", db)
    assert shown.returncode == 0, shown.stderr
    exported = cli("export", "--all", "-o", str(tmp_path / "all.json"), "--db", db)
    assert exported.returncode == 0, exported.stderr


@pytest.mark.parametrize("payload", ["not json", "[1, 2]", '{"kind": "teleport", "round": 0, "durationMs": 1}',
                                     "[" * 5000 + "]" * 5000])
def test_one_damaged_step_row_never_takes_a_timeline_down(tmp_path: Path, payload: str) -> None:
    from inspector.runs import RunStep

    db = str(tmp_path / "runs.db")
    with RunStore.open(db) as store:
        run = store.start_run("run with a damaged step", "live", None)
        for n in range(3):
            store.append_step(run, RunStep(kind="llm", round=n, duration_ms=1.0, content=f"turn {n}"))
        store.finish_run(run, "ok")
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE steps SET payload = ? WHERE sequence = 2", (payload,))
    shown = cli("runs", "show", str(run), "--db", db)
    assert shown.returncode == 0, shown.stderr
    assert "turn 0" in shown.stdout and "turn 2" in shown.stdout and "damaged in the database" in shown.stdout
    as_json = cli("runs", "show", str(run), "--json", "--db", db)
    assert as_json.returncode == 0 and len(json.loads(as_json.stdout)["timeline"]) == 3
    exported = cli("export", "--all", "-o", str(tmp_path / "all.json"), "--db", db)
    assert exported.returncode == 1 and "Traceback" not in exported.stderr
    assert "Step 2 of run 1 is damaged" in exported.stderr and exported.stderr.count("\n") == 1
    assert not (tmp_path / "all.json").exists()
    assert cli("runs", "list", "--db", db).returncode == 0


def _set_back_trace(path: Path) -> Path:
    """A run across the hour Berlin's clock is set back (01:00 UTC on 2026-10-25): one step before it,
    one after, both at a wall time Berlin has twice."""
    steps = [{"sequence": number, "started_at": started,
              "payload": {"kind": "llm", "round": 0, "durationMs": 999.6, "content": "step"}}
             for number, started in ((1, "2026-10-25T00:59:59Z"), (2, "2026-10-25T01:00:00.5Z"))]
    run = {"uid": "set-back", "title": "across the set-back", "source": "live", "server": None, "status": "ok",
           "started_at": "2026-10-25T00:59:59Z", "finished_at": "2026-10-25T01:00:01.5Z", "steps": steps}
    path.write_text(json.dumps({"format": "run-inspector-trace", "version": 1, "runs": [run]}))
    return path


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_run_across_a_clock_set_back_says_which_of_the_twice_hour_it_means(tmp_path: Path, language: str) -> None:
    """In Berlin 00:59:59 and 01:00:00.5 UTC read "2:59:59" and "2:00:00": without the zone the
    later step reads as the earlier, so both say it, in columns that still line up."""
    db = str(tmp_path / "runs.db")
    assert cli("import", str(_set_back_trace(tmp_path / "set-back.json")), "--db", db).returncode == 0
    shown = cli("--lang", language, "runs", "show", "1", "--db", db, tz="Europe/Berlin")
    assert shown.returncode == 0, shown.stderr
    lines = shown.stdout.splitlines()
    german = language == "de"
    assert ("gestartet 25.10.2026, 02:59:59 (UTC+2), beendet 25.10.2026, 02:00:01 (UTC+1)" if german
            else "started Oct 25, 2026, 2:59:59 AM (UTC+2), finished Oct 25, 2026, 2:00:01 AM (UTC+1)") in next(
        line for line in lines if line.lstrip().startswith(("started", "gestartet")))
    heading = next(line for line in lines if line.startswith("#  "))
    rows = [line for line in lines if line[:3] in ("1  ", "2  ")]
    # A step's time as the window's timeline says it: the time of day to the millisecond.
    assert [row.split("  ")[1] for row in rows] == (
        ["02:59:59,000 (UTC+2)", "02:00:00,500 (UTC+1)"] if german
        else ["2:59:59.000 AM (UTC+2)", "2:00:00.500 AM (UTC+1)"])
    source = heading.index("Quelle" if german else "Source")
    assert all(row[source - 2:source] == "  " and row[source] != " " for row in rows), shown.stdout
    listed = cli("--lang", language, "runs", "list", "--db", db, tz="Europe/Berlin")
    head, row = listed.stdout.splitlines()[:2]
    assert "(UTC+2)" in row
    status = head.index("Status")
    assert row[status - 2:status] == "  " and row[status] != " ", listed.stdout
    # Elsewhere the same instants have one wall time each: no zone is said beside them, only once under
    # the heading, whose time they are.
    assert [line for line in cli("runs", "show", "1", "--db", db, tz="Asia/Kathmandu").stdout.splitlines()
            if "(UTC" in line] == ["  times in this computer's time zone (UTC+5:45); the run started Oct 25, 2026, "
                                   "12:59:59 AM UTC"]


@pytest.mark.parametrize("tz", ["Europe/Berlin", "Asia/Kathmandu"])
def test_a_time_past_the_zones_calendar_is_said_in_utc_and_marked(tmp_path: Path, tz: str) -> None:
    """9999-12-31 23:59:59 UTC is in year 10000 east of Greenwich: said in UTC, and saying so."""
    db = str(tmp_path / "runs.db")
    assert cli("import", str(trace(tmp_path / "late.json", "9999-12-31T23:59:58Z", "9999-12-31T23:59:59Z")),
               "--db", db).returncode == 0
    shown = cli("--lang", "de", "runs", "show", "1", "--db", db, tz=tz).stdout
    assert "gestartet 31.12.9999, 23:59:58 (UTC), beendet 31.12.9999, 23:59:59 (UTC)" in shown
    assert "31.12.9999, 23:59:58 (UTC)" in cli("--lang", "de", "runs", "list", "--db", db, tz=tz).stdout


@pytest.mark.parametrize("language", ["en", "de"])
def test_an_unfinished_run_past_the_zones_calendar_keeps_its_columns(tmp_path: Path, language: str) -> None:
    """A run with no end (interrupted) at 9999-12-31 has its step's time said in UTC, marked: its
    column is as wide as that, not as a time without a mark (its row was pushed past the headings)."""
    db = str(tmp_path / "runs.db")
    path = trace(tmp_path / "late.json", "9999-12-31T23:59:58Z")
    document = json.loads(path.read_text())
    document["runs"][0]["steps"][0]["started_at"] = "9999-12-31T23:59:58.5Z"
    path.write_text(json.dumps(document))
    assert cli("import", str(path), "--db", db).returncode == 0
    lines = cli("--lang", language, "runs", "show", "1", "--db", db, tz="Europe/Berlin").stdout.splitlines()
    heading = next(line for line in lines if line.startswith("#  "))
    row = next(line for line in lines if line.startswith("1  "))
    assert "(UTC)" in row.split("  ")[1]
    source = heading.index("Quelle" if language == "de" else "Source")
    assert row[source - 2:source] == "  " and row[source] != " ", "\n".join(lines)


@pytest.mark.parametrize("lasted_ns", [1, 4_000])
def test_a_span_of_a_few_nanoseconds_or_microseconds_never_reads_as_no_time(tmp_path: Path, lasted_ns: int) -> None:
    """An imported span's length was kept to the hundredth of a millisecond: one of 1 ns or 4 µs was
    stored as 0 and read "0 s" (one of 6 µs read "< 0.001 s"), in `runs show` and the window alike."""
    start = 1_700_000_000_000_000_000
    span = {"traceId": "5b8efff798038103d269b633813fc60c", "spanId": "eee19b7ec3c1b174", "name": "tiny", "kind": 1,
            "startTimeUnixNano": str(start), "endTimeUnixNano": str(start + lasted_ns),
            "attributes": [{"key": "gen_ai.tool.name", "value": {"stringValue": "tiny"}}]}
    path = tmp_path / "tiny.json"
    path.write_text(json.dumps({"resourceSpans": [{"scopeSpans": [{"spans": [span]}]}]}))
    db = str(tmp_path / "runs.db")
    assert cli("import", str(path), "--db", db).returncode == 0
    for language, said in (("en", "< 0.001 s"), ("de", "< 0,001 s")):
        row = next(line for line in cli("--lang", language, "runs", "show", "1", "--db", db).stdout.splitlines()
                   if line.startswith("1  "))
        assert said in row and " 0 s " not in row, row
    with RunStore.open(Path(db)) as store:
        step, = store.iter_steps(1)
    assert step.payload["durationMs"] == lasted_ns / 1_000_000


def test_a_servers_last_contact_in_the_hour_set_back_says_its_zone_in_its_column(tmp_path: Path) -> None:
    """`servers` lists each server's last contact: one in the hour Berlin has twice says which, and
    the columns after it still line up."""
    from inspector.store import ServerRegistry

    db = tmp_path / "runs.db"
    with RunStore.open(db) as store:
        registry = ServerRegistry(store.db)
        for url, at in (("http://127.0.0.1:1/mcp", datetime(2026, 10, 25, 1, 0, 1, tzinfo=timezone.utc)),
                        ("http://127.0.0.1:2/mcp", datetime(2026, 7, 1, 12, tzinfo=timezone.utc))):
            registry.save_server(url)
            registry.record_operation(url, "ok", 12.5, at)
    listed = cli("--lang", "de", "servers", "--db", str(db), tz="Europe/Berlin")
    assert listed.returncode == 0, listed.stderr
    head, *rows = [line for line in listed.stdout.splitlines() if not line.startswith("    ")]
    assert "25.10.2026, 02:00:01 (UTC+1)" in rows[0] and "01.07.2026, 14:00:00 " in rows[1]
    latency = head.index("Latenz") + len("Latenz")
    assert [row[latency - 6:latency] for row in rows] == [",012 s"] * 2, listed.stdout
