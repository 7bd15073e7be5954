"""What `call`, `tools` and `ping` import: only what they use (issue 22, start-up).

Each command runs as its own process, as a user starts it, against the demo server; the process
writes the names of every module it loaded when the command ended. The heavy parts a command never
runs must be absent: the store's writing half (sqlite-utils) with ``--no-store``, JSON Schema when no
tool declares an output schema, the agent's loop and chat model, the trace writers, Qt.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.demo_process import serve_demo

#: Runs the command line's main in this process, then writes sys.modules' names to the file in argv[1].
_PROBE = ("import json, sys\n"
          "from inspector.cli import main\n"
          "out, argv = sys.argv[1], sys.argv[2:]\n"
          "try:\n"
          "    status = main(argv)\n"
          "finally:  # --help ends in SystemExit\n"
          "    open(out, 'w').write(json.dumps(sorted(sys.modules)))\n"
          "sys.exit(status)\n")

#: Never loaded by an operation command, stored or not (without --elicit: no forms to answer).
NEVER = ("sqlite_utils", "jsonschema", "referencing", "inspector.agent.loop", "inspector.agent.chat_model",
         "inspector.mcp.elicitation",
         # What a server offers besides tools: only its own commands load it.
         "inspector.cli.offerings", "inspector.agent.offerings", "inspector.mcp.offerings",
         "inspector.cli.elicit",
         "inspector.agent.scenario", "inspector.traces.writer", "inspector.traces.otlp", "inspector.gui",
         "PySide6",
         # Babel's calendars and number data: what a call says (seconds, sizes) needs neither in en or de.
         "babel")
#: Not loaded when nothing is stored (and no database exists to read a server's settings from).
NOT_WITHOUT_STORE = ("inspector.store.database", "inspector.store.run_store",
                     "inspector.store.servers", "inspector.cli.recording")


@pytest.fixture(scope="module")
def demo_url() -> Iterator[str]:
    with serve_demo() as url:
        yield url


def _modules(tmp_path: Path, *words: str) -> set[str]:
    out = tmp_path / "modules.json"
    done = subprocess.run([sys.executable, "-c", _PROBE, str(out), *words], capture_output=True, text=True,
                          timeout=60, env={**os.environ, "RUN_INSPECTOR_DB": str(tmp_path / "runs.db")})
    assert done.returncode == 0, done.stderr
    return set(json.loads(out.read_text(encoding="utf-8")))


def _loaded(modules: set[str], names: tuple[str, ...]) -> list[str]:
    return sorted(name for name in modules if any(name == n or name.startswith(n + ".") for n in names))


@pytest.mark.parametrize("words", [("call", "URL", "echo", "--args", '{"text": "x"}'), ("tools", "URL"),
                                   ("ping", "URL")], ids=["call", "tools", "ping"])
def test_an_unstored_operation_loads_no_store_and_no_agent(demo_url: str, tmp_path: Path,
                                                           words: tuple[str, ...]) -> None:
    modules = _modules(tmp_path, *(demo_url if word == "URL" else word for word in words), "--no-store")
    assert "inspector.mcp.client" in modules or "inspector.mcp" in modules  # the probe saw the command's work
    assert _loaded(modules, NEVER + NOT_WITHOUT_STORE) == []
    assert not (tmp_path / "runs.db").exists()


def test_a_stored_call_loads_the_store_but_not_the_agent(demo_url: str, tmp_path: Path) -> None:
    modules = _modules(tmp_path, "call", demo_url, "echo", "--args", '{"text": "x"}')
    assert "inspector.store.run_store" in modules and (tmp_path / "runs.db").exists()  # the run was stored
    assert _loaded(modules, NEVER) == []


# -- the commands that make no MCP operation: the run database, trace files, the grammar -------------

#: Never loaded by a command that calls no server: the network, the MCP SDK and its models, Qt (a Qt-free
#: module of the window's, such as the words of content blocks, may be shared).
NO_NETWORK = ("httpx", "httpcore", "anyio", "h11", "ssl", "asyncio", "inspector.mcp.client", "inspector.mcp.channels",
              "inspector.agent", "inspector.demo", "mcp", "mcp_types", "pydantic", "uvicorn", "starlette",
              "jsonschema", "sqlite_utils", "PySide6", "shiboken6")
#: Not loaded to say the help: the store, Babel, what the commands do.
NOT_FOR_HELP = ("babel", "orjson", "inspector.store.run_store", "inspector.store.database", "inspector.cli.runs",
                "inspector.transfer", "inspector.traces", "platformdirs", "zoneinfo")


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory, demo_url: str) -> Path:
    """A run database with one run (a call of echo) and the trace file it exports to."""
    folder = tmp_path_factory.mktemp("stored")
    env = {**os.environ, "RUN_INSPECTOR_DB": str(folder / "runs.db")}
    for words in (("call", demo_url, "echo", "--args", '{"text": "x"}'),
                  ("export", "1", "-o", str(folder / "runs.json"))):
        done = subprocess.run([sys.executable, "-m", "inspector", *words], capture_output=True, text=True, timeout=60,
                              env=env)
        assert done.returncode == 0, done.stderr
    return folder


def _modules_with(stored: Path, tmp_path: Path, *words: str) -> set[str]:
    (tmp_path / "runs.db").write_bytes((stored / "runs.db").read_bytes())
    return _modules(tmp_path, *(str(stored / "runs.json") if word == "FILE" else word for word in words))


def test_the_help_loads_the_grammar_and_nothing_a_command_does(tmp_path: Path) -> None:
    modules = _modules(tmp_path, "--help")
    assert "inspector.cli.parser" in modules  # the probe saw the command's work
    assert _loaded(modules, NO_NETWORK + NOT_FOR_HELP) == []


@pytest.mark.parametrize("words", [("runs", "list"), ("runs", "show", "1"), ("export", "1", "-o", "OUT"),
                                   ("import", "FILE")], ids=["runs list", "runs show", "export", "import"])
def test_a_command_on_the_run_database_loads_no_network_and_no_mcp_sdk(stored: Path, tmp_path: Path,
                                                                      words: tuple[str, ...]) -> None:
    words = tuple(str(tmp_path / "out.json") if word == "OUT" else word for word in words)
    modules = _modules_with(stored, tmp_path, *words)
    assert "inspector.store.run_store" in modules  # the probe saw the command's work
    assert _loaded(modules, NO_NETWORK) == []
    if words[0] in ("export", "import"):  # no date or number said in the reader's language: no Babel
        assert _loaded(modules, ("babel",)) == []


def test_a_scenario_against_a_server_loads_no_demo_server_and_no_mcp_sdk(demo_url: str, tmp_path: Path) -> None:
    modules = _modules(tmp_path, "scenario", "happy-path", "--server", demo_url)
    assert "inspector.agent.loop" in modules  # the probe saw the command's work
    assert _loaded(modules, ("inspector.demo", "mcp", "mcp_types", "pydantic", "uvicorn", "starlette", "sqlite_utils",
                             "PySide6", "shiboken6")) == []


def test_a_command_builds_its_own_grammar_alone(demo_url: str, tmp_path: Path) -> None:
    """Adding every command's words cost 7.5 ms of CPU on each start (benchmarks/README.md, section 12)."""
    probe = ("import sys\n"
             "from inspector.cli import main\n"
             "from inspector.cli import parser as grammar\n"
             "built = []\n"
             "whole = grammar.build_parser\n"
             "grammar.build_parser = lambda argv=None: built.append(argv) or whole(argv)\n"
             "import inspector.cli.app as app\n"
             "app.build_parser = grammar.build_parser\n"
             "status = main(sys.argv[1:])\n"
             "assert built and all(argv is not None for argv in built), built\n"
             "sys.exit(status)\n")
    done = subprocess.run([sys.executable, "-c", probe, "runs", "list"], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "RUN_INSPECTOR_DB": str(tmp_path / "runs.db")})
    assert done.returncode == 0, done.stderr


