"""`call` prints an answer's text bounded as the window's result view shows it: the first 100,000 characters,
then how many more were left out and that `--json` gives the whole answer (a text answer of megabytes
flooded the terminal). `--json` keeps the text whole; `replay` says its answer through the same lines.
A real process against a real server on 127.0.0.1, a real SQLite file."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from inspector.cli.results import MAX_SHOWN_TEXT_CHARS
from tests.support.cli_process import cli_here
from tests.support.fault_server import Exchange, FaultServer, default_work

LINE = "0123456789 abcdefghijklmnopqrstuvwxyz 0123456789 abcdefghijklmnopqrstuvwxy\n"  # 75 characters
BIG_TEXT = "The answer begins.\n" + LINE * 20_000 + "The answer ends."  # 1.5 MB (an answer is read up to 2 MiB)


def _big_text(exchange: Exchange) -> None:
    """One text block of 1.5 MB for any tools/call."""
    if exchange.request.rpc_method != "tools/call":
        default_work(exchange)
        return
    exchange.send_result({"content": [{"type": "text", "text": BIG_TEXT}], "isError": False})


@pytest.fixture(scope="module")
def server() -> Iterator[FaultServer]:
    with FaultServer("stateless", work=_big_text) as running:
        yield running


def _cli(db: Path, *words: str) -> subprocess.CompletedProcess[str]:
    # In this process: what it says is the point, not its process.
    return cli_here(*words, "--db", str(db), env={"LANG": "C.UTF-8", "LC_ALL": "", "LANGUAGE": ""})


def _assert_bounded(out: str, left_out: str) -> None:
    assert "The answer begins.\n" in out and "The answer ends." not in out
    assert out.count(LINE) == (MAX_SHOWN_TEXT_CHARS - len("The answer begins.\n")) // len(LINE)
    assert f"\n{left_out}\n" in out
    assert len(out) < MAX_SHOWN_TEXT_CHARS + 5_000


LEFT = len(BIG_TEXT) - MAX_SHOWN_TEXT_CHARS


@pytest.mark.parametrize(("language", "left_out"), [
    ("en", f"{LEFT:,} more characters of the answer's text are not shown here; --json gives the whole answer."),
    ("de", f"{LEFT:,} weitere Zeichen des Antworttexts sind hier nicht gezeigt; --json gibt die ganze Antwort "
           "aus.".replace(",", ".")),
])
def test_call_prints_the_first_part_of_a_long_text_and_says_how_much_more(server: FaultServer, tmp_path: Path,
                                                                         language: str, left_out: str) -> None:
    done = _cli(tmp_path / "runs.db", "call", server.url, "echo", "--lang", language)
    assert done.returncode == 0, done.stderr
    _assert_bounded(done.stdout, left_out)


def test_call_json_keeps_the_text_whole_and_replay_is_bounded_too(server: FaultServer, tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    done = _cli(db, "call", server.url, "echo", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["content"] == BIG_TEXT

    replayed = _cli(db, "replay", f"{report['run_id']}:1")
    assert replayed.returncode == 0, replayed.stderr
    assert replayed.stdout.startswith("Replay of step 1 of run 1:")
    _assert_bounded(replayed.stdout, f"{LEFT:,} more characters of the answer's text are not shown here; --json "
                                     "gives the whole answer.")


def test_a_short_text_is_printed_whole_with_no_line_about_it(tmp_path: Path, demo_server) -> None:
    done = _cli(tmp_path / "runs.db", "call", demo_server.url, "echo", "--args", '{"text": "hello there"}')
    assert done.returncode == 0, done.stderr
    assert "hello there" in done.stdout and "not shown here" not in done.stdout
