"""Signing in from the command line: a protected server's call signs in through the browser
(``BROWSER`` replaced by a program that follows the redirect), then runs afresh; the flags of a
pre-registered or machine client; nothing secret in the output."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.auth_config import PRE_REGISTERED_ID, PRE_REGISTERED_SECRET, AuthConfig, pre_registered
from tests.support.auth_server import serve_auth_server
from tests.support.secret_search import assert_nowhere

FOLLOW = Path(__file__).resolve().parents[1] / "support" / "follow_redirect.py"
pytestmark = pytest.mark.timeout(90)


def run_cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "BROWSER": f"{sys.executable} {FOLLOW} %s", **(env or {})}
    store = [] if args[0] in ("signin", "signout") else ["--no-store"]
    return subprocess.run([sys.executable, "-m", "inspector", *args, *store], capture_output=True, text=True,
                          env=environment, timeout=60)


def stored_call(database: Path, url: str) -> subprocess.CompletedProcess[str]:
    """`call URL echo` stored in ``database``, signing in through the browser that follows the redirect."""
    environment = {**os.environ, "BROWSER": f"{sys.executable} {FOLLOW} %s"}
    return subprocess.run([sys.executable, "-m", "inspector", "call", url, "echo", "--args", '{"text": "hi"}', "--db",
                           str(database)], capture_output=True, text=True, env=environment, timeout=60)


def shown_steps(database: Path) -> list[dict]:
    """The steps of run 1 as `runs show --json` gives them, in its order."""
    shown = subprocess.run([sys.executable, "-m", "inspector", "runs", "show", "1", "--json", "--db", str(database)],
                           capture_output=True, text=True, timeout=60, check=True)
    return [entry["step"] if "step" in entry else entry for entry in json.loads(shown.stdout)["timeline"]]


def test_a_call_signs_in_through_the_browser_then_runs_afresh_with_its_whole_budget():
    with serve_auth_server() as auth:
        done = run_cli("call", auth.mcp_url, "echo", "--args", '{"text": "hi"}', "--json", "--budget", "15")
        issued = auth.secrets()
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["outcome"] == "ok" and report["waited_for_signin"] == 1
    assert report["legs"][0]["granted_s"] == 15  # the call started afresh: its first leg had the whole budget
    assert "asks for a sign-in" in done.stderr and "run-inspector: Getting the token: " in done.stderr
    assert "/authorize?" in done.stderr  # the address is printed, for a machine without a browser
    assert issued and not any(secret in done.stdout + done.stderr for secret in issued)


def test_a_pre_registered_client_signs_in_with_its_secret_from_the_environment():
    config = AuthConfig(clients=[pre_registered("client_secret_post")], registration=False,
                        token_auth_methods=("client_secret_post",))
    with serve_auth_server(config) as auth:
        done = run_cli("tools", auth.mcp_url, "--client-id", PRE_REGISTERED_ID, "--client-secret-env", "SECRET_HERE",
                       env={"SECRET_HERE": PRE_REGISTERED_SECRET})
        token = auth.requests("/token")[0].form
    assert done.returncode == 0, done.stderr
    assert token["client_id"] == PRE_REGISTERED_ID and token["client_secret"] == PRE_REGISTERED_SECRET
    assert PRE_REGISTERED_SECRET not in done.stdout + done.stderr


def test_a_machine_client_signs_in_with_client_credentials_and_no_browser():
    config = AuthConfig(clients=[pre_registered("client_secret_basic")], registration=False)
    with serve_auth_server(config) as auth:
        done = run_cli("call", auth.mcp_url, "echo", "--args", '{"text": "hi"}', "--client-id", PRE_REGISTERED_ID,
                       "--client-secret-env", "SECRET_HERE", "--grant", "client-credentials",
                       env={"SECRET_HERE": PRE_REGISTERED_SECRET, "BROWSER": "false"})
        token = auth.requests("/token")[0]
    assert done.returncode == 0, done.stderr
    assert token.form["grant_type"] == "client_credentials" and token.authorization.startswith("Basic ")
    assert not auth.requests("/authorize")


def test_a_server_that_keeps_asking_for_a_larger_scope_is_stopped_after_three_sign_ins():
    with serve_auth_server(AuthConfig(endless_step_up=True)) as auth:
        done = run_cli("call", auth.mcp_url, "write_note", "--args", '{"text": "x"}', "--json")
        sign_ins = len(auth.requests("/token"))
    assert done.returncode == 1
    assert json.loads(done.stdout)["error"]["kind"] == "signin_required"
    assert sign_ins == 3


def test_a_failed_sign_in_names_its_step():
    with serve_auth_server(AuthConfig(iss_value="https://evil.example")) as auth:
        done = run_cli("call", auth.mcp_url, "echo", "--args", '{"text": "hi"}', "--json")
    assert done.returncode == 1
    error = json.loads(done.stdout)["error"]
    assert error["kind"] == "signin_failed"
    assert "failed at the step “Signing in in the browser”: " in error["message"], error["message"]


def test_a_failed_sign_in_is_stored_after_the_refused_attempt_that_asked_for_it(tmp_path):
    """The refusal was written after the sign-in it led to: `runs show` listed #2 (the call, earlier) above #1."""
    database = tmp_path / "runs.db"
    with serve_auth_server(AuthConfig(iss_value="https://evil.example")) as auth:
        done = stored_call(database, auth.mcp_url)
    assert done.returncode == 1, done.stderr
    steps = shown_steps(database)
    assert [(step["sequence"], step["kind"]) for step in steps] == [(1, "tool"), (2, "request")]
    assert "needs a sign-in" in steps[0]["details"] and steps[1]["details"].startswith("sign-in: Signing in to ")
    assert steps[0]["time"] < steps[1]["time"]
    text = subprocess.run([sys.executable, "-m", "inspector", "runs", "show", "1", "--db", str(database), "--lang",
                           "en"], capture_output=True, text=True, timeout=60, check=True).stdout
    assert [line.split()[0] for line in text.splitlines() if re.match(r"\d+ ", line)] == ["1", "2"]


