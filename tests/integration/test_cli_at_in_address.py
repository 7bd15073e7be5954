"""An "@" in an address's path after a password: ``call`` and ``ping`` of
``http://bob:pw@127.0.0.1:PORT/users/me@example.org/mcp`` name two servers (127.0.0.1:PORT, or example.org if the
password is ``pw@127.0.0.1:PORT/users/me``) whichever segment holds the "@", as ``bob:se@127.0.0.1:P/ret@localhost:P``
does: refused naming both, nothing sent. Without a password the address has one reading and is sent as it is; with
one, the path's "@" written as %40. An imported run's server keeps the host and path RFC 3986 reads
(``http://u:p@h/x@y`` was kept as ``http://y``, then as ``http://h/…@y``: another server than ``http://h/x@y`` called
here) and a service's name ``svc:v2@prod`` whole (was ``prod``). A real server on 127.0.0.1 that records the
Authorization header and the path of each request; a real SQLite file."""

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
def test_an_at_in_a_later_segment_after_a_password_names_two_servers(served, tmp_path: Path,
                                                                     operation: list[str]) -> None:
    """It was sent to the host before it, Basic bob:pw: a password "pw@HOST/users/me" typed as it is went in part to
    HOST, as "se@c/ret" does in the first segment (refused)."""
    where, recorder = served
    db = str(tmp_path / "runs.db")
    for url in (f"http://bob:pw@{where}/users/me@example.org/mcp", f"http://bob:se@{where}/r/et@example.org/mcp"):
        refused = cli_here("--db", db, *[url if word == "{url}" else word for word in operation])
        assert refused.returncode == 2, refused.stderr
        said = " ".join(refused.stderr.split())
        assert f"names two servers: {where}, or example.org if its password" in said and "%40" in said, said
        assert "pw" not in said and "se@" not in said and "users/me" not in said, said
    assert recorder.seen == []
    # Without a password (its credentials in a header), or with the path's "@" written as %40, one server.
    for url, header in ((f"http://{where}/users/me@example.org/mcp", ["--header", f"Authorization: {basic('bob:pw')}"]),
                        (f"http://bob:pw@{where}/users/me%40example.org/mcp", [])):
        done = cli_here("--db", db, *[url if word == "{url}" else word for word in operation], *header, "--json")
        assert done.returncode == 0, done.stderr
        assert "pw" not in done.stdout + done.stderr
    assert {auth for auth, _ in recorder.seen} == {basic("bob:pw")}
    assert {path for _, path in recorder.seen} == {"/users/me@example.org/mcp", "/users/me%40example.org/mcp"}
    listed = json.loads(cli_here("--db", db, "runs", "list", "--json").stdout)["runs"]
    assert {run["server"] for run in listed} == {f"http://{where}/users/me@example.org/mcp",
                                                 f"http://{where}/users/me%40example.org/mcp"}


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


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_password_typed_with_a_slash_is_refused_saying_so_and_nothing_is_sent(served, tmp_path: Path,
                                                                                lang: str) -> None:
    """``http://bob:S3cr/et@HOST/mcp``: its host reads as ``bob`` with the port ``S3cr``, none. It was refused as
    "'http://HOST/mcp' is not a server address", naming a valid address; now it says what is wrong, naming no piece of
    the password (``S3cr``, ``et``), and asks for %2F."""
    where, recorder = served
    for mark in ("/", "?", "#"):
        url = f"http://bob:S3cr{mark}et@{where}/mcp"
        for operation in (["call", url, "echo", "--args", '{"text": "hi"}'], ["ping", url]):
            refused = cli_here("--lang", lang, "--db", str(tmp_path / "runs.db"), *operation)
            assert refused.returncode == 2, refused.stderr
            said = " ".join(refused.stderr.split())
            assert "is not a server address" not in said and "ist keine Serveradresse" not in said, said
            assert ("'/', '?' or '#'" if lang == "en" else "'/', '?' oder '#'") in said and "%2F" in said, said
            assert "S3cr" not in said and "et@" not in said and "bob" not in said, said
    assert recorder.seen == []
    # Written as the sentence asks, the password is sent whole.
    encoded = cli_here("--db", str(tmp_path / "runs.db"), "ping", f"http://bob:S3cr%2Fet@{where}/mcp")
    assert encoded.returncode == 0, encoded.stderr
    assert set(recorder.seen) == {(basic("bob:S3cr/et"), "/mcp")}


