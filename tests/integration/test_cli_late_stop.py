"""A Ctrl-C (or SIGTERM) that lands after a command's answer was printed and its run stored, as the database
closes: the command's status stands (`call`, and `scenario` and `agent`, which play an agent's run). The event
loop, closing, had given the stop signals back to Python's defaults: the Ctrl-C was taken for one "before the
command had done its work" (exit 130 after an ok answer, seen in 4 of 24 calls with a Ctrl-C within ±12 ms of
the answer; in 20 of 20 scenarios with one within 20 ms after it) and SIGTERM killed the process (status -15).
Here the signal is raised exactly there, in a child process."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from inspector.demo import DemoServer
from tests.support.asgi_server import serve_asgi
from tests.support.auth_config import PRE_REGISTERED_ID, PRE_REGISTERED_SECRET, AuthConfig, pre_registered
from tests.support.auth_server import serve_auth_server
from tests.support.fake_chat_model import FakeChatModel, tool_then_report
from tests.support.isolation import clean_environment
from tests.support.otlp_collector import running_collector
from tests.support.trace_backends import fixture_trace, fixture_trace_ids, trace_backend

ROOT = Path(__file__).resolve().parents[2]

CHILD = textwrap.dedent("""
    import signal, sys
    from inspector.cli import ending
    from inspector.store.run_store import RunStore

    close = RunStore.close

    def closing(self):
        if ending._json_emitted:  # the answer is out and stored: the command's last step
            signal.raise_signal(signal.{signal})
            signal.getsignal(signal.{signal})  # a call: the handler has run by now
        close(self)

    RunStore.close = closing
    sys.argv = ["run-inspector", *sys.argv[1:]]
    from inspector.cli import run

    run()