def test_a_missing_secret_variable_is_a_usage_error_before_anything_is_sent():
    with serve_auth_server() as auth:
        done = run_cli("call", auth.mcp_url, "echo", "--client-id", "x", "--client-secret-env", "NOT_SET_ANYWHERE_21")
        seen = auth.requests()
    assert done.returncode == 2 and "NOT_SET_ANYWHERE_21" in done.stderr
    assert not seen


@pytest.mark.parametrize("budget", ["5m", "0", "nan", "1e12"])
def test_an_unusable_sign_in_budget_is_refused_before_anything_is_sent(budget):
    """`signin --budget 5m` signed in on 20 s (an operation's default, not the sign-in's 300 s), and
    1e12 was taken whole: refused now, as every other command refuses them."""
    with serve_auth_server() as auth:
        done = run_cli("signin", auth.mcp_url, "--budget", budget)
        seen = auth.requests()
    assert done.returncode == 2 and "run-inspector: --budget must be " in done.stderr
    assert not seen


def test_the_stored_run_shows_the_sign_in_it_waited_for_as_a_step_before_the_call(tmp_path):
    database = tmp_path / "runs.db"
    with serve_auth_server() as auth:
        done = stored_call(database, auth.mcp_url)
        issued = auth.secrets()
    assert done.returncode == 0, done.stderr
    steps = shown_steps(database)
    assert [step["kind"] for step in steps] == ["request", "tool"]
    assert [step["sequence"] for step in steps] == [1, 2] and steps[0]["time"] < steps[1]["time"]
    assert steps[0]["details"].startswith("sign-in: signed in with " + auth.issuer)
    assert [leg["method"] for leg in steps[0]["payload"]["legs"]][-1] == "sign-in: token"
    assert issued and not any(secret.encode() in database.read_bytes() for secret in issued)


