"""A server address written without its scheme (``server.address = "u:pw@h"``, ``u:pw@h:8080/mcp``) in an imported
trace's span attributes: both export formats kept the password (an address with ``http://`` lost it), and the run's
server kept ``u:pw@h`` whole, as a service's name (``svc:v2@prod``) is kept. Now the password is hidden as for
``scheme://`` addresses; an e-mail address (``bob@example.org``), ``host:port`` and ``host:8080/a@b`` (a port, then a
path) stay as they are. A real OTLP JSON file, imported and exported by the real command line into a real SQLite
file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.cli_process import cli_here

#: (server.address, what an export keeps of it, what the run keeps as its server)
ADDRESSES = [
    ("u:pw@h", "[REDACTED]@h", "h"),
    ("u:pw@h:8080/mcp", "[REDACTED]@h:8080/mcp", "h:8080/mcp"),
    ("u:pw@x@h.example", "[REDACTED]@h.example", "h.example"),  # a password holding "@"
    ("u:p/w@h:9/mcp", "[REDACTED]@h:9/mcp", "h:9/mcp"),  # a password typed with "/"
    ("u:p@c/ret@h/mcp", "[REDACTED]@h/mcp", "h/mcp"),  # "p@c/ret": c may be a piece of it
    ("bob@example.org", "bob@example.org", "bob@example.org"),
    ("h:8080", "h:8080", "h:8080"),
    ("h:8080/a@b", "h:8080/a@b", "h:8080/a@b"),
]


def _attribute(key: str, value: str) -> dict:
    return {"key": key, "value": {"stringValue": value}}


def _trace(number: int, address: str) -> dict:
    """An MCP client's call of a tool, naming its server by ``address`` only (no server side, no port)."""
    span = {"traceId": f"{number + 1:032x}", "spanId": f"{number + 1:016x}", "name": "tools/call echo", "kind": 3,
            "startTimeUnixNano": "1700000000000000000", "endTimeUnixNano": "1700000001000000000", "status": {},
            "attributes": [_attribute("mcp.method.name", "tools/call"), _attribute("gen_ai.tool.name", "echo"),
                           _attribute("server.address", address)]}
    return {"resourceSpans": [{"resource": {"attributes": [_attribute("service.name", "agent")]},
                               "scopeSpans": [{"scope": {"name": "agent"}, "spans": [span]}]}]}


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """The database the traces were imported into, and each run's server by its ``server.address``."""
    folder = tmp_path_factory.mktemp("typed")
    traces = folder / "traces.jsonl"
    traces.write_text("".join(json.dumps(_trace(number, address)) + "\n"
                              for number, (address, _, _) in enumerate(ADDRESSES)), encoding="utf-8")
    db = folder / "runs.db"
    done = cli_here("--db", str(db), "import", str(traces))
    assert done.returncode == 0, done.stderr
    runs = json.loads(cli_here("--db", str(db), "runs", "list", "--json").stdout)["runs"]
    by_trace = {int(run["uid"].removeprefix("otlp-"), 16) - 1: run["server"] for run in runs}
    return db, {address: by_trace[number] for number, (address, _, _) in enumerate(ADDRESSES)}


def test_the_run_keeps_the_host_without_the_password(imported) -> None:
    _, servers = imported
    assert servers == {address: server for address, _, server in ADDRESSES}


@pytest.mark.parametrize("form", ["trace", "otlp"])
def test_an_export_hides_the_password_of_an_address_without_its_scheme(imported, tmp_path: Path, form: str) -> None:
    db, _ = imported
    out = tmp_path / f"out.{form}.json"
    done = cli_here("--db", str(db), "export", "--all", "--format", form, "-o", str(out))
    assert done.returncode == 0, done.stderr
    text = out.read_text(encoding="utf-8")
    found: list[str] = []
    _gather_addresses(json.loads(text), found)
    assert sorted(found) == sorted(exported for _, exported, _ in ADDRESSES)
    assert "pw" not in text and "p/w" not in text and "ret@" not in text and "x@h" not in text


def _gather_addresses(value: object, found: list[str]) -> None:
    """Every ``server.address`` a file holds: an object's key (our format), or an OTLP attribute's."""
    if isinstance(value, dict):
        if isinstance(value.get("server.address"), str):
            found.append(value["server.address"])
        if value.get("key") == "server.address":
            found.append(value["value"]["stringValue"])
        for child in value.values():
            _gather_addresses(child, found)
    elif isinstance(value, list):
        for child in value:
            _gather_addresses(child, found)
