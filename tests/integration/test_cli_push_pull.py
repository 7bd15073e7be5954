"""`export --otlp-endpoint`, `runs list --json` (the push state) and `import --from-jaeger/--from-tempo`,
run as the command line runs them (in this process), against the loopback collector and query services of
tests/support."""

from __future__ import annotations

import base64
import json
import subprocess
from pathlib import Path

from inspector.store import RunStore
from inspector.store.outbox import Outbox
from tests.support.asgi_server import ReservedPort, closed_port
from tests.support.cli_process import cli_here
from tests.support.otlp_collector import Answer, OtlpCollector, running_collector
from tests.support.sample_runs import mixed_run
from tests.support.trace_backends import as_old_tempo, fixture_trace, fixture_trace_ids, trace_backend


def _cli(*args: str, db: Path) -> subprocess.CompletedProcess[str]:
    return cli_here(*args, "--db", str(db))  # in this process: what it does and says, not its process


def _runs_listed(db: Path) -> dict[int, dict]:
    listed = _cli("runs", "list", "--json", "--all", db=db)  # a notification's trace too (a plumbing trace)
    assert listed.returncode == 0, listed.stderr
    return {run["id"]: run for run in json.loads(listed.stdout)["runs"]}


def test_export_to_a_collector_that_is_down_queues_and_a_later_push_sends_exactly_once(tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    with RunStore.open(db) as store:
        first, second = mixed_run(store, "first"), mixed_run(store, "second")
    reserved = ReservedPort()  # refused until the collector starts on it
    endpoint = f"http://127.0.0.1:{reserved.port}"
    down = _cli("export", "--otlp-endpoint", endpoint, "--all", "--wait", "0", "--json",
                "--header", "X-Api-Key: sekrit-123", db=db)
    assert down.returncode == 1, down.stderr
    said = json.loads(down.stdout)
    assert (said["queued"], said["sent"], said["waiting"]) == (2, 0, 2)
    assert "cannot reach the collector" in said["last_reason"]
    assert "sekrit-123" not in down.stdout + down.stderr
    listed = _runs_listed(db)
    assert listed[first]["push"]["state"] == "queued"
    assert listed[first]["push"]["endpoint"] == f"{endpoint}/v1/traces"
    collector = OtlpCollector(reserved.release())
    collector.start()
    try:
        up = _cli("export", "--otlp-endpoint", endpoint, "--wait", "10", "--header", "X-Api-Key: sekrit-123", db=db)
        assert up.returncode == 0, up.stderr
        assert up.stdout.startswith("Sent 2 runs to")
        again = _cli("export", "--otlp-endpoint", endpoint, "--all", "--json", db=db)
        assert json.loads(again.stdout)["sent"] == 0  # each run is sent once
    finally:
        collector.stop()
    assert len(collector.requests) == 2
    assert {headers["x-api-key"] for headers in collector.headers_seen} == {"sekrit-123"}
    listed = _runs_listed(db)
    assert {listed[run_id]["push"]["state"] for run_id in (first, second)} == {"sent"}
    with sqlite_connection(db) as conn:
        assert "sekrit" not in " ".join(str(row) for row in conn.execute("SELECT * FROM outbox"))


def test_a_password_in_the_collectors_address_is_sent_never_stored_or_printed(tmp_path: Path) -> None:
    """`--otlp-endpoint http://alice:PASSWORD@host` kept the password in the outbox (the collector's key), and
    said it in "Sent 1 run to http://alice:PASSWORD@…" and in `runs list --json`. It is sent as Basic
    authorization; the outbox keys the address without it."""
    db = tmp_path / "runs.db"
    with RunStore.open(db) as store:
        run_id = mixed_run(store)
    with running_collector() as collector:
        address = collector.endpoint.replace("http://", "http://alice:pw-4c1e9a@")
        sent = _cli("export", str(run_id), "--otlp-endpoint", address, db=db)
        again = _cli("export", "--otlp-endpoint", address, "--json", db=db)  # the same collector's queue
    assert sent.returncode == 0 and again.returncode == 0, sent.stderr + again.stderr
    assert sent.stdout.strip() == f"Sent 1 run to {collector.endpoint}/v1/traces."
    assert json.loads(again.stdout)["endpoint"] == f"{collector.endpoint}/v1/traces"
    assert collector.headers_seen[0]["authorization"] == "Basic " + base64.b64encode(b"alice:pw-4c1e9a").decode()
    listed = _runs_listed(db)[run_id]["push"]
    assert (listed["state"], listed["endpoint"]) == ("sent", f"{collector.endpoint}/v1/traces")
    stored = b"".join(path.read_bytes() for path in tmp_path.glob("runs.db*"))  # the database and its journal
    assert b"pw-4c1e9a" not in stored and "pw-4c1e9a" not in sent.stdout + sent.stderr + again.stdout


def test_a_query_in_the_collectors_address_is_sent_never_stored_or_printed(tmp_path: Path) -> None:
    """`--otlp-endpoint http://host/v1/traces?api_key=KEY` said the key in "Sent 1 run to …?api_key=KEY" and kept
    it in the outbox (the collector's key). It is sent on every request; the outbox keys the address without
    it, and what the collector says back keeps [REDACTED] in its place."""
    db = tmp_path / "runs.db"
    with RunStore.open(db) as store:
        sent_id, refused_id = mixed_run(store, "sent"), mixed_run(store, "refused")
    with running_collector() as collector:
        address = f"{collector.endpoint}/v1/traces?api_key=key-5d0c7e21b9"
        sent = _cli("export", str(sent_id), "--otlp-endpoint", address, db=db)
        collector.answers = [Answer(403, body=b'{"message": "api_key=key-5d0c7e21b9 is revoked"}')]
        refused = _cli("export", str(refused_id), "--otlp-endpoint", address, "--json", db=db)
    assert sent.returncode == 0, sent.stderr
    assert sent.stdout.strip() == f"Sent 1 run to {collector.endpoint}/v1/traces."
    assert collector.paths_seen == ["/v1/traces?api_key=key-5d0c7e21b9"]
    assert refused.returncode == 1 and json.loads(refused.stdout)["endpoint"] == f"{collector.endpoint}/v1/traces"
    listed = _runs_listed(db)
    assert (listed[sent_id]["push"]["state"], listed[sent_id]["push"]["endpoint"]) == (
        "sent", f"{collector.endpoint}/v1/traces")
    assert listed[refused_id]["push"]["reason"] == 'HTTP 403 Forbidden: {"message": "[REDACTED] is revoked"}'
    stored = b"".join(path.read_bytes() for path in tmp_path.glob("runs.db*"))  # the database and its journal
    assert b"key-5d0c7e21b9" not in stored
    assert "key-5d0c7e21b9" not in sent.stdout + sent.stderr + refused.stdout + refused.stderr


def test_runs_queued_under_an_address_with_its_query_are_sent_and_the_key_leaves_the_database(
        tmp_path: Path) -> None:
    """Runs an earlier version queued under `…/v1/traces?api_key=KEY` (the key in the outbox) were never sent
    again once the outbox keyed the address without it: the next push to that address takes them over."""
    db = tmp_path / "runs.db"
    with RunStore.open(db) as store:
        waiting, twice = mixed_run(store, "waiting"), mixed_run(store, "twice")
    with running_collector() as collector:
        address = f"{collector.endpoint}/v1/traces?api_key=key-77b1e0a4c3"
        with RunStore.open(db) as store:
            Outbox(store.db.conn).enqueue([waiting, twice], address)  # as an earlier version kept them
            Outbox(store.db.conn).enqueue([twice], f"{collector.endpoint}/v1/traces")
        pushed = _cli("export", "--otlp-endpoint", address, "--json", db=db)
    assert pushed.returncode == 0, pushed.stderr
    assert json.loads(pushed.stdout)["sent"] == 2 and len(collector.requests) == 2  # each run once
    with sqlite_connection(db) as conn:
        rows = conn.execute("SELECT run_id, endpoint, state FROM outbox ORDER BY run_id").fetchall()
    assert rows == [(waiting, f"{collector.endpoint}/v1/traces", "sent"),
                    (twice, f"{collector.endpoint}/v1/traces", "sent")]


def test_a_refused_run_says_why_in_runs_list(tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    with RunStore.open(db) as store:
        run_id = mixed_run(store)
    with running_collector() as collector:
        collector.answers = [Answer(413, body=b'{"message": "too large"}')]
        refused = _cli("export", str(run_id), "--otlp-endpoint", collector.endpoint + "/v1/traces", "--json", db=db)
    assert refused.returncode == 1
    assert json.loads(refused.stdout)["runs"] == [
        {"id": run_id, "state": "failed", "reason": 'HTTP 413 Request Entity Too Large: {"message": "too large"}'}]
    assert _runs_listed(db)[run_id]["push"]["state"] == "failed"


def test_export_refuses_a_bad_endpoint_and_a_bad_header_without_echoing_it(tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    bad = _cli("export", "--all", "--otlp-endpoint", "ftp://collector", db=db)
    assert bad.returncode == 2 and "--otlp-endpoint needs" in bad.stderr
    header = _cli("export", "--all", "--otlp-endpoint", "http://127.0.0.1:1", "--header", "Bearer topsecret", db=db)
    assert header.returncode == 2 and "topsecret" not in header.stderr
    both = _cli("export", "--all", "--otlp-endpoint", "http://127.0.0.1:1", "-o", "x.json", db=db)
    assert both.returncode == 2 and "not both" in both.stderr


def test_export_refuses_a_collector_address_it_cannot_read(tmp_path: Path) -> None:
    # An unclosed "[" of an IPv6 host, a port that is no number or out of range: Python's ValueError ended the
    # command as an internal error with a traceback (or queued the runs for an address no request can reach).
    db = tmp_path / "runs.db"
    with RunStore.open(db) as store:
        mixed_run(store)
    for endpoint in ("http://[::1/v1/traces", "http://127.0.0.1:bad", "http://bob:pw-7f3a@[::1]:x", "http://h:99999"):
        refused = _cli("export", "--all", "--otlp-endpoint", endpoint, "--json", db=db)
        assert refused.returncode == 2, (endpoint, refused.stderr)
        assert json.loads(refused.stdout)["error"]["kind"] == "usage"
        assert "--otlp-endpoint needs" in refused.stderr and "Traceback" not in refused.stderr
        assert "pw-7f3a" not in refused.stdout + refused.stderr
    with RunStore.open(db) as store:
        assert store.db.conn.execute("SELECT COUNT(*) FROM outbox").fetchone()[0] == 0

def test_import_refuses_a_query_address_whose_port_cannot_be_read(tmp_path: Path) -> None:
    # httpx refused the port as the request was made: an internal error (InvalidURL) with a traceback.
    db = tmp_path / "runs.db"
    for option in ("--from-jaeger", "--from-tempo"):
        for address in ("http://127.0.0.1:bad/api", "http://bob:pw-7f3a@127.0.0.1:99999"):
            refused = _cli("import", option, address, "--trace", "4bf92f3577b34da6a3ce929d0e0e4736", "--json", db=db)
            assert refused.returncode == 2, (address, refused.stderr)
            assert json.loads(refused.stdout)["error"]["kind"] == "bad_input"
            assert "is not a query address" in refused.stderr and "pw-7f3a" not in refused.stdout + refused.stderr

def test_import_from_jaeger_and_tempo_by_trace_id_cached(tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    jaeger_trace, tempo_trace = fixture_trace_ids()[:2]
    with trace_backend() as jaeger, trace_backend() as tempo:
        jaeger.serve_json(f"/api/v3/traces/{jaeger_trace}", {"result": fixture_trace(jaeger_trace)})
        tempo.serve_json(f"/api/traces/{tempo_trace}", as_old_tempo(fixture_trace(tempo_trace)))
        first = _cli("import", "--from-jaeger", jaeger.base, "--trace", jaeger_trace, "--json", db=db)
        assert first.returncode == 0, first.stderr
        opened = json.loads(first.stdout)
        assert opened["cached"] is False and opened["runs_imported"] >= 1
        second = _cli("import", "--from-jaeger", jaeger.base, "--trace", jaeger_trace, db=db)
        assert second.returncode == 0 and "not asked again" in second.stdout
        assert jaeger.hits == {f"/api/v3/traces/{jaeger_trace}": 1}
        from_tempo = _cli("import", "--from-tempo", tempo.base, "--trace", tempo_trace, "--json", db=db)
        assert json.loads(from_tempo.stdout)["runs_imported"] >= 1
        missing = _cli("import", "--from-tempo", tempo.base, "--trace", "abc", "--json", db=db)
        assert missing.returncode == 2 and "There is no trace" in json.loads(missing.stdout)["error"]["message"]
    assert set(_runs_listed(db)) == set(opened["run_ids"]) | set(json.loads(from_tempo.stdout)["run_ids"])
    no_id = _cli("import", "--from-jaeger", "http://127.0.0.1:1", db=db)
    assert no_id.returncode == 2 and "--trace" in no_id.stderr


def sqlite_connection(path: Path):  # type: ignore[no-untyped-def]
    import sqlite3
    from contextlib import closing

    return closing(sqlite3.connect(path))


def test_a_push_that_cannot_reach_the_collector_says_why_in_german(tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    with RunStore.open(db) as store:
        mixed_run(store, "first")
    down = _cli("export", "--otlp-endpoint", f"http://127.0.0.1:{closed_port()}", "--all", "--wait", "0",
                "--lang", "de", db=db)
    assert down.returncode == 1, down.stderr
    assert "der Collector ist nicht erreichbar: die Verbindung wurde abgewiesen" in down.stdout, down.stdout
    assert "cannot reach" not in down.stdout
    # The outbox keeps the English, which --json says.
    assert _runs_listed(db)[1]["push"]["reason"].startswith("cannot reach the collector: the connection was refused")
