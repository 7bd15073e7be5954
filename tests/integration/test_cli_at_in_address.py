"""An "@" in an address's path is no end of its password: ``call`` and ``ping`` of
``http://bob:pw@127.0.0.1:PORT/users/me@example.org/mcp`` go to 127.0.0.1:PORT with that path and ``Basic bob:pw``
(RFC 3986: user info ends at the last "@" before the first "/"); they were refused, naming example.org. An address
that names two servers (``bob:se@127.0.0.1:P/ret@localhost:P/mcp``: its password may be ``se@127.0.0.1:P/ret``)
is refused naming both, and nothing is sent. An imported run's server keeps the host RFC 3986 reads
(``http://u:p@h/x@y`` was kept as ``http://y``) and a service's name ``svc:v2@prod`` whole (was ``prod``). A real
server on 127.0.0.1 that records the Authorization header and the path of each request; a real SQLite file."""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from inspector.store import RunStore
from tests.support.asgi_server import serve_asgi
from tests.support.cli_process import cli_here
from tests.support.otlp_collector import running_collector
from tests.support.sample_runs import mixed_run
from tests.support.sdk_server import build_sdk_server
from tests.support.stranger_servers import import_servers


class Recorder:
    """ASGI middleware: records each request's ``Authorization`` value and path, then serves it as ``/mcp``."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.seen: list[tuple[str | None, str]] = []

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            got = dict(scope["headers"]).get(b"authorization")
            self.seen.append((got.decode("latin-1") if got is not None else None, scope["raw_path"].decode()))
            scope = {**scope, "path": "/mcp", "raw_path": b"/mcp"}
        await self.app(scope, receive, send)


@pytest.fixture()
def served() -> Iterator[tuple[str, Recorder]]:
    """The server's host and port, and what it recorded."""
    recorder = Recorder(build_sdk_server().streamable_http_app())
    with serve_asgi(recorder) as url:
        yield url.removeprefix("http://").removesuffix("/mcp"), recorder


def basic(pair: str) -> str:
    return "Basic " + base64.b64encode(pair.encode()).decode()


@pytest.mark.parametrize("operation", [["call", "{url}", "echo", "--args", '{"text": "hi"}'], ["ping", "{url}"]])
def test_an_at_in_the_path_is_sent_to_the_host_before_it(served, tmp_path: Path, operation: list[str]) -> None:
    where, recorder = served
    url = f"http://bob:pw@{where}/users/me@example.org/mcp"
    typed = [url if word == "{url}" else word for word in operation]
    done = cli_here("--db", str(tmp_path / "runs.db"), *typed, "--json")
    assert done.returncode == 0, done.stderr
    assert recorder.seen and set(recorder.seen) == {(basic("bob:pw"), "/users/me@example.org/mcp")}
    listed = json.loads(cli_here("--db", str(tmp_path / "runs.db"), "runs", "list", "--json").stdout)["runs"]
    assert [run["server"] for run in listed] == [f"http://{where}/users/me@example.org/mcp"]
    assert "pw" not in done.stdout + done.stderr


@pytest.mark.parametrize("lang", ["en", "de"])
def test_an_address_naming_two_servers_is_refused_naming_both_and_nothing_is_sent(served, tmp_path: Path,
                                                                                  lang: str) -> None:
    where, recorder = served
    port = where.rpartition(":")[2]
    url = f"http://bob:se@{where}/ret@localhost:{port}/mcp"
    for operation in (["call", url, "echo", "--args", '{"text": "hi"}'], ["ping", url]):
        refused = cli_here("--lang", lang, "--db", str(tmp_path / "runs.db"), *operation)
        assert refused.returncode == 2, refused.stderr
        said = " ".join(refused.stderr.split())
        assert f": {where} or localhost:{port}" in said.replace(",", "").replace("oder", "or"), said
        assert "%40" in said and "%2F" in said, said
        assert "se@" not in said and "ret" not in said, said
    assert recorder.seen == []
    # Written as the sentence asks, the password is sent whole to the host after it.
    encoded = cli_here("--db", str(tmp_path / "runs.db"), "ping", f"http://bob:se%40{where}%2Fret@localhost:{port}/mcp")
    assert encoded.returncode == 0, encoded.stderr
    assert set(recorder.seen) == {(basic(f"bob:se@{where}/ret"), "/mcp")}


#: (the server a stranger's file names, what the run keeps of it)
# An address that names two servers ("@" in the first segment after the host) keeps the host after that "@": the one
# before it may be a piece of the password (h of p@h/x); one whose "@" is in a later segment keeps the host RFC 3986
# reads.
SERVERS = [("http://u:p@h/x@y", "http://y"), ("svc:v2@prod", "svc:v2@prod"),
           ("http://bob:pw@127.0.0.1:9/users/me@example.org/mcp", "http://127.0.0.1:9/…@example.org/mcp"),
           ("http://u:p@h/mcp?mail=a@b.org", "http://h/mcp"), ("http://bob:pw@host/@user", "http://host/@user"),
           ("bob:pw@host/x@y", "y"), ("agent@v2", "agent@v2")]


def test_an_imported_server_keeps_the_host_rfc_3986_reads_and_a_name_whole(tmp_path: Path) -> None:
    db, listed = import_servers(tmp_path, [server for server, _ in SERVERS])
    assert {run["uid"]: run["server"] for run in listed} == {f"u{number}": kept
                                                             for number, (_, kept) in enumerate(SERVERS)}
    plain = cli_here("--db", db, "runs", "list").stdout
    assert " 127.0.0.1:9/…@example.org/mcp " in plain and " svc:v2@prod " in plain
    shown = {run["uid"]: cli_here("--db", db, "runs", "show", str(run["id"])).stdout for run in listed}
    assert "server http://y" in shown["u0"] and "svc:v2@prod" in shown["u1"]
    assert cli_here("--db", db, "export", "--all", "-o", str(tmp_path / "out.json")).returncode == 0
    exported = json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))["runs"]
    assert {run["uid"]: run["server"] for run in exported} == {f"u{number}": kept
                                                               for number, (_, kept) in enumerate(SERVERS)}
    for text in [plain, *shown.values(), (tmp_path / "out.json").read_text(encoding="utf-8")]:
        assert "u:p" not in text and "bob:" not in text and "pw@" not in text and "users/me" not in text


def test_a_collectors_address_is_read_as_the_servers_are(tmp_path: Path) -> None:
    """`export --otlp-endpoint`: an "@" in the path went the old way too (the runs were sent to example.org, with
    ``Basic alice:pw@127.0.0.1:P/users/me``); an address naming two servers is refused before anything is sent."""
    db = tmp_path / "runs.db"
    with RunStore.open(db) as store:
        run_id = mixed_run(store)
    with running_collector() as collector:
        where = collector.endpoint.removeprefix("http://")
        sent = cli_here("--db", str(db), "export", str(run_id), "--wait", "0", "--otlp-endpoint",
                        f"http://alice:pw@{where}/users/me@example.org/v1/traces")
        assert collector.asked == [("/users/me@example.org/v1/traces", basic("alice:pw"))], sent.stderr
        refused = cli_here("--db", str(db), "export", "--wait", "0", "--otlp-endpoint",
                           f"http://alice:se@{where}/ret@localhost:{collector.port}/v1/traces")
    assert refused.returncode == 2 and f": {where}, or localhost:{collector.port} if" in refused.stderr, refused.stderr
    assert "se@" not in refused.stderr and "ret" not in refused.stderr and len(collector.asked) == 1
    assert "pw" not in sent.stdout + sent.stderr