def test_a_sign_in_kept_in_the_keyring_serves_later_commands_until_signout(tmp_path, file_keyring):
    database = tmp_path / "runs.db"
    with serve_auth_server() as auth:
        signed = run_cli("signin", auth.mcp_url, "--json")
        assert signed.returncode == 0, signed.stderr
        report = json.loads(signed.stdout)
        # A later command, without a browser, carries the kept token.
        listed = subprocess.run([sys.executable, "-m", "inspector", "tools", auth.mcp_url, "--db", str(database)],
                                capture_output=True, text=True, env={**os.environ, "BROWSER": "false"}, timeout=60)
        exported = tmp_path / "export.json"
        subprocess.run([sys.executable, "-m", "inspector", "export", "--all", "-o", str(exported), "--db",
                        str(database)], capture_output=True, text=True, timeout=60, check=True)
        issued = auth.secrets()
        kept = [name for name in file_keyring.entries() if name.startswith("signin tokens")]
        signed_out = run_cli("signout", auth.mcp_url)
        left = [name for name in file_keyring.entries() if name.startswith("signin tokens")]
        again = run_cli("signout", auth.mcp_url)  # nothing left to forget: it does not claim it forgot tokens
    assert report["signed_in"] and report["kept"] and report["issuer"] == auth.issuer
    # In UTC, ending in "Z" as every other time of --json does (jq's fromdateiso8601 reads it).
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", report["expires_at"]), report["expires_at"]
    assert listed.returncode == 0, listed.stderr
    assert "asks for a sign-in" not in listed.stderr and not auth.requests("/authorize")[1:]
    assert kept and not left and signed_out.returncode == 0
    assert "its tokens are forgotten" in signed_out.stdout + signed_out.stderr
    assert again.returncode == 0 and "there was nothing to forget" in again.stdout + again.stderr
    assert "its tokens are forgotten" not in again.stdout + again.stderr
    # Nothing secret in the database, the export, the output, or a child's command line.
    assert_nowhere(sorted(issued), database=database, files=[exported])
    assert not any(secret in signed.stdout + signed.stderr + listed.stdout + listed.stderr for secret in issued)


def test_a_command_on_a_server_that_never_asks_for_a_sign_in_never_looks_for_the_keyring(tmp_path):
    """Finding a keyring backend costs about 0.2 s: a call to an open server does not pay it."""
    from tests.support.asgi_server import serve_asgi
    from tests.support.sdk_server import build_sdk_server

    script = ("import sys; from inspector.cli import main; status = main(sys.argv[1:]); "
              "print('keyring' in sys.modules, status)")
    with serve_asgi(build_sdk_server().streamable_http_app()) as url:
        done = subprocess.run([sys.executable, "-c", script, "tools", url, "--db", str(tmp_path / "runs.db")],
                              capture_output=True, text=True, timeout=60)
    assert done.stdout.strip().splitlines()[-1] == "False 0", done.stdout + done.stderr


def test_the_steps_of_a_sign_in_are_said_in_words_in_the_readers_language(capsys):
    """Each step's line began with its leg's name ("run-inspector: sign-in: resource metadata: Der Server
    veröffentlicht …"), English in German output; now as the window's sign-in view names it."""
    from inspector.cli import main
    from inspector.demo import DemoServer

    with DemoServer() as demo:  # no sign-in metadata, no client registration: it fails at registering
        assert main(["signin", demo.url, "--budget", "5"]) == 1
        english = capsys.readouterr().err.splitlines()
        assert main(["--lang", "de", "signin", demo.url, "--budget", "5"]) == 1
        german = capsys.readouterr().err.splitlines()
    assert english[0].startswith("run-inspector: Finding the server's sign-in metadata: The server publishes no ")
    assert english[1].startswith("run-inspector: Finding the authorization server: ")
    assert german[0].startswith("run-inspector: Anmelde-Metadaten des Servers finden: Der Server veröffentlicht ")
    assert german[1].startswith("run-inspector: Autorisierungsserver finden: ")