#: (the server a stranger's file names, what the run keeps of it)
# An address that names two servers (a password, then an "@" in a segment after the host) keeps the host after that
# "@": the one before it may be a piece of the password (h of p@h/x), also where the "@" begins a segment (host of
# bob:pw@host/@user, which the password may hold: pw@host/).
SERVERS = [("http://u:p@h/x@y", "http://y"), ("svc:v2@prod", "svc:v2@prod"),
           ("http://bob:pw@127.0.0.1:9/users/me@example.org/mcp", "http://example.org/mcp"),
           ("http://u:p@h/mcp?mail=a@b.org", "http://h/mcp"), ("http://bob:pw@host/@user", "http://user"),
           ("bob:pw@host/x@y", "y"), ("agent@v2", "agent@v2")]


def test_an_imported_server_keeps_the_host_rfc_3986_reads_and_a_name_whole(tmp_path: Path) -> None:
    db, listed = import_servers(tmp_path, [server for server, _ in SERVERS])
    assert {run["uid"]: run["server"] for run in listed} == {f"u{number}": kept
                                                             for number, (_, kept) in enumerate(SERVERS)}
    plain = cli_here("--db", db, "runs", "list").stdout
    assert " example.org/mcp " in plain and " svc:v2@prod " in plain
    shown = {run["uid"]: cli_here("--db", db, "runs", "show", str(run["id"])).stdout for run in listed}
    assert "server http://y" in shown["u0"] and "svc:v2@prod" in shown["u1"]
    assert cli_here("--db", db, "export", "--all", "-o", str(tmp_path / "out.json")).returncode == 0
    exported = json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))["runs"]
    assert {run["uid"]: run["server"] for run in exported} == {f"u{number}": kept
                                                               for number, (_, kept) in enumerate(SERVERS)}
    for text in [plain, *shown.values(), (tmp_path / "out.json").read_text(encoding="utf-8")]:
        assert "u:p" not in text and "bob:" not in text and "pw@" not in text


def test_runs_list_finds_an_imported_run_by_the_address_its_file_names(tmp_path: Path) -> None:
    """`runs list --server` with the address naming two servers that a file names found none of its runs (it looked
    for the host and path RFC 3986 reads, ``http://127.0.0.1:9/r/et@example.org/mcp``, where the import kept the
    host after the password) and said that address, the password's piece ``r/et`` in it."""
    addresses = ["http://bob:s@e@127.0.0.1:9/r/et@example.org/mcp", "http://u:p@h/x@y", "http://bob:pw@h.example/mcp",
                 "http://bob:pw@h.example/@user/mcp"]
    db, listed = import_servers(tmp_path, addresses)
    for address, run in zip(addresses, sorted(listed, key=lambda run: run["uid"]), strict=True):
        found = cli_here("--db", db, "runs", "list", "--server", address, "--json")
        assert found.returncode == 0 and [run["id"] for run in json.loads(found.stdout)["runs"]] == [run["id"]], \
            found.stdout + found.stderr
    missed = cli_here("--db", db, "runs", "list", "--server", "http://bob:s@e@127.0.0.1:9/r/et@elsewhere.org/mcp")
    assert missed.returncode == 0 and "http://elsewhere.org/mcp" in missed.stdout, missed.stdout + missed.stderr
    assert "r/et" not in missed.stdout + missed.stderr


def test_a_collectors_address_is_read_as_the_servers_are(tmp_path: Path) -> None:
    """`export --otlp-endpoint`: an "@" in the path went the old way too (the runs were sent to example.org, with
    ``Basic alice:pw@127.0.0.1:P/users/me``); an address naming two servers is refused before anything is sent,
    whichever segment holds the "@"; written %40 there it is sent."""
    db = tmp_path / "runs.db"
    with RunStore.open(db) as store:
        run_id = mixed_run(store)
    with running_collector() as collector:
        where = collector.endpoint.removeprefix("http://")
        sent = cli_here("--db", str(db), "export", str(run_id), "--wait", "0", "--otlp-endpoint",
                        f"http://alice:pw@{where}/users/me%40example.org/v1/traces")
        assert collector.asked == [("/users/me%40example.org/v1/traces", basic("alice:pw"))], sent.stderr
        for tail in ("ret", "r/et"):
            refused = cli_here("--db", str(db), "export", "--wait", "0", "--otlp-endpoint",
                               f"http://alice:se@{where}/{tail}@localhost:{collector.port}/v1/traces")
            assert refused.returncode == 2, refused.stderr
            assert f": {where}, or localhost:{collector.port} if" in refused.stderr, refused.stderr
            assert "se@" not in refused.stderr and "ret" not in refused.stderr and "et@" not in refused.stderr
    assert len(collector.asked) == 1
    assert "pw" not in sent.stdout + sent.stderr
