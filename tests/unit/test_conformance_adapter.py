"""The conformance adapter only turns a scenario into run-inspector command lines."""

from __future__ import annotations

import importlib.util
import json
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def load_adapter():
    spec = importlib.util.spec_from_file_location("conformance_client", ROOT / "conformance" / "client.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_each_scenario_becomes_command_lines() -> None:
    adapter = load_adapter()
    url = "http://localhost:1234/mcp"
    assert adapter.command_lines("elicitation-sep1034-client-defaults", url) == [
        ["call", url, "test_client_elicitation_defaults", "--elicit", "defaults", "--no-store", "--budget", "20"]]
    assert adapter.command_lines("sse-retry", url)[0][:3] == ["call", url, "test_reconnection"]
    assert adapter.command_lines("tools_call", url)[0][:5] == ["call", url, "add_numbers", "--args", '{"a": 5, "b": 3}']
    # A scenario it does not know yet gets a catalogue walk: the handshake and a request.
    assert adapter.command_lines("something-new", url) == [["tools", url, "--no-store", "--budget", "20"]]


def test_a_schema_echo_takes_the_tools_input_schema_as_tools_json_printed_it() -> None:
    adapter = load_adapter()
    url = "http://localhost:1234/mcp"
    schema = {"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": {"a": {"$anchor": "a"}},
              "additionalProperties": False}
    asked = []

    def catalogue() -> list[dict]:
        asked.append(1)
        return [{"name": "other"}, {"name": "json_schema_2020_12_tool", "inputSchema": schema}]

    (line,) = adapter.command_lines("json-schema-2020-12-preservation", url)
    filled = adapter.fill_schemas(line, catalogue)
    assert filled[:3] == ["call", url, "json_schema_echo"]
    assert json.loads(filled[filled.index("--args") + 1]) == {"schema": schema}
    assert adapter.fill_schemas(["tools", url], catalogue) == ["tools", url] and len(asked) == 1


def test_a_sign_in_scenario_becomes_the_command_lines_a_user_types(tmp_path: Path) -> None:
    adapter = load_adapter()
    url = "http://localhost:1234/mcp"
    context = {"name": "auth/client-credentials-jwt", "client_id": "conformance-test-client",
               "client_secret": "s3cret", "private_key_pem": "-----BEGIN PRIVATE KEY-----\nAAA\n"}
    env: dict[str, str] = {}
    # Most sign-in scenarios: sign in as the server asks, then call its tool.
    assert adapter.command_lines("auth/metadata-var2", url) == [
        ["call", url, "test-tool", "--no-store", "--budget", "20"]]
    (line,) = adapter.command_lines("auth/pre-registration", url)
    filled = adapter.fill_context(line, context, tmp_path, env)
    assert filled[:3] == ["call", url, "test-tool"]
    assert filled[filled.index("--client-id") + 1] == "conformance-test-client"
    # The secret travels in the variable the command line names, never on the command line.
    variable = filled[filled.index("--client-secret-env") + 1]
    assert env == {variable: "s3cret"} and "s3cret" not in " ".join(filled)
    # A key is a file only its owner reads.
    (line,) = adapter.command_lines("auth/client-credentials-jwt", url)
    filled = adapter.fill_context(line, context, tmp_path, env)
    assert filled[filled.index("--grant") + 1] == "client-credentials"
    key = Path(filled[filled.index("--client-key") + 1])
    assert key.read_text() == context["private_key_pem"] and key.stat().st_mode & 0o077 == 0
    assert "-----BEGIN" not in " ".join(filled)
    # CIMD: the client id document the suite expects; migration: two command lines, one keyring.
    assert adapter.CIMD_URL in adapter.command_lines("auth/basic-cimd", url)[0]
    assert [line[0] for line in adapter.command_lines("auth/authorization-server-migration", url)] == ["tools", "call"]


def test_the_command_lines_get_a_browser_that_follows_the_redirect_and_a_keyring_of_their_own(
        tmp_path: Path, monkeypatch) -> None:
    adapter = load_adapter()
    monkeypatch.setenv("MCP_CONFORMANCE_CONTEXT", '{"client_secret": "s3cret"}')
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "the.users.Keyring")
    env = adapter.signin_environment(tmp_path)
    assert "MCP_CONFORMANCE_CONTEXT" not in env
    # The scenario run's command lines share a keyring in its folder; the user's is never asked.
    from tests.support.file_keyring import BACKEND_NAME, FILE_ENV

    assert env["PYTHON_KEYRING_BACKEND"] == BACKEND_NAME
    assert Path(env[FILE_ENV]).parent == tmp_path
    # So do their database, settings and log: never the user's (they were, outside the tests).
    assert all(Path(env[name]).is_relative_to(tmp_path) for name in ("RUN_INSPECTOR_DB", "RUN_INSPECTOR_LOG",
                                                                    "RUN_INSPECTOR_SETTINGS", "XDG_STATE_HOME"))
    assert env["BROWSER"].endswith("follow_redirect.py %s")


