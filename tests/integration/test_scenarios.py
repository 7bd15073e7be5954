"""Each shipped scenario played headless, through the command line, against a demo server."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from inspector.agent import shipped_scenarios
from inspector.cli import main
from inspector.store import RunStore, ServerRegistry
from tests.support.cli_process import cli_here

# (status, exit code, [(kind, round, outcome, tool)]) that each shipped scenario must end with.
EXPECTED = {
    "happy-path": ("ok", 0, [
        ("llm", 1, "", None), ("tool", 1, "ok", "echo"),
        ("llm", 2, "", None), ("tool", 2, "ok", "add"), ("tool", 2, "ok", "write_note"),
        ("llm", 3, "", None), ("tool", 3, "ok", "list_notes"), ("llm", 4, "", None)]),
    "flaky-server": ("failed", 1, [
        ("llm", 1, "", None), ("tool", 1, "ok", "flaky"),
        ("llm", 2, "", None), ("tool", 2, "failed", "flaky"),
        ("llm", 3, "", None), ("tool", 3, "ok", "flaky"),
        ("llm", 4, "", None), ("tool", 4, "ok", "describe_image"), ("llm", 5, "", None)]),
    "user-cancels": ("cancelled", 130, [
        ("llm", 1, "", None), ("tool", 1, "ok", "write_note"),
        ("llm", 2, "", None), ("tool", 2, "cancelled", "hang")]),
    "slow-handshake": ("failed", 1, [
        ("llm", 1, "", None), ("tool", 1, "failed", "echo"), ("llm", 2, "", None)]),
    "long-catalogue": ("ok", 0, [
        ("request", 0, "", None), ("llm", 1, "", None), ("tool", 1, "ok", "lookup_117"), ("llm", 2, "", None)]),
    # The command line offers no questions to the server: ask_user says it was declined (the window asks).
    "user-answers": ("ok", 0, [
        ("llm", 1, "", None), ("tool", 1, "ok", "ask_user"),
        ("llm", 2, "", None), ("tool", 2, "ok", "write_note"), ("llm", 3, "", None)]),
}


def play(name: str, db: Path, capsys, *extra: str) -> tuple[int, dict]:
    code = main(["scenario", name, "--json", "--db", str(db), *extra])
    out = capsys.readouterr().out
    return code, json.loads(out)


@pytest.fixture(scope="module")
def slow_handshake(tmp_path_factory: pytest.TempPathFactory) -> tuple[int, dict, Path]:
    """slow-handshake played once for the tests that only read what it did (each play spends its 3 s
    budget): the exit code, the --json report and the database."""
    db = tmp_path_factory.mktemp("slow-handshake") / "runs.db"
    done = cli_here("--lang", "en", "scenario", "slow-handshake", "--json", "--db", str(db))
    return done.returncode, json.loads(done.stdout), db


def test_the_six_scenarios_are_shipped():
    assert sorted(shipped_scenarios()) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_shipped_scenario_ends_as_expected(name, tmp_path, capsys, request):
    if name == "slow-handshake":
        code, report, db = request.getfixturevalue("slow_handshake")
    else:
        db = tmp_path / "runs.db"
        code, report = play(name, db, capsys)
    status, exit_code, steps = EXPECTED[name]
    assert report["status"] == status
    assert code == exit_code
    assert [(s["kind"], s["round"], s["outcome"], s.get("tool")) for s in report["steps"]] == steps
    with RunStore.open(db) as store:
        run = store.get_run(report["run_id"])
        assert (run.source, run.status, run.step_count) == ("scenario", status, len(steps))
        stored = [(s.step.kind.value, s.step.round, s.outcome) for s in store.iter_steps(run.id)]
        assert stored == [(kind, round_, outcome) for kind, round_, outcome, _ in steps]
        # The demo server started for the run alone is not left among the servers (its address died with it).
        assert run.server.startswith("http://127.0.0.1:") and ServerRegistry(store.db).all() == []


def play_on_a_server_of_its_own(name: str, db: Path, capsys) -> tuple[int, dict]:
    """Play on a demo server started here with the scenario's modes (its health is recorded:
    the server is named with --server, not started for the run alone)."""
    from inspector.agent import load_scenario
    from inspector.demo import DemoOptions, DemoServer

    server = DemoServer(DemoOptions(**load_scenario(name).demo_server))
    url = server.start()
    try:
        return play(name, db, capsys, "--server", url)
    finally:
        server.stop()


def test_user_cancels_is_a_cancel_in_flight_and_no_fault(tmp_path, capsys):
    db = tmp_path / "runs.db"
    code, report = play_on_a_server_of_its_own("user-cancels", db, capsys)
    hang = report["steps"][-1]
    assert (hang["tool"], hang["outcome"], hang["cancelled_in_flight"]) == ("hang", "cancelled", True)
    with RunStore.open(db) as store:
        run = store.get_run(report["run_id"])
        health = ServerRegistry(store.db).get(run.server)
    assert (health.ok_count, health.failed_count, health.cancelled_count) == (1, 0, 1)


def test_slow_handshake_refuses_a_leg_for_the_exhausted_budget(slow_handshake):
    code, report, db = slow_handshake
    with RunStore.open(db) as store:
        tool = [s.step for s in store.iter_steps(report["run_id"]) if s.step.kind.value == "tool"][0]
    assert [(leg.method, leg.outcome) for leg in tool.legs] == [
        ("initialize", "ok"), ("notifications/initialized", "ok"), ("tools/call", "not_sent")]
    assert tool.legs[-1].granted_s is None
    assert "3-second budget" in tool.tool_result and "not asked" in tool.tool_result
    assert report["steps"][-1]["content"].startswith("The server used the whole budget")


def test_long_catalogue_walks_every_page(tmp_path, capsys):
    db = tmp_path / "runs.db"
    code, report = play("long-catalogue", db, capsys)
    with RunStore.open(db) as store:
        steps = [s.step for s in store.iter_steps(report["run_id"])]
    listing, first_llm = steps[0], steps[1]
    assert [leg.method for leg in listing.legs].count("tools/list") == 13  # 130 tools, 10 a page
    assert len(first_llm.tool_specs) == 130


def test_user_answers_says_nothing_the_command_line_s_decline_belies(tmp_path, capsys):
    """The command line declines the question: the model's words must hold for that ending as for an
    answer in the window. It asked "What should the note say?", wrote a note of its own words whatever the
    answer, and ended "Done: you were asked, and a note was kept." where nobody was asked."""
    db = tmp_path / "runs.db"
    code, report = play("user-answers", db, capsys)
    with RunStore.open(db) as store:
        ask, note = [s.step for s in store.iter_steps(report["run_id"]) if s.step.kind.value == "tool"]
    assert ask.tool_result.startswith("The question was declined")
    assert "note" not in ask.tool_arguments["question"]  # its answer is never the note's text
    assert note.tool_arguments["text"] == "asked the user"
    assert report["steps"][-1]["content"] == "Done: the question went out, and a note says so."


def test_on_a_terminal_a_line_says_the_scenario_plays_until_it_is_printed(tmp_path):
    """user-cancels at a terminal printed nothing for 4 s (a fresh demo server's start, then the hang until
    the cancel): a demo audience watched a silent command. Now a line on standard error says it plays, from
    before the demo server starts, and is cleared before the run is printed."""
    import os
    import pty
    import subprocess
    import sys
    import time

    from inspector.cli.progress import CLEAR_LINE
    from tests.support.pty_reading import read_until_closed

    root = Path(__file__).resolve().parents[2]
    main_side, secondary = pty.openpty()
    try:
        process = subprocess.Popen(
            [sys.executable, "-m", "inspector", "--lang", "en", "scenario", "user-cancels", "--db",
             str(tmp_path / "runs.db")],
            stdout=subprocess.PIPE, stderr=secondary, stdin=subprocess.DEVNULL, cwd=root)
        os.close(secondary)
        first = read_until_closed_once(main_side)
        said_at = time.monotonic()
        rest = read_until_closed(main_side, 30, 4096)
        stdout, _ = process.communicate(timeout=30)
        ended_at = time.monotonic()
    finally:
        os.close(main_side)
    assert process.returncode == 130
    terminal = (first + rest).decode()
    assert terminal.startswith(CLEAR_LINE + "Playing the scenario user-cancels… Ctrl+C cancels it.")
    assert terminal.endswith(CLEAR_LINE), "the line was not cleared before the run was printed"
    assert ended_at - said_at > 1.5, "said only as the run ended"
    assert stdout.startswith(b"Run ") and b"\x1b" not in stdout


def read_until_closed_once(main_side: int) -> bytes:
    """The first thing written to the terminal (waiting up to 30 s for it)."""
    import os
    import select

    ready, _, _ = select.select([main_side], [], [], 30)
    try:
        return os.read(main_side, 4096) if ready else b""
    except OSError:  # closed with nothing written: the process is gone
        return b""


def test_cancel_after_overrides_and_the_model_is_told_nothing_more(tmp_path, capsys):
    db = tmp_path / "runs.db"
    # Cancelled at once: the first model step may or may not have been recorded, nothing after it.
    code, report = play("happy-path", db, capsys, "--cancel-after", "0.001")
    assert code == 130 and report["status"] == "cancelled"
    assert all(step["kind"] == "llm" or step["outcome"] == "cancelled" for step in report["steps"])


def test_scenario_list(capsys):
    assert main(["scenario", "--list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == sorted(EXPECTED)
    assert all(len(line.split(None, 1)[1]) > 20 for line in lines)


def test_scenario_without_json_prints_the_run_as_runs_show_does(tmp_path, capsys):
    db = tmp_path / "runs.db"
    assert main(["scenario", "happy-path", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Run 1: scenario happy-path")
    assert "status ok, source scenario" in out
    assert "The model's answer: Done: the sum is 42" in out
    assert main(["runs", "show", "1", "--db", str(db)]) == 0
    assert capsys.readouterr().out in out


BAD_FILES = {
    "not json": ('{"scenario": 1,', "line 1, column 16"),
    "no rounds": ('{"scenario": 1, "name": "x", "description": "d", "prompt": "p", "rounds": []}', "at rounds:"),
    "bad call": ('{"scenario": 1, "name": "x", "description": "d", "prompt": "p", '
                 '"rounds": [{"say": "a"}, {"calls": [{"tool": 5}]}]}', "at rounds[1].calls[0].tool:"),
    "bad reaction": ('{"scenario": 1, "name": "x", "description": "d", "prompt": "p", '
                     '"rounds": [{"calls": [], "on_failure": "panic"}]}', "at rounds[0].on_failure:"),
    "unknown key": ('{"scenario": 1, "name": "x", "description": "d", "prompt": "p", "rounds": [{}], "colour": 1}',
                    "at colour:"),
    "bad server": ('{"scenario": 1, "name": "x", "description": "d", "prompt": "p", "rounds": [{}], '
                   '"demo_server": {"page_size": 0}}', "at demo_server.page_size:"),
    "wrong version": ('{"scenario": 2}', "at scenario:"),
    "catalogue too big": ('{"scenario": 1, "name": "x", "description": "d", "prompt": "p", "list_tools": true, '
                          '"demo_server": {"page_size": 10, "catalogue_size": 100000000}, "rounds": [{}]}',
                          "at demo_server.catalogue_size: expected a whole number from 1 to 10,000"),
    # A budget that overflowed what is stored of each leg (an OverflowError after the run was stored).
    "budget past a week": ('{"scenario": 1, "name": "x", "description": "d", "prompt": "p", "budget_s": 1e308, '
                           '"rounds": [{"calls": [{"tool": "echo", "arguments": {"text": "hi"}}]}]}',
                           "at budget_s: expected at most 604,800 seconds (a week)"),
    # Arguments nested past what is stored and exported; a file nested past Python's own stack.
    "deep arguments": ('{"scenario": 1, "name": "x", "description": "d", "prompt": "p", "rounds": [{"calls": '
                       '[{"tool": "echo", "arguments": {"text": ' + "[" * 300 + "]" * 300 + '}}]}]}',
                       "at rounds[0].calls[0].arguments: nested deeper than 100 levels"),
    "deep file": ('{"scenario": 1, "rounds": ' + "[" * 100_000 + "]" * 100_000 + "}",
                  "is not valid: nested deeper than 100 levels"),
    # Valid JSON, but not text: it could be sent, never stored.
    "lone surrogate": ('{"scenario": 1, "name": "x", "description": "d", "prompt": "p", '
                       '"rounds": [{"say": "a"}, {"calls": [{"tool": "echo", "arguments": {"text": "\\ud800"}}]}]}',
                       "at rounds[1].calls[0].arguments.text: holds something that is not text"),
    "not utf-8": (b'{"scenario": 1,\n "name": "caf\xe9"}', "is not UTF-8 text at line 2, column 14"),
    "not utf-8 after a byte order mark": (b'\xef\xbb\xbf{"scenario": 1, "name": "caf\xe9"}',
                                          "is not UTF-8 text at line 1, column 29"),
}


@pytest.mark.parametrize("case", sorted(BAD_FILES))
def test_a_bad_scenario_file_is_one_sentence_and_nothing_is_stored(case, tmp_path, capsys):
    text, place = BAD_FILES[case]
    path = tmp_path / "bad.json"
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    db = tmp_path / "runs.db"
    assert main(["scenario", str(path), "--db", str(db)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    message = captured.err.strip()
    assert place in message and str(path) in message
    assert message.count("\n") == 0 and message.endswith(".")
    assert not db.exists() or RunStore.open(db).list_runs() == []


def test_a_scenario_file_saved_with_a_byte_order_mark_plays(tmp_path, capsys):
    path = tmp_path / "notepad.json"  # as Notepad on Windows saves "UTF-8 with BOM"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps({"scenario": 1, "name": "bom", "description": "d", "prompt": "p",
                                                   "rounds": [{"say": "Hello."}]}).encode("utf-8"))
    code, report = play(str(path), tmp_path / "runs.db", capsys)
    assert code == 0 and report["status"] == "ok" and report["steps"][0]["content"] == "Hello."


def test_an_unknown_scenario_name_is_a_usage_error(capsys):
    assert main(["scenario", "no-such-scenario"]) == 2
    assert "the shipped ones are flaky-server, happy-path" in capsys.readouterr().err


def test_a_scenario_file_plays_against_a_given_server(tmp_path, capsys):
    from inspector.demo import DemoServer

    path = tmp_path / "mine.json"
    path.write_text(json.dumps({"scenario": 1, "name": "mine", "description": "d", "prompt": "p",
                                "rounds": [{"say": "s", "calls": [{"tool": "fail", "arguments": {}}],
                                            "on_failure": "stop"}], "give_up": "It failed, I stop."}))
    with DemoServer() as server:
        code, report = play(str(path), tmp_path / "runs.db", capsys, "--server", server.url)
    assert code == 1 and report["status"] == "failed"
    assert [s["outcome"] for s in report["steps"]] == ["", "failed", ""]
    assert report["steps"][-1]["content"] == "It failed, I stop."


def test_scenario_list_as_json(capsys):
    assert main(["scenario", "--list", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)["scenarios"]
    assert [item["name"] for item in listed] == sorted(EXPECTED)


@pytest.mark.parametrize("stop", ["SIGINT", "SIGTERM"])
def test_ctrl_c_or_sigterm_cancels_the_run_as_cancel_after_does(tmp_path, stop):
    import os
    import signal
    import subprocess
    import sys

    from inspector.demo import DemoServer

    path = tmp_path / "wait.json"
    path.write_text(json.dumps({"scenario": 1, "name": "wait", "description": "d", "prompt": "p",
                                "rounds": [{"calls": [{"tool": "hang"}]}, {"calls": [{"tool": "echo"}]}]}))
    db = tmp_path / "runs.db"
    with DemoServer() as server:
        process = subprocess.Popen([sys.executable, "-m", "inspector", "scenario", str(path), "--server", server.url,
                                    "--json", "--db", str(db)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   text=True, env=os.environ.copy())
        try:
            assert server.state.hang_started.wait(30)
            process.send_signal(getattr(signal, stop))
            out, err = process.communicate(timeout=15)
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
        assert server.state.hang_cancelled.wait(5)
    assert process.returncode == 130, err
    report = json.loads(out)
    assert report["status"] == "cancelled"
    assert [(s["kind"], s["outcome"], s.get("cancelled_in_flight")) for s in report["steps"]] == [
        ("llm", "", None), ("tool", "cancelled", True)]


def test_a_cancelled_run_does_not_make_the_rest_of_the_rounds_calls(tmp_path):
    import asyncio
    import threading

    from inspector.agent import AgentRun, ScriptedModel, parse_scenario
    from inspector.demo import DemoServer
    from inspector.mcp import ServerEndpoint

    scenario = parse_scenario(json.dumps({
        "scenario": 1, "name": "two", "description": "d", "prompt": "p",
        "rounds": [{"calls": [{"tool": "hang"}, {"tool": "write_note", "arguments": {"text": "never"}}]}]}), "t")
    with DemoServer() as server:
        run = AgentRun(ScriptedModel(scenario), ServerEndpoint(server.url), scenario.prompt)

        def cancel_when_hanging() -> None:
            assert server.state.hang_started.wait(10)
            run.cancel()

        threading.Thread(target=cancel_when_hanging, daemon=True).start()
        outcome = asyncio.run(run.run())
        assert server.state.notes_snapshot() == []
    assert outcome.status == "cancelled"
    assert [(s.kind.value, s.tool_name) for s in outcome.trace.steps] == [("llm", None), ("tool", "hang")]


def test_a_flaky_tool_is_counted_as_a_tool_error_not_as_ok(tmp_path, capsys):
    db = tmp_path / "runs.db"
    code, report = play_on_a_server_of_its_own("flaky-server", db, capsys)
    with RunStore.open(db) as store:
        run = store.get_run(report["run_id"])
        health = ServerRegistry(store.db).get(run.server)
    failed_tools = [s for s in report["steps"] if s["kind"] == "tool" and s["outcome"] == "failed"]
    # The server answered (contact), the tool reported its own error: the fourth count, not "ok".
    assert health.tool_error_count == len(failed_tools) == 1
    assert health.failed_count == 0 and health.last_contact_at is not None


def test_the_leg_the_budget_never_let_go_is_said_not_sent_in_both_languages(tmp_path):
    from tests.integration.test_cli_language import cli

    env = {"RUN_INSPECTOR_DB": str(tmp_path / "runs.db"), "LANG": "en_US.UTF-8"}
    english = cli("scenario", "slow-handshake", env=env)
    assert english.returncode == 1, english.stderr
    refused = [line for line in english.stdout.splitlines() if line.strip().startswith("tools/call ")]
    # It printed the stored "not_sent" as it is, in English and in German.
    assert len(refused) == 1 and refused[0].endswith("  not sent") and "not_sent" not in english.stdout
    german = cli("--lang", "de", "runs", "show", "1", env=env)
    assert german.returncode == 0, german.stderr
    refused = [line for line in german.stdout.splitlines() if line.strip().startswith("tools/call ")]
    assert len(refused) == 1 and refused[0].endswith("  nicht gesendet") and "not_sent" not in german.stdout


def test_a_call_cancelled_before_the_server_answered_is_not_blamed_on_the_server(tmp_path):
    from tests.integration.test_cli_language import cli

    env = {"RUN_INSPECTOR_DB": str(tmp_path / "runs.db"), "LANG": "en_US.UTF-8"}
    english = cli("scenario", "user-cancels", env=env)
    assert english.returncode == 130, english.stderr
    # It said "Tried over Streamable HTTP: no answer from the server" under the cancelled `hang`.
    assert "Tried over Streamable HTTP: cancelled before the server answered" in english.stdout
    assert "no answer from the server" not in english.stdout
    german = cli("--lang", "de", "runs", "show", "1", env=env)
    assert "Über Streamable HTTP versucht: abgebrochen, bevor der Server antwortete" in german.stdout
    assert "keine Antwort vom Server" not in german.stdout


def test_a_shipped_scenario_is_played_in_the_reader_s_language(tmp_path):
    """A demo in German is German throughout: the prompt, what the model says, what it gives the
    tools, its answer. The stored run keeps those words; the JSON's keys do not change."""
    from tests.integration.test_cli_language import cli

    env = {"RUN_INSPECTOR_DB": str(tmp_path / "runs.db"), "LANG": "de_DE.UTF-8"}
    played = cli("scenario", "happy-path", "--json", env=env)
    assert played.returncode == 0, played.stderr
    said = [step.get("content") for step in json.loads(played.stdout)["steps"] if step["kind"] == "llm"]
    assert said == ["Zuerst begrüße ich Sie.", "Jetzt die Summe, und eine Notiz dazu.",
                    "Ich lese die Notizen noch einmal vor.", "Fertig: Die Summe ist 42 und als Notiz behalten."]
    shown = cli("--lang", "en", "runs", "show", "1", "--json", env=env)
    assert shown.returncode == 0, shown.stderr
    stored = json.dumps(json.loads(shown.stdout), ensure_ascii=False)
    # the prompt, an argument, and the answer of the demo server started for the run (it speaks German too)
    for german in ("Sag Hallo, addiere 2 und 40", "Hallo aus der Demo!", "Notiz 1 geschrieben."):
        assert german in stored, german
    assert "Say hello" not in stored and "Hello from the demo!" not in stored


