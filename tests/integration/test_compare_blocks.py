"""Compare judges a tool step by its content blocks too: two calls whose answers have the same
text and link to other addresses are not "alike", on the command line, in its JSON and in the window's
words (the window and ``compare`` say a row and the summary with the same functions)."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from inspector.store import RunStore
from tests.support.asgi_server import serve_asgi
from tests.support.cli_process import cli_here
from tests.support.sdk_server import build_sdk_server

ROOT = Path(__file__).resolve().parents[2]


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return cli_here(*args)  # in this process: what it says is the point, not its process


@pytest.fixture(scope="module")
def linked(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A database with two calls of ``link``: run 1's answer links to demo://a, run 2's to demo://b."""
    db = str(tmp_path_factory.mktemp("blocks") / "runs.db")
    with serve_asgi(build_sdk_server().streamable_http_app()) as url:
        for _ in range(2):
            done = cli("call", url, "link", "--db", db)
            assert done.returncode == 0, done.stderr
    # The two calls as long as each other: under load the first took 0.1 s longer and the row said
    # "faster" beside the blocks (it is the blocks these tests are about), as the window's test found.
    with RunStore.open(db) as store, store.transaction():
        store.db.conn.execute("UPDATE steps SET duration_ms = 20, payload = json_set(payload, '$.durationMs', 20)")
    yield db


def test_two_answers_alike_but_for_a_resource_link_differ(linked: str) -> None:
    report = json.loads(cli("compare", "1", "2", "--json", "--db", linked).stdout)
    (row,) = report["rows"]
    assert row["state"] == "differs" and row["differences"] == ["content_blocks"]
    assert row["first"]["details"] == row["second"]["details"]  # the text alone is the same
    stored = [json.loads(cli("runs", "show", run, "--json", "--db", linked).stdout)["timeline"][0]["payload"]
              for run in ("1", "2")]
    assert [payload["contentBlocks"][-1]["uri"] for payload in stored] == ["demo://a", "demo://b"]
    summary = report["summary"]
    assert (summary["alike"], summary["content_blocks"], summary["results"]) == (0, 1, 0)
    assert summary["text"] == "0 steps alike and 1 with other content blocks"
    readable = cli("compare", "1", "2", "--db", linked).stdout.splitlines()
    assert readable[2] == "0 steps alike and 1 with other content blocks"
    assert readable[-1].startswith("≠") and readable[-1].endswith("other content blocks")
    german = cli("--lang", "de", "compare", "1", "2", "--db", linked).stdout.splitlines()
    assert german[2] == "0 Schritte gleich und 1 mit anderen Inhaltsblöcken"
    assert german[-1].startswith("≠") and german[-1].endswith("andere Inhaltsblöcke")


def test_the_same_link_twice_is_alike(tmp_path: Path) -> None:
    """The digest of the blocks is stable: the same answer stored twice compares alike."""
    db = str(tmp_path / "same.db")
    for _ in range(2):  # a fresh server each time: both answers link to demo://a
        with serve_asgi(build_sdk_server().streamable_http_app()) as url:
            assert cli("call", url, "link", "--db", db).returncode == 0
    report = json.loads(cli("compare", "1", "2", "--json", "--db", db).stdout)
    assert [row["state"] for row in report["rows"]] == ["alike"]