def test_a_run_passes_only_when_the_suite_says_so() -> None:
    from collections import Counter

    spec = importlib.util.spec_from_file_location("conformance_run", ROOT / "conformance" / "run.py")
    run = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(run)
    good = Counter({"SUCCESS": 5, "INFO": 3})
    assert run.verdict(good, "Passed: 5/5\n✅ OVERALL: PASSED") == (True, "")
    # Every check passed, yet the client hung: the suite fails the run, and the table says why.
    assert run.verdict(good, "⚠️  CLIENT TIMED OUT - Test incomplete\n❌ OVERALL: FAILED") == (False, "client timed out")
    assert run.verdict(Counter({"SUCCESS": 1, "WARNING": 1}), "") == (False, "")
    assert run.verdict(Counter({"SKIPPED": 2}), "") == (False, "")
    assert "auth/" not in run.LEFT_OUT


def test_the_checks_of_a_sign_in_scenario_are_counted_where_the_suite_saves_them(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("conformance_run", ROOT / "conformance" / "run.py")
    run = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(run)
    # The suite saves a scenario named auth/NAME under auth/NAME-TIME/.
    folder = tmp_path / "auth" / "metadata-default-2026-12-02T08-00-00-000Z"
    folder.mkdir(parents=True)
    (folder / "checks.json").write_text(json.dumps([{"status": "SUCCESS"}, {"status": "FAILURE"}, {"status": "INFO"}]))
    (tmp_path / "initialize-2026-12-02T08-00-00-000Z").mkdir()
    (tmp_path / "initialize-2026-12-02T08-00-00-000Z" / "checks.json").write_text('[{"status": "SUCCESS"}]')
    assert run.count_checks(tmp_path) == {"SUCCESS": 2, "FAILURE": 1, "INFO": 1}


def test_the_skills_scenarios_list_then_load_in_the_era_the_suite_names(monkeypatch) -> None:
    adapter = load_adapter()
    url = "http://localhost:1234/mcp"
    monkeypatch.setenv("MCP_CONFORMANCE_PROTOCOL_VERSION", "2026-07-28")
    assert adapter.command_lines("sep-2640-client-no-prefetch", url) == [
        ["skills", "list", url, "--no-store", "--budget", "20", "--era", "stateless"]]
    monkeypatch.setenv("MCP_CONFORMANCE_PROTOCOL_VERSION", "2025-11-25")
    assert adapter.command_lines("sep-2640-client-verify-digest", url) == [
        ["skills", "list", url, "--no-store", "--budget", "20", "--era", "handshake"],
        ["skills", "load", url, "skill://pdf-processing/SKILL.md", "--no-store", "--budget", "20", "--era",
         "handshake"]]
    assert adapter.command_lines("tools_call", url)[0][-1] == "20"  # other scenarios keep finding their era


def load_runner():
    spec = importlib.util.spec_from_file_location("conformance_run", ROOT / "conformance" / "run.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_failed_runs_client_stderr_is_read_where_the_suite_saves_it(tmp_path: Path) -> None:
    """The stderr of the command lines is the evidence of a client that exited with an error (three
    scenario runs of a loaded run failed so, and nothing said why: a merge conflict in the checkout)."""
    run = load_runner()
    (tmp_path / "json-schema-ref-no-deref-2026-12-06T16-23-00-000Z").mkdir()
    (tmp_path / "json-schema-ref-no-deref-2026-12-06T16-23-00-000Z" / "stderr.txt").write_text(
        "run-inspector tools http://localhost:1/mcp\nSyntaxError: invalid syntax\n")
    assert run.client_stderr(tmp_path).endswith("SyntaxError: invalid syntax\n")
    assert run.client_stderr(tmp_path / "json-schema-ref-no-deref-2026-12-06T16-23-00-000Z").startswith(
        "run-inspector tools")


def test_files_of_the_client_changed_during_a_run_are_named(tmp_path: Path) -> None:
    run = load_runner()
    (tmp_path / "kept.py").write_text("")
    (tmp_path / "traces").mkdir()
    (tmp_path / "traces" / "redact.py").write_text("<<<<<<< ours\n")
    started_ns = 1_800_000_000 * 10**9
    os.utime(tmp_path / "kept.py", ns=(started_ns - 10**9, started_ns - 10**9))
    os.utime(tmp_path / "traces" / "redact.py", ns=(started_ns + 10**9, started_ns + 10**9))
    assert run.changed_since(started_ns, (tmp_path,)) == [tmp_path / "traces" / "redact.py"]


def test_the_catalogue_walk_of_the_adapter_lets_its_failure_be_read(tmp_path: Path, capfd) -> None:
    """``tools --json`` run for a schema echo failed unseen: its stderr was captured and dropped."""
    from tests.support.asgi_server import closed_port

    adapter = load_adapter()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "RUN_INSPECTOR_LOG": str(tmp_path / "log")}
    url = f"http://127.0.0.1:{closed_port()}/mcp"
    assert adapter.listed_tools(url, env) == []
    said = capfd.readouterr().err
    assert f"run-inspector tools {url} --json" in said
    assert "(exit code 1) Could not reach the server" in said