""")


def late_stopped(stop: str, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``run-inspector ARGS`` in a child process that raises ``stop`` as its database closes after the answer."""
    return subprocess.run([sys.executable, "-c", CHILD.format(signal=stop), *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=60, env=clean_environment(env or {}))


@pytest.mark.parametrize("stop", ["SIGINT", "SIGTERM"])
def test_a_stop_signal_as_the_database_closes_after_the_answer_changes_nothing(tmp_path: Path, stop: str) -> None:
    database = tmp_path / "runs.db"
    with DemoServer() as demo:
        done = late_stopped(stop, "call", demo.url, "echo", "--args", '{"text": "hi"}', "--json", "--db",
                            str(database))
    assert done.returncode == 0, (done.returncode, done.stderr)
    assert json.loads(done.stdout)["outcome"] == "ok"
    assert "Cancelled" not in done.stderr


@pytest.mark.parametrize("stop", ["SIGINT", "SIGTERM"])
def test_a_stop_signal_after_a_scenarios_report_changes_nothing(tmp_path: Path, stop: str) -> None:
    """A scenario on the demo server it starts for itself: exit 130 "Cancelled (Ctrl-C) before the command had
    done its work" after an ok run, or killed by SIGTERM (status -15)."""
    database = tmp_path / "runs.db"
    done = late_stopped(stop, "scenario", "happy-path", "--json", "--db", str(database))
    assert done.returncode == 0, (done.returncode, done.stderr)
    assert json.loads(done.stdout)["status"] == "ok"
    assert "Cancelled" not in done.stderr


@pytest.mark.parametrize("stop", ["SIGINT", "SIGTERM"])
def test_a_stop_signal_after_an_agents_report_changes_nothing(tmp_path: Path, stop: str) -> None:
    database = tmp_path / "runs.db"
    fake = FakeChatModel(tool_then_report("echo", {"text": "ping"}))
    with DemoServer() as demo, serve_asgi(fake.app(), path="/v1") as model_url:
        done = late_stopped(stop, "agent", "--model-url", model_url, "--model", "fake-model", "--server", demo.url,
                            "--api-key-env", "MODEL_KEY", "--json", "--db", str(database), "Say ping.",
                            env={"MODEL_KEY": "sk-late-stop"})
    assert done.returncode == 0, (done.returncode, done.stderr)
    assert json.loads(done.stdout)["status"] == "ok"
    assert "Cancelled" not in done.stderr


@pytest.mark.parametrize("stop", ["SIGINT", "SIGTERM"])
def test_a_stop_signal_after_a_watch_ended_changes_nothing(tmp_path: Path, stop: str) -> None:
    """`resources subscribe` gave the stop signals back to Python's defaults as its watch ended, before the
    listening session was stopped and the database closed: exit 130 after "ended", or killed by SIGTERM."""
    database = tmp_path / "runs.db"
    with DemoServer() as demo:
        done = late_stopped(stop, "resources", "subscribe", demo.url, "demo://clock", "--count", "1", "--json",
                            "--db", str(database))
    assert done.returncode == 0, (done.returncode, done.stderr)
    events = [json.loads(line) for line in done.stdout.splitlines()]
    assert events[-1]["event"] == "ended" and events[-1]["reason"] == "count"
    assert "Cancelled" not in done.stderr


#: ``run-inspector ARGS`` with the stop signal raised as ``TARGET`` ("module:name", "module:Class.method") is first
#: called (or, ``AFTER``, as that call is done), or (``COMMIT``) just as the database took its first COMMIT after
#: opening.
CHILD_AT = textwrap.dedent("""
    import importlib, signal, sys
    from inspector.store.run_store import RunStore

    def stop():
        signal.raise_signal(signal.{signal})
        signal.getsignal(signal.{signal})  # a call: the handler has run by now

    class Committing:  # the store's connection: the signal lands as soon as the COMMIT is done
        def __init__(self, conn):
            self._real, self.armed = conn, True

        def __getattr__(self, name):
            return getattr(self._real, name)

        def execute(self, sql, *args):
            done = self._real.execute(sql, *args)
            if sql == "COMMIT" and self.armed:
                self.armed = False
                stop()
            return done

    if "{target}" == "COMMIT":
        opened = RunStore.__init__

        def opening(self, db):
            opened(self, db)
            self._conn = Committing(self._conn)

        RunStore.__init__ = opening
    else:
        module, _, path = "{target}".partition(":")
        owner = importlib.import_module(module)
        *outer, name = path.split(".")
        for part in outer:
            owner = getattr(owner, part)
        real = getattr(owner, name)
        armed = [True]

        def stopping(*args, **kwargs):
            if armed[0] and not {after}:
                armed[0] = False
                stop()
            done = real(*args, **kwargs)
            if armed[0]:  # after: as soon as the call is done
                armed[0] = False
                stop()
            return done

        setattr(owner, name, stopping)
    sys.argv = ["run-inspector", *sys.argv[1:]]
    from inspector.cli import run

    run()
""")


def stopped_at(stop: str, at: str, *args: str, env: dict[str, str] | None = None,
               after: bool = False) -> subprocess.CompletedProcess[str]:
    """``run-inspector ARGS`` in a child process that raises ``stop`` at ``at`` (``after``: as it is done): a method
    of RunStore, a COMMIT, or "module:name"."""
    target = at if at == "COMMIT" or ":" in at else f"inspector.store.run_store:RunStore.{at}"
    child = CHILD_AT.format(signal=stop, target=target, after=after)
    return subprocess.run([sys.executable, "-c", child, *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=60,
                          env=clean_environment(env or {}))


def command(*args: str) -> str:
    done = subprocess.run([sys.executable, "-m", "inspector", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=60, env=clean_environment())
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture(scope="module")
def traces(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Two trace files of ours: the first holds run 1 of two calls on the demo server, the second both."""
    folder = tmp_path_factory.mktemp("traces")
    database = str(folder / "recorded.db")
    with DemoServer() as demo:
        for text in ("one", "two"):
            command("call", demo.url, "echo", "--args", json.dumps({"text": text}), "--db", database)
    first, both = folder / "first.json", folder / "both.json"
    command("export", "1", "-o", str(first), "--db", database)
    command("export", "--all", "-o", str(both), "--db", database)
    return first, both


def _runs(database: Path) -> int:
    return len(json.loads(command("runs", "list", "--json", "--db", str(database)))["runs"])


@pytest.mark.parametrize("stop", ["SIGINT", "SIGTERM"])
def test_a_stop_signal_while_the_runs_already_here_are_looked_up_changes_nothing(
        tmp_path: Path, stop: str, traces: tuple[Path, Path]) -> None:
    """`import` said "Cancelled (Ctrl-C) before the import was done: nothing was imported." of the run it had
    stored, when the Ctrl-C landed after the COMMIT, while it looked up which runs of the file were here before."""
    first, both = traces
    database = tmp_path / "runs.db"
    command("import", str(first), "--db", str(database))
    done = stopped_at(stop, "find_run_by_uid", "import", str(both), "--json", "--db", str(database))
    assert done.returncode == 0, (done.returncode, done.stderr)
    said = json.loads(done.stdout)
    assert said["runs_imported"] == 1 and said["runs_already_present"] == 1
    assert "nothing was imported" not in done.stderr
    assert _runs(database) == 2


@pytest.mark.parametrize("stop", ["SIGINT", "SIGTERM"])
def test_a_stop_signal_as_the_import_closes_the_database_changes_nothing(
        tmp_path: Path, stop: str, traces: tuple[Path, Path]) -> None:
    """Exit 130 "Cancelled (Ctrl-C) before the command had done its work." after the runs were stored, or killed by
    SIGTERM (status -15)."""
    database = tmp_path / "runs.db"
    done = stopped_at(stop, "close", "import", str(traces[1]), "--db", str(database))
    assert done.returncode == 0, (done.returncode, done.stderr)
    assert done.stdout.startswith(f"Imported 2 runs from {traces[1]}.")
    assert "Cancelled" not in done.stderr
    assert _runs(database) == 2


@pytest.mark.parametrize("stop", ["SIGINT", "SIGTERM"])
def test_a_stop_signal_in_the_imports_commit_is_said_as_it_is(tmp_path: Path, stop: str,
                                                               traces: tuple[Path, Path]) -> None:
    """A Ctrl-C landing as the import's COMMIT ends was raised after it: "nothing was imported" of stored runs.
    From its COMMIT on the import is done, and said so."""
    database = tmp_path / "runs.db"
    done = stopped_at(stop, "COMMIT", "import", str(traces[1]), "--json", "--db", str(database))
    assert done.returncode == 0, (done.returncode, done.stderr)
    assert json.loads(done.stdout)["runs_imported"] == 2
    assert "nothing was imported" not in done.stderr
    assert _runs(database) == 2


@pytest.mark.parametrize(("stop", "at"), [("SIGINT", "close"), ("SIGTERM", "close"), ("SIGINT", "COMMIT")])
def test_a_stop_signal_once_a_pulled_trace_is_stored_changes_nothing(tmp_path: Path, stop: str, at: str) -> None:
    """`import --from-jaeger`: as the database closed, exit 130 "Cancelled (Ctrl-C) before the command had done its
    work." (SIGTERM: killed) after the trace's runs were stored; in the COMMIT, "nothing was imported"."""
    database = tmp_path / "runs.db"
    trace_id = fixture_trace_ids()[0]
    with trace_backend() as jaeger:
        jaeger.serve_json(f"/api/v3/traces/{trace_id}", {"result": fixture_trace(trace_id)})
        done = stopped_at(stop, at, "import", "--from-jaeger", jaeger.base, "--trace", trace_id, "--json", "--db",
                          str(database))
    assert done.returncode == 0, (done.returncode, done.stderr)
    imported = json.loads(done.stdout)["runs_imported"]
    assert imported >= 1 and _runs(database) == imported
    assert "Cancelled" not in done.stderr


@pytest.mark.parametrize("stop", ["SIGINT", "SIGTERM"])
def test_a_stop_signal_after_a_push_changes_nothing(tmp_path: Path, stop: str, traces: tuple[Path, Path]) -> None:
    """`export --otlp-endpoint`: the runs were sent and marked so, then exit 130 "Cancelled (Ctrl-C) before the
    command had done its work." as the database closed (SIGTERM: killed)."""
    database = tmp_path / "runs.db"
    command("import", str(traces[1]), "--db", str(database))
    with running_collector() as collector:
        done = stopped_at(stop, "close", "export", "--otlp-endpoint", collector.endpoint, "--all", "--json", "--db",
                          str(database))
    assert done.returncode == 0, (done.returncode, done.stderr)
    assert json.loads(done.stdout)["sent"] == 2 and len(collector.requests) == 2


@pytest.mark.parametrize("stop", ["SIGINT", "SIGTERM"])
def test_a_stop_signal_after_an_export_changes_nothing(tmp_path: Path, stop: str, traces: tuple[Path, Path]) -> None:
    database, written = tmp_path / "runs.db", tmp_path / "out.json"
    command("import", str(traces[1]), "--db", str(database))
    done = stopped_at(stop, "close", "export", "--all", "-o", str(written), "--json", "--db", str(database))
    assert done.returncode == 0, (done.returncode, done.stderr)
    assert json.loads(done.stdout)["runs"] == 2 and written.is_file()


@pytest.mark.parametrize(("stop", "at"), [("SIGINT", "close"), ("SIGTERM", "close"), ("SIGINT", "COMMIT"),
                                          ("SIGTERM", "COMMIT")])
def test_a_stop_signal_once_a_note_is_saved_changes_nothing(tmp_path: Path, stop: str, at: str,
                                                            traces: tuple[Path, Path]) -> None:
    """`runs note`: exit 130 "Cancelled (Ctrl-C) before the command had done its work." of a note it had saved
    (SIGTERM: killed)."""
    database = tmp_path / "runs.db"
    command("import", str(traces[0]), "--db", str(database))
    done = stopped_at(stop, at, "runs", "note", "1", "Looked at.", "--db", str(database))
    assert done.returncode == 0, (done.returncode, done.stderr)
    assert done.stdout == "The note of run 1 was saved.\n"
    assert json.loads(command("runs", "show", "1", "--json", "--db", str(database)))["run"]["note"] == "Looked at."


@pytest.mark.parametrize("stop", ["SIGINT", "SIGTERM"])
def test_a_stop_signal_once_a_server_is_saved_changes_nothing(tmp_path: Path, stop: str) -> None:
    """`servers set`: exit 130 "Cancelled (Ctrl-C) before the command had done its work." after "Saved ..." (SIGTERM:
    killed), the server saved."""
    database = tmp_path / "runs.db"
    done = stopped_at(stop, "close", "servers", "set", "http://127.0.0.1:9/mcp", "--name", "late", "--db",
                      str(database))
    assert done.returncode == 0, (done.returncode, done.stderr)
    assert done.stdout == "Saved http://127.0.0.1:9/mcp.\n"
    listed = json.loads(command("servers", "--json", "--db", str(database)))["servers"]
    assert [server["name"] for server in listed] == ["late"]


@pytest.mark.parametrize("stop", ["SIGINT", "SIGTERM"])
def test_a_stop_signal_once_signed_in_changes_nothing(stop: str) -> None:
    """`signin`: exit 130 "Cancelled (Ctrl-C) before the command had done its work." as "Signed in to ..." was
    printed, the tokens kept (SIGTERM: killed)."""
    config = AuthConfig(clients=[pre_registered("client_secret_basic")], registration=False)
    with serve_auth_server(config) as auth:
        done = stopped_at(stop, "inspector.cli.signin:_say", "signin", auth.mcp_url, "--client-id", PRE_REGISTERED_ID,
                          "--client-secret-env", "SECRET_HERE", "--grant", "client-credentials", "--json",
                          env={"SECRET_HERE": PRE_REGISTERED_SECRET})
    assert done.returncode == 0, (done.returncode, done.stderr)
    assert json.loads(done.stdout)["signed_in"] is True
    assert "Cancelled" not in done.stderr


@pytest.mark.parametrize("stop", ["SIGINT", "SIGTERM"])
def test_a_stop_signal_as_the_export_is_put_in_its_place_is_said_as_it_is(tmp_path: Path, stop: str,
                                                                          traces: tuple[Path, Path]) -> None:
    """A stop landing as the written file was renamed into place was raised just after it: "Cancelled (Ctrl-C) before
    the export was done: nothing was written to out.json." (status 130) of a file that had just replaced the one
    there. From the rename on, the export is done, and said so."""
    database, written = tmp_path / "runs.db", tmp_path / "out.json"
    command("import", str(traces[1]), "--db", str(database))
    written.write_text("there before\n")
    done = stopped_at(stop, "os:replace", "export", "--all", "-o", str(written), "--force", "--json", "--db",
                      str(database), after=True)
    assert done.returncode == 0, (done.returncode, done.stderr)
    assert json.loads(done.stdout)["runs"] == 2
    assert len(json.loads(written.read_text())["runs"]) == 2
