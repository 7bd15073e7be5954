"""`import --from-jaeger` / `--from-tempo` say how many of the runs they brought are plumbing traces, as a file's
`import` does (`--json`: `plumbing_traces`). They are marked as a file's are (the same OTLP import) and `runs list`
left them out, but the pull said only "Opened trace …: 1 run imported. Runs: 2." of OpenLIT's `mcp session/init`,
a run the list then did not list. Real query services on 127.0.0.1 serving the OTLP JSON of openlit_mcp2.jsonl
(OpenLIT on `mcp` 2.x: the agent's trace, nine `mcp session/init` traces, the SDK's notifications' traces), the real
importer, a real database, the real command line."""

from __future__ import annotations

import json
from pathlib import Path

from tests.support.cli_process import cli_here
from tests.support.trace_backends import as_old_tempo, fixture_trace, fixture_trace_ids, trace_backend

OPENLIT = Path(__file__).resolve().parents[1] / "fixtures" / "otel" / "openlit_mcp2.jsonl"
SAID = ("The run is a plumbing trace (a session's plumbing alone): `runs list` leaves it out, `runs list --all` "
        "lists it.")


def _trace_named(name: str) -> str:
    """The first trace of the file whose spans include one named ``name``."""
    for trace_id in fixture_trace_ids(OPENLIT):
        document = fixture_trace(trace_id, OPENLIT)
        if any(span["name"] == name for item in document["resourceSpans"] for scope in item["scopeSpans"]
               for span in scope["spans"]):
            return trace_id
    raise AssertionError(f"no trace with a span {name!r} in {OPENLIT.name}")


def test_a_pulled_plumbing_trace_is_counted_and_said_as_a_files_import_says_it(tmp_path: Path) -> None:
    db = str(tmp_path / "runs.db")
    agent, session, notification = (_trace_named(name) for name in ("invoke_agent support-agent", "mcp session/init",
                                                                     "notifications/cancelled"))
    with trace_backend() as jaeger, trace_backend() as tempo:
        for trace_id in (agent, session):
            jaeger.serve_json(f"/api/v3/traces/{trace_id}", {"result": fixture_trace(trace_id, OPENLIT)})
        tempo.serve_json(f"/api/traces/{notification}", as_old_tempo(fixture_trace(notification, OPENLIT)))
        the_agent = cli_here("--db", db, "import", "--from-jaeger", jaeger.base, "--trace", agent)
        the_session = cli_here("--db", db, "import", "--from-jaeger", jaeger.base, "--trace", session)
        as_json = cli_here("--db", db, "import", "--from-tempo", tempo.base, "--trace", notification, "--json")
        again = cli_here("--db", db, "import", "--from-tempo", tempo.base, "--trace", notification, "--json")
    assert the_agent.returncode == the_session.returncode == as_json.returncode == 0, as_json.stderr
    assert the_agent.stdout.strip() == f"Opened trace {agent}: 1 run imported. Runs: 1.", the_agent.stdout
    assert the_session.stdout.strip() == f"Opened trace {session}: 1 run imported. Runs: 2. {SAID}", the_session.stdout
    pulled = json.loads(as_json.stdout)
    assert (pulled["run_ids"], pulled["plumbing_traces"]) == ([3], 1)
    # Opened again from the kept copy: nothing new, none counted (as a file imported again).
    assert (json.loads(again.stdout)["run_ids"], json.loads(again.stdout)["plumbing_traces"]) == ([3], 0)
    listed = cli_here("--db", db, "runs", "list").stdout.splitlines()
    assert len(listed) == 3 and "invoke_agent support-agent" in listed[1], listed
    assert listed[2].startswith("Not listed: 2 plumbing traces ("), listed
