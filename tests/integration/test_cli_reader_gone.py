"""A reader that goes away (``run-inspector call … | head -c 10``), through a real pipe of a process of
its own (its output written in blocks, as a user's is, or as each write comes): nothing is said about it on
stderr, and the status stays honest for ``set -o pipefail``: a command whose outcome is not its output ends
with that outcome's (a failed call 1, never 0; an import whose runs are stored, an export whose file is
written, a note, a server or a sign-in saved 0, its change made whole; a push that left runs queued 1), one
whose output is its work ends as cat does, 141. A server that records (``receive``) goes on; a watch
(``resources subscribe``) ends as Ctrl-C ends it. Before, a saved server, a sign-in or servers imported
ended 141, and a script took them for failed and did them again."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from inspector.demo import DemoOptions, DemoServer
from tests.support.auth_server import serve_auth_server
from tests.support.cli_process import ROOT, cli_here, without_reader
from tests.support.file_keyring import FileKeyring
from tests.support.otlp_collector import Answer, running_collector
from tests.support.trace_backends import fixture_trace, fixture_trace_ids, trace_backend

OPENLIT = Path(__file__).resolve().parents[1] / "fixtures" / "otel" / "openlit_mcp2.jsonl"
FOLLOW = Path(__file__).resolve().parents[1] / "support" / "follow_redirect.py"
BUFFERING = pytest.mark.parametrize("buffered", [False, True], ids=["unbuffered", "buffered"])
pytestmark = pytest.mark.timeout(120)


@pytest.fixture(scope="module")
def demo_url() -> Iterator[str]:
    server = DemoServer(DemoOptions())
    try:
        yield server.start()
    finally:
        server.stop()


def test_a_failed_call_whose_reader_went_away_ends_failed_and_says_nothing_of_the_pipe(demo_url: str) -> None:
    done = without_reader("call", demo_url, "fail", "--args", "{}")
    assert (done.returncode, done.stderr) == (1, "")


def test_a_call_that_worked_ends_ok_though_its_reader_went_away(demo_url: str) -> None:
    done = without_reader("call", demo_url, "echo", "--args", '{"text": "hi"}')
    assert (done.returncode, done.stderr) == (0, "")


@BUFFERING
@pytest.mark.parametrize("words", [("runs", "list"), ("runs", "show", "1"), ("runs", "show", "1", "--json"),
                                   ("compare", "1", "2"), ("servers",), ("--version",), ("runs", "--help")])
def test_an_output_that_is_the_work_cut_short_by_its_reader_ends_as_cat_does(demo_url: str, words: tuple[str, ...],
                                                                              buffered: bool, tmp_path: Path) -> None:
    """Written in blocks (a user's output, PYTHONUNBUFFERED unset), a short listing was only found cut short at the
    process's last flush, which said nothing: `runs list`, `runs show`, `compare` and `servers` ended 0; `--help`
    ended 120 with "Exception ignored … BrokenPipeError" on stderr, and `--version` written as it came ended 1 with
    a traceback."""
    db = str(tmp_path / "runs.db")
    for text in ("x", "y"):
        assert cli_here("call", demo_url, "echo", "--args", json.dumps({"text": text}), "--db", db).returncode == 0
    assert cli_here("servers", "set", demo_url, "--name", "demo here", "--db", db).returncode == 0
    done = without_reader(*words, buffered=buffered, env={"RUN_INSPECTOR_DB": db})
    assert (done.returncode, done.stderr) == (141, "")


@BUFFERING
@pytest.mark.parametrize("words", [("scenario", "--list"), ("scenario", "--list", "--json")])
def test_the_list_of_scenarios_cut_short_by_its_reader_ends_as_cat_does(words: tuple[str, ...], buffered: bool,
                                                                       tmp_path: Path) -> None:
    """`scenario --list` plays nothing and stores nothing: its output is its work. It ended 0 as a scenario played
    does, so `set -o pipefail` took a list cut short for one read whole."""
    done = without_reader(*words, "--db", str(tmp_path / "runs.db"), buffered=buffered)
    assert (done.returncode, done.stderr) == (141, "")


@BUFFERING
def test_a_refusal_whose_reader_went_away_ends_with_its_status_and_says_only_its_sentence(buffered: bool,
                                                                                         tmp_path: Path) -> None:
    """Its JSON object met the closed pipe: a traceback on stderr, and status 1 (unbuffered) or 120."""
    db = str(tmp_path / "runs.db")
    assert cli_here("servers", "set", "http://127.0.0.1:9/mcp", "--name", "kept", "--db", db).returncode == 0
    done = without_reader("servers", "--json", "remove", "nope", "--db", db, buffered=buffered)
    assert done.returncode == 2
    assert done.stderr.startswith("run-inspector: No configured server is named nope") and len(
        done.stderr.splitlines()) == 1


def test_a_pipefail_script_sees_the_failed_call_through_head(demo_url: str) -> None:
    script = f'set -o pipefail; "{sys.executable}" -m inspector call {demo_url} fail --args "{{}}" | head -c 10'
    done = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 1, done
    assert len(done.stdout) == 10 and done.stderr == ""


def test_a_failed_scenario_whose_reader_went_away_ends_failed() -> None:
    done = without_reader("scenario", "flaky-server")
    assert (done.returncode, done.stderr) == (1, "")


def test_an_import_whose_reader_went_away_ends_ok_its_runs_stored(tmp_path: Path) -> None:
    """The import is committed before its report is printed: it ended 141, and a script took the import for failed
    (and would import the file again) while its thirteen runs were stored."""
    db = str(tmp_path / "runs.db")
    done = without_reader("--db", db, "import", str(OPENLIT))
    assert (done.returncode, done.stderr) == (0, "")
    listed = json.loads(cli_here("--db", db, "runs", "list", "--all", "--json").stdout)
    assert len(listed["runs"]) == 13
    again = without_reader("--db", db, "import", str(OPENLIT), "--json")  # here already: still done, 0
    assert (again.returncode, again.stderr) == (0, "")


def test_a_note_whose_reader_went_away_ends_ok_the_note_saved(tmp_path: Path) -> None:
    db = str(tmp_path / "runs.db")
    assert cli_here("--db", db, "import", str(OPENLIT)).returncode == 0
    done = without_reader("--db", db, "runs", "note", "1", "seen: the timeout is the server's")
    assert (done.returncode, done.stderr) == (0, "")
    assert json.loads(cli_here("--db", db, "runs", "show", "1", "--json").stdout)["run"]["note"] == (
        "seen: the timeout is the server's")


def test_an_export_whose_reader_went_away_ends_ok_its_file_written(tmp_path: Path) -> None:
    db, written = str(tmp_path / "runs.db"), tmp_path / "runs.json"
    assert cli_here("--db", db, "import", str(OPENLIT)).returncode == 0
    done = without_reader("--db", db, "export", "--all", "-o", str(written))
    assert (done.returncode, done.stderr) == (0, "")
    assert len(json.loads(written.read_text(encoding="utf-8"))["runs"]) == 13


def test_a_trace_opened_by_id_whose_reader_went_away_ends_ok(tmp_path: Path) -> None:
    db, trace_id = str(tmp_path / "runs.db"), fixture_trace_ids()[0]
    with trace_backend() as jaeger:
        jaeger.serve_json(f"/api/v3/traces/{trace_id}", {"result": fixture_trace(trace_id)})
        done = without_reader("--db", db, "import", "--from-jaeger", jaeger.base, "--trace", trace_id)
    assert (done.returncode, done.stderr) == (0, "")
    assert json.loads(cli_here("--db", db, "runs", "list", "--all", "--json").stdout)["runs"]


def test_a_push_whose_reader_went_away_ends_with_the_pushs_status(tmp_path: Path) -> None:
    """Sent: 0; refused by the collector: 1, as with a reader (neither ended 141)."""
    db = str(tmp_path / "runs.db")
    assert cli_here("--db", db, "import", str(OPENLIT)).returncode == 0
    with running_collector() as collector:
        sent = without_reader("--db", db, "export", "1", "--otlp-endpoint", collector.endpoint)
        collector.answers = [Answer(400, body=b'{"message": "bad span"}')]
        refused = without_reader("--db", db, "export", "2", "--otlp-endpoint", collector.endpoint)
    assert (sent.returncode, sent.stderr) == (0, "")
    assert (refused.returncode, refused.stderr) == (1, "")


def configured(db: str) -> dict[str, str | None]:
    """The configured servers of ``db``: each one's name by its key."""
    listed = json.loads(cli_here("servers", "--json", "--db", db).stdout)["servers"]
    return {server["url"]: server["name"] for server in listed}


@BUFFERING
@pytest.mark.parametrize("words", [(), ("--json",)], ids=["text", "json"])
def test_a_server_set_and_removed_without_a_reader_is_saved_and_removed(demo_url: str, tmp_path: Path, buffered: bool,
                                                                       words: tuple[str, ...]) -> None:
    db = str(tmp_path / "runs.db")
    saved = without_reader("servers", *words, "set", demo_url, "--name", "demo here", "--db", db, buffered=buffered)
    assert (saved.returncode, saved.stderr) == (0, "")
    assert configured(db) == {demo_url: "demo here"}
    command = without_reader("servers", *words, "set", "tool box", "--command", f"{sys.executable} -m x", "--db", db,
                             buffered=buffered)
    renamed = without_reader("servers", *words, "set", "tool box", "--budget", "9", "--db", db, buffered=buffered)
    assert (command.returncode, command.stderr, renamed.returncode, renamed.stderr) == (0, "", 0, "")
    assert sorted(configured(db).values()) == ["demo here", "tool box"]
    removed = without_reader("servers", *words, "remove", "demo here", "--db", db, buffered=buffered)
    assert (removed.returncode, removed.stderr) == (0, "")
    assert list(configured(db).values()) == ["tool box"]


@BUFFERING
def test_servers_imported_without_a_reader_are_added(demo_url: str, tmp_path: Path, buffered: bool) -> None:
    db, config = str(tmp_path / "runs.db"), tmp_path / "claude_desktop_config.json"
    config.write_text(json.dumps({"mcpServers": {"web": {"url": demo_url}}}), encoding="utf-8")
    added = without_reader("servers", "import", str(config), "--yes", "--db", db, buffered=buffered)
    assert (added.returncode, added.stderr) == (0, "")
    assert configured(db) == {demo_url: "web"}


@BUFFERING
def test_a_sign_in_and_out_without_a_reader_keeps_then_forgets_the_tokens(buffered: bool,
                                                                          file_keyring: FileKeyring) -> None:
    browser = {"BROWSER": f"{sys.executable} {FOLLOW} %s"}
    with serve_auth_server() as auth:
        signed = without_reader("signin", auth.mcp_url, buffered=buffered, env=browser)
        kept = [name for name in file_keyring.entries() if name.startswith("signin tokens")]
        signed_out = without_reader("signout", auth.mcp_url, buffered=buffered)
        left = [name for name in file_keyring.entries() if name.startswith("signin tokens")]
    assert signed.returncode == 0 and "Signed in" in signed.stderr and "pipe" not in signed.stderr.lower()
    assert kept and (signed_out.returncode, signed_out.stderr) == (0, "") and not left


def test_a_receiver_whose_reader_went_away_goes_on_storing_traces(tmp_path: Path) -> None:
    """`receive --json | head -1`: the receiver ended, 141, at the line of the first trace it stored; every trace
    sent later was refused a connection."""
    db = tmp_path / "runs.db"
    process = subprocess.Popen([sys.executable, "-m", "inspector", "receive", "--port", "0", "--quiet-after", "0.3",
                                "--json", "--db", str(db)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               cwd=ROOT)
    try:
        url = json.loads(process.stdout.readline())["url"]
        process.stdout.close()  # the reader has what it wanted, and goes
        for line in OPENLIT.read_text(encoding="utf-8").splitlines():  # the first one's line meets the closed pipe
            answer = httpx.post(url, content=line, headers={"Content-Type": "application/json"}, timeout=30)
            assert answer.status_code == 200
    finally:
        process.send_signal(signal.SIGTERM)
        _, stderr = process.communicate(timeout=60)
    assert (process.returncode, stderr) == (0, "")
    assert len(json.loads(cli_here("runs", "list", "--all", "--json", "--db", str(db)).stdout)["runs"]) == 13


@BUFFERING
def test_a_watch_whose_reader_went_away_ends_unsubscribed(demo_url: str, tmp_path: Path, buffered: bool) -> None:
    """Without --count it ran on unread until Ctrl-C; it ends as Ctrl-C ends it: unsubscribed, status 0."""
    db = str(tmp_path / "runs.db")
    done = without_reader("resources", "subscribe", demo_url, "demo://clock", "--db", db, buffered=buffered)
    assert done.returncode == 0
    assert done.stderr == "Ended after 0 updates: the reader of its output went away.\n"
    titles = [run["title"] for run in json.loads(cli_here("runs", "list", "--json", "--db", db).stdout)["runs"]]
    assert titles == ["resources/unsubscribe demo://clock", "resources/subscribe demo://clock"]



def test_a_proxy_whose_reader_went_away_goes_on_forwarding_and_recording(demo_url: str, tmp_path: Path) -> None:
    """`proxy … | head -1`: the proxy ended, 141, at the line of the first run it recorded; the agent's next call
    found nothing listening."""
    db = tmp_path / "runs.db"
    process = subprocess.Popen([sys.executable, "-m", "inspector", "proxy", "--to", demo_url, "--db", str(db),
                                "--listen", "127.0.0.1:0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               cwd=ROOT)
    try:
        url = process.stdout.readline().split(" at ", 1)[1].split(" and ", 1)[0]
        process.stdout.close()
        calls = [cli_here("call", url, "echo", "--args", json.dumps({"text": text}), "--era", "handshake",
                          "--no-store") for text in ("one", "two")]
    finally:
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=60)
    assert [call.returncode for call in calls] == [0, 0], calls
    assert (process.returncode, stderr) == (0, "")
    titles = [run["title"] for run in json.loads(cli_here("runs", "list", "--json", "--db", str(db)).stdout)["runs"]]
    assert titles.count("tools/call echo · proxy") == 2
