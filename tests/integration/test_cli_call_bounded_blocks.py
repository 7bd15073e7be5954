"""`call` names a live answer's content blocks as `runs show` names a stored step's: the first hundred, then
how many more, each embedded text cut (a server answering 5,000 blocks got 5,008 lines, and an embedded text of
200,000 lines every one). `--json` keeps every block, whole. `replay` says its answer through the same lines.
A real process against a real server on 127.0.0.1, a real SQLite file."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.cli_process import cli_here
from tests.support.fault_server import Exchange, FaultServer, default_work

BIG_TEXT = "line\n" * 200_000


def _many_blocks(exchange: Exchange) -> None:
    """5,000 resource links (the second an embedded text resource of 200,000 lines) for any tools/call."""
    if exchange.request.rpc_method != "tools/call":
        default_work(exchange)
        return
    blocks = [{"type": "resource_link", "uri": f"demo://item/{number}", "name": f"item {number}",
               "annotations": {"audience": ["user"]}} for number in range(5000)]
    blocks[1] = {"type": "resource", "resource": {"uri": "demo://big", "mimeType": "text/plain", "text": BIG_TEXT}}
    exchange.send_result({"content": blocks, "isError": False})


@pytest.fixture(scope="module")
def server() -> Iterator[FaultServer]:
    with FaultServer("stateless", work=_many_blocks) as running:
        yield running


def _cli(db: Path, *words: str) -> subprocess.CompletedProcess[str]:
    # In this process: what it says is the point, not its process.
    return cli_here(*words, "--db", str(db), env={"LANG": "C.UTF-8", "LC_ALL": "", "LANGUAGE": ""})


def _assert_bounded(out: str, more: str) -> None:
    assert out.count("demo://item/") == 99 and "demo://item/99." in out and "demo://item/100." not in out
    assert out.count("\n    line") == 10_000 // 5  # the embedded text cut before its lines are made
    assert f"\n{more}\n" in out
    assert len(out.splitlines()) < 2_300 and len(out) < 60_000


@pytest.mark.parametrize(("language", "more"), [
    ("en", "4,900 more content blocks are not named here."),
    ("de", "4.900 weitere Inhaltsblöcke sind hier nicht genannt."),
])
def test_call_names_the_first_hundred_blocks_and_counts_the_rest(server: FaultServer, tmp_path: Path,
                                                                 language: str, more: str) -> None:
    done = _cli(tmp_path / "runs.db", "call", server.url, "echo", "--lang", language)
    assert done.returncode == 0, done.stderr
    _assert_bounded(done.stdout, more)


def test_call_json_keeps_every_block_whole_and_replay_is_bounded_too(server: FaultServer, tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    done = _cli(db, "call", server.url, "echo", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    blocks = report["content_blocks"]
    assert len(blocks) == 5000 and blocks[-1]["uri"] == "demo://item/4999"
    assert blocks[1]["text"] == BIG_TEXT

    replayed = _cli(db, "replay", f"{report['run_id']}:1")
    assert replayed.returncode == 0, replayed.stderr
    assert replayed.stdout.startswith("Replay of step 1 of run 1:")
    _assert_bounded(replayed.stdout, "4,900 more content blocks are not named here.")