def ctrl_c_while_the_browser_is_awaited(*args: str) -> tuple[int, str, str]:
    """Run the command (its arguments after ``-m inspector``) with a browser that never comes back,
    press Ctrl-C once the flow waits for it; the exit status, stdout and stderr."""
    import signal

    process = subprocess.Popen([sys.executable, "-m", "inspector", *args], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env={**os.environ, "BROWSER": "true"})
    assert process.stderr is not None
    for line in process.stderr:  # the address is printed once the flow waits for the browser
        if "open this address to sign in" in line:
            break
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=30)
    return process.returncode, out, err


@pytest.mark.parametrize("as_json", [True, False])
def test_ctrl_c_while_the_browser_is_awaited_says_the_sign_in_was_stopped(tmp_path: Path, as_json: bool):
    """`signin --json` ended by Ctrl-C printed no JSON object at all, and without --json no sentence."""
    with serve_auth_server() as auth:
        status, out, err = ctrl_c_while_the_browser_is_awaited(
            "signin", auth.mcp_url, "--db", str(tmp_path / "runs.db"), "--lang", "en", *(["--json"] if as_json else []))
    assert status == 130
    sentence = f"Cancelled (Ctrl-C): the sign-in to {auth.mcp_url} was stopped before it ended."
    if as_json:
        assert json.loads(out) == {"error": {"kind": "cancelled", "code": 1011, "message": sentence}, "step": None}
    else:
        assert out == "" and f"run-inspector: {sentence}\n" in err


def test_ctrl_c_during_a_calls_sign_in_is_counted_as_a_cancel_not_a_failure(tmp_path: Path):
    """The run was stored cancelled while the server's health counted it failed (the 401 that asked
    for the sign-in): `servers` said "failed 1, cancelled 0" of a call the user cancelled."""
    database = tmp_path / "runs.db"
    with serve_auth_server() as auth:
        status, _, _ = ctrl_c_while_the_browser_is_awaited(
            "call", auth.mcp_url, "echo", "--args", '{"text": "hi"}', "--db", str(database), "--lang", "en")
    assert status == 130

    def cli_json(*args: str) -> dict:
        done = subprocess.run([sys.executable, "-m", "inspector", *args, "--json", "--db", str(database)],
                              capture_output=True, text=True, timeout=60, check=True)
        return json.loads(done.stdout)

    (run,) = cli_json("runs", "list")["runs"]
    assert run["status"] == "cancelled"
    (server,) = cli_json("servers")["servers"]
    assert (server["failed"], server["cancelled"]) == (0, 1)


def test_a_sign_in_step_does_not_say_how_the_mcp_server_was_reached(tmp_path):
    """A sign-in's legs go to the server's resource metadata and its authorization server: the MCP server is asked
    nothing. Its step said "Tried over Streamable HTTP: no answer from the server" under a sign-in that stood (runs
    show, and the window's step detail, which says the same line); the call after it says how it reached its server."""
    database = tmp_path / "runs.db"
    with serve_auth_server() as auth:
        done = stored_call(database, auth.mcp_url)
    assert done.returncode == 0, done.stderr
    for language in ("en", "de"):
        text = subprocess.run([sys.executable, "-m", "inspector", "runs", "show", "1", "--db", str(database), "--lang",
                               language], capture_output=True, text=True, timeout=60, check=True).stdout
        lines = text.splitlines()
        signin = lines.index(next(line for line in lines if line.startswith("1 ")))
        call = lines.index(next(line for line in lines if line.startswith("2 ")))
        assert not any("Streamable HTTP" in line for line in lines[signin:call]), text
        assert any("Streamable HTTP, MCP " in line for line in lines[call:]), text