def test_a_played_scenario_s_title_is_stored_in_english_and_said_in_the_reader_s_language(tmp_path):
    """One database held "Szenario happy-path" beside "scenario happy-path", and a German run's export
    said "Szenario" to an English reader: the title is ours, stored in English as `--json`, exports and
    the database keep our words, and said in the reader's language (the run's played words are data)."""
    from tests.integration.test_cli_language import cli

    env = {"RUN_INSPECTOR_DB": str(tmp_path / "runs.db"), "LANG": "en_US.UTF-8"}
    german = cli("--lang", "de", "scenario", "happy-path", env=env)
    assert german.returncode == 0, german.stderr
    assert german.stdout.startswith("Lauf 1: Szenario happy-path"), german.stdout
    english = cli("scenario", "happy-path", env=env)
    assert english.returncode == 0, english.stderr
    with RunStore.open(tmp_path / "runs.db") as store:
        assert [store.get_run(run_id).title for run_id in (1, 2)] == ["scenario happy-path", "scenario happy-path"]
    with sqlite3.connect(tmp_path / "runs.db") as db:  # as a German run was stored before
        db.execute("UPDATE runs SET title = 'Szenario happy-path' WHERE id = 1")
    listed = cli("--lang", "de", "runs", "list", env=env)
    assert listed.returncode == 0, listed.stderr
    assert [line.endswith("Szenario happy-path") for line in listed.stdout.splitlines()[1:]] == [True, True]
    listed = cli("runs", "list", env=env)
    assert [line.endswith("scenario happy-path") for line in listed.stdout.splitlines()[1:]] == [True, True]
    as_json = cli("--lang", "de", "runs", "list", "--json", env=env)
    assert [run["title"] for run in json.loads(as_json.stdout)["runs"]] == ["scenario happy-path",
                                                                         "Szenario happy-path"]


def test_a_cancel_during_the_slow_handshake_leaves_the_demo_server_nothing_to_cut_off(tmp_path):
    """The fresh demo server's handshake wait ends when its client leaves: it printed uvicorn's
    "timeout graceful shutdown exceeded" and a CancelledError traceback when it stopped."""
    from tests.integration.test_cli_language import cli

    env = {"RUN_INSPECTOR_DB": str(tmp_path / "runs.db"), "LANG": "en_US.UTF-8"}
    played = cli("scenario", "slow-handshake", "--cancel-after", "0.5", env=env)
    assert played.returncode == 130, played.stderr
    assert "cancelled" in played.stdout
    assert played.stderr == ""
