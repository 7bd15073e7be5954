"""An OpenLIT client's trace that names its server (``server.address``, ``server.port`` on its ``mcp tools/call``
spans) keeps it as the run's server: OpenLIT marks no client side, and such a run was said to have a server "not
named in the trace" though its spans name it."""

from __future__ import annotations

import json
from pathlib import Path

from inspector.store import RunStore
from inspector.transfer.importing import import_trace
from tests.unit.traces.test_otel_agents import FIXTURES

AGENT_TRACE = "306be2fe4cd0a410217684e3ad000f6f"  # the agent's run of openlit.jsonl (its spans name no server)


def _with_server_address(target: Path) -> Path:
    lines = []
    for line in (FIXTURES / "openlit.jsonl").read_text(encoding="utf-8").splitlines():
        document = json.loads(line)
        for resource in document["resourceSpans"]:
            for scope in resource["scopeSpans"]:
                for span in scope["spans"]:
                    if span["name"] == "mcp tools/call" and span["traceId"] == AGENT_TRACE:
                        span["attributes"] += [{"key": "server.address", "value": {"stringValue": "weather.example"}},
                                               {"key": "server.port", "value": {"intValue": "8443"}}]
        lines.append(json.dumps(document))
    target.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return target


def _agent_run_server(store: RunStore) -> str | None:
    (run,) = [run for run in store.list_runs(limit=None) if run.title == "invoke_agent support-agent"]
    return run.server


def test_openlit_client_spans_naming_their_server_give_the_run_its_server(empty_store: RunStore,
                                                                          tmp_path: Path) -> None:
    import_trace(empty_store, _with_server_address(tmp_path / "openlit_addressed.jsonl"))
    assert _agent_run_server(empty_store) == "weather.example:8443"


def test_openlit_client_spans_naming_no_server_give_none(empty_store: RunStore) -> None:
    import_trace(empty_store, FIXTURES / "openlit.jsonl")
    assert not _agent_run_server(empty_store)  # not the agent's own service, "support-agent"