# -- how the process starts and ends (inspector.cli.process) ------------------------------------------


def _command(tmp_path: Path, *words: str, flags: tuple[str, ...] = ()) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *flags, "-m", "inspector", *words], capture_output=True, text=True,
                          timeout=60, env={**os.environ, "RUN_INSPECTOR_DB": str(tmp_path / "runs.db")})


def test_the_process_never_loads_httpx_own_command_line(demo_url: str, tmp_path: Path) -> None:
    done = _command(tmp_path, "call", demo_url, "echo", "--args", '{"text": "x"}', "--no-store",
                    flags=("-X", "importtime"))
    assert done.returncode == 0, done.stderr
    loaded = {line.rsplit("|", 1)[1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")}
    assert "httpx" in loaded and "inspector.cli.operations" in loaded  # the importtime lines were read
    assert not {"click", "pygments", "rich"} & loaded  # (httpx._main is listed: a 5 µs refusal)


def test_a_stored_call_ends_fast_with_its_output_whole_and_its_database_closed(demo_url: str,
                                                                               tmp_path: Path) -> None:
    text = "x" * 100_000  # more than a pipe holds: the output must be flushed before the process vanishes
    done = _command(tmp_path, "call", demo_url, "echo", "--args", json.dumps({"text": text}), "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert text in json.dumps(report)
    db = tmp_path / "runs.db"
    assert db.exists() and not Path(f"{db}-wal").exists()  # the store closed (its journal folded in) first
    listed = _command(tmp_path, "runs", "list", "--json")
    assert [run["status"] for run in json.loads(listed.stdout)["runs"]] == ["ok"]


def test_a_failed_command_ends_with_its_own_status(tmp_path: Path) -> None:
    done = _command(tmp_path, "call", "http://127.0.0.1:9/mcp", "echo", "--no-store", "--budget", "2", "--json")
    assert done.returncode == 1, done.stderr
    assert json.loads(done.stdout)["error"]["kind"] == "unreachable"
    usage = _command(tmp_path, "call")
    assert usage.returncode == 2 and "call SERVER TOOL" in usage.stderr


def test_main_called_in_process_leaves_collection_as_it_found_it(tmp_path: Path) -> None:
    import gc

    from inspector.cli import main

    frozen = gc.get_freeze_count()
    assert gc.isenabled()
    assert main(["--db", str(tmp_path / "runs.db"), "runs", "list", "--json"]) == 0
    assert gc.isenabled() and gc.get_freeze_count() == frozen
