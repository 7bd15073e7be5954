"""Every key `call`, `tools` and `ping` print with `--json` is one docs/cli-json.md's table lists (and so are
those of `resources`, `prompts`, `complete` and `skills`, in theirs), against real servers: the demo server,
a database another program holds locked, a server that asks for a sign-in. The table lacked `listed_tools`
(a call of a tool the server does not list), `waited_for_signin` and `record` (the run's record in a side
file, where `run_id` is absent although the run was not `--no-store`)."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

from tests.support.auth_config import PRE_REGISTERED_ID, PRE_REGISTERED_SECRET, AuthConfig, pre_registered
from tests.support.auth_server import serve_auth_server
from tests.support.cli_process import cli_here

DOC = (Path(__file__).resolve().parents[2] / "docs" / "cli-json.md").read_text(encoding="utf-8")


def _table(heading: str = "## `call`, `tools`, `ping`, `task`", end: str = "**A leg's finding**") -> dict[str, str]:
    """The keys of the table under ``heading`` (up to ``end``), each with its "when" cell."""
    section = DOC[DOC.index(heading):DOC.index(end)]
    rows = {}
    for line in section.splitlines():
        if line.startswith("| `"):
            cells = [cell.strip() for cell in re.split(r"(?<!\\)\|", line)[1:-1]]
            for name in re.findall(r"`([a-z_]+)`", cells[0]):
                rows[name] = cells[2]
    return rows


DOCUMENTED = _table()
ALWAYS = {name for name, when in DOCUMENTED.items() if when == "always"}
#: `resources`, `prompts`, `complete` and `skills` have the keys above and those of their own tables.
OFFERINGS = {**DOCUMENTED, **_table("## `resources`, `prompts`, `complete`", "### `resources subscribe"),
             **_table("## `skills`", "## `replay`")}


def printed(*words: str, env: dict[str, str] | None = None) -> tuple[int, dict]:
    done = cli_here(*words, "--json", env=env)
    return done.returncode, json.loads(done.stdout)


def assert_documented(report: dict, documented: dict[str, str] = DOCUMENTED) -> None:
    assert set(report) - set(documented) == set(), "keys docs/cli-json.md does not list"
    assert ALWAYS <= set(report), "keys the document says are always there"


def test_the_table_was_read() -> None:
    assert {"server", "legs", "run_id", "content", "tools", "ping_ms"} <= set(DOCUMENTED)
    assert {"server", "legs", "error", "era"} <= ALWAYS and "run_id" not in ALWAYS


def test_call_tools_and_ping_print_the_documented_keys(demo_server, tmp_path: Path) -> None:
    db = str(tmp_path / "runs.db")
    status, answered = printed("call", demo_server.url, "describe_image", "--db", db)
    assert status == 0 and {"content", "content_blocks", "structured_content", "run_id"} <= set(answered)
    assert_documented(answered)
    status, unlisted = printed("call", demo_server.url, "nosuch", "--db", db)
    assert status == 1 and "echo" in unlisted["listed_tools"]
    assert_documented(unlisted)
    status, raised = printed("call", demo_server.url, "echo", "--args", '{"text": "hi"}', "--budget", "0.5",
                             "--no-store")
    assert status == 0 and raised["budget_requested_s"] == 0.5 and "run_id" not in raised
    assert_documented(raised)
    for words in (("tools", demo_server.url), ("ping", demo_server.url), ("ping", demo_server.url, "--era",
                                                                          "handshake")):
        status, report = printed(*words, "--db", db)
        assert status == 0, report
        assert_documented(report)


def test_resources_prompts_complete_and_skills_print_the_documented_keys(demo_server) -> None:
    url = demo_server.url
    for words in (("resources", "list", url), ("resources", "templates", url), ("resources", "read", url,
                  "demo://stripes.png"), ("prompts", "list", url), ("prompts", "get", url, "greet", "--args",
                  '{"name": "Ada"}'), ("complete", url, "--prompt", "summarize", "--argument", "style", "--value", "s"),
                  ("skills", "list", url), ("skills", "get", url, "skill://demo-tour/SKILL.md"),
                  ("skills", "load", url, "skill://demo-tour/SKILL.md")):
        status, report = printed(*words, "--no-store")
        assert status == 0 and report["outcome"] == "ok", report
        assert_documented(report, OFFERINGS)
        assert set(report) - set(DOCUMENTED), words  # each printed keys of its own table


def test_a_record_that_went_to_a_side_file_is_documented(demo_server, tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    assert printed("ping", demo_server.url, "--db", str(db))[0] == 0  # the database exists
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # another program's write, held past the call's wait
    try:
        status, report = printed("call", demo_server.url, "echo", "--args", '{"text": "hi"}', "--db", str(db))
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert status == 1 and report["outcome"] == "ok" and "run_id" not in report
    assert report["record"]["saved"] is False and Path(report["record"]["side_file"]).is_file()
    assert_documented(report)
    assert "side file" in DOCUMENTED["run_id"]


def test_a_call_that_waited_for_a_sign_in_is_documented(tmp_path: Path) -> None:
    config = AuthConfig(clients=[pre_registered("client_secret_basic")], registration=False)
    with serve_auth_server(config) as auth:
        status, report = printed("call", auth.mcp_url, "echo", "--args", '{"text": "hi"}', "--client-id",
                                 PRE_REGISTERED_ID, "--client-secret-env", "SECRET_HERE", "--grant",
                                 "client-credentials", "--db", str(tmp_path / "runs.db"),
                                 env={"SECRET_HERE": PRE_REGISTERED_SECRET, "BROWSER": "false"})
    assert status == 0 and report["waited_for_signin"] == 1
    assert_documented(report)
