"""What names a command server (inspector/mcp/command_line.py): its words quoted as a shell needs them, the
credentials among them as "…", as the export removes them; the words that are none kept as they are."""

from __future__ import annotations

import pytest

from inspector.mcp import ServerEndpoint
from inspector.mcp.command_line import shown_typed_command_line, without_credentials
from inspector.mcp.server_command import parse_command_line
from inspector.traces.redact import redact_text


@pytest.mark.parametrize(("typed", "shown"), [
    ("srv --token T1x", "srv --token …"), ("srv --token=T1x", "srv --token=…"),
    ("srv --api-key K1x --port 8080", "srv --api-key … --port 8080"), ("srv --access-key K1x", "srv --access-key …"),
    ("srv --password 'a b c'", "srv --password …"), ("env API_KEY=K1x srv", "env API_KEY=… srv"),
    ("curl -u bob:pw1x h", "curl -u … h"), ("srv -ubob:pw1x", "srv -u…"), ("srv --user=bob:pw1x", "srv --user=…"),
    ("srv --url http://bob:pw1x@h/mcp", "srv --url http://h/mcp"), ("srv --url=https://h/mcp?key=K1x", "srv '--url=https://h/mcp?'…"),
    ("srv --token [REDACTED]", "srv --token …"), ("srv --token …", "srv --token …"),
    ("srv --header 'Authorization: Bearer T1x'", "srv --header 'Authorization: '…"),
    ("srv -H 'X-Api-Key:K1x'", "srv -H 'X-Api-Key: '…"),
    # A header line or a variable given as an option's value after "=", or glued to a short option: the export
    # removed them, the name kept them (in each run's row).
    ("srv --header=X-Api-Key:K1x", "srv '--header=X-Api-Key: '…"),
    ("srv '--header=Authorization: Bearer T1x'", "srv '--header=Authorization: '…"),
    ("srv --env=API_KEY=K1x", "srv --env=API_KEY=…"), ("docker run -e=TOKEN=T1x img", "docker run -e=TOKEN=… img"),
    ("srv -HX-Api-Key:K1x", "srv '-HX-Api-Key: '…"),
    # A credential known by its shape, wherever it stands (the export removed it): a key given alone, or after an
    # option not named like one.
    ("srv sk-proj-abcdefghij0123456789K1x", "srv …"), ("srv --pat ghp_abcdefghij0123456789K1x", "srv --pat …"),
    ("srv --pat=ghp_abcdefghij0123456789K1x", "srv --pat=…"),
    # A credential after its scheme, as a header's value is given alone (mcp-proxy --headers NAME VALUE).
    ("mcp-proxy --headers Authorization 'Bearer T1x' http://h/sse",
     "mcp-proxy --headers Authorization 'Bearer '… http://h/sse"),
    ("srv --auth-header 'Basic dXNlcjpwYXNzK1x'", "srv --auth-header 'Basic '…"),
    ("srv '--h=bearer T1x'", "srv '--h=bearer '…"),
    # A credential inside a word of several (a connection string, a shell's command, JSON): the export removed it
    # in its place, the name kept it (in each run's row, `runs list`, the window's Server column).
    ("pg-mcp 'host=db user=bob password=pw1x'", "pg-mcp 'host=db user=bob password='…"),
    ("mssql-mcp 'Server=db;User Id=bob;Password=pw1x;'", "mssql-mcp 'Server=db;User Id=bob;Password='…"),
    ("mssql-mcp Server=db;Password=pw1x", "mssql-mcp 'Server=db;Password='…"),
    ("sh -c 'srv --token T1x --port 8080'", "sh -c 'srv --token … --port 8080'"),
    ("bash -c 'export API_TOKEN=T1x; srv'", "bash -c 'export API_TOKEN=…; srv'"),
    ("srv --config '{\"api_key\": \"K1x\", \"port\": 8080}'", "srv --config '{\"api_key\": \"…\", \"port\": 8080}'"),
    # A shell's script: each credential hidden as a word of the command line it is, the script's other words and
    # punctuation kept (API_KEY=K hid the rest of the script, "; " after --token T went with T).
    ("sh -c 'API_KEY=K1x exec github-mcp'", "sh -c 'API_KEY=… exec github-mcp'"),
    ("sh -c 'cd /srv; srv --token T1x; echo done'", "sh -c 'cd /srv; srv --token …; echo done'"),
    ("bash -lc 'API_KEY=\"a b1x\" srv --password \"p q1x\" && curl -u bob:pw1x h'",
     "bash -lc 'API_KEY=… srv --password … && curl -u … h'"),
    ("/bin/sh -e -c 'API_KEY=K1x exec github-mcp' label", "/bin/sh -e -c 'API_KEY=… exec github-mcp' label"),
    ("sh -c \"sh -c 'TOKEN=T1x exec srv'\"", "sh -c 'sh -c '\"'\"'TOKEN=… exec srv'\"'\"''"),
    # The export leaves such a name as it is (it took "'…" and '…"' for a value: imported, another server's key).
    ("sh -c 'exec srv --token T1x'", "sh -c 'exec srv --token '…"),
    ("sh -c 'srv --header \"Authorization: Bearer T1x\" --port 1'",
     "sh -c 'srv --header \"Authorization: …\" --port 1'"),
])
def test_a_credential_among_the_words_is_shown_as_a_mark(typed: str, shown: str) -> None:
    assert shown_typed_command_line(typed) == shown
    assert "1x" not in shown and redact_text(shown) == shown  # an export finds nothing more in it


@pytest.mark.parametrize("typed", ["npx -y @modelcontextprotocol/server-everything stdio", "srv --max-tokens 100",
                                   "srv --token --verbose", "srv -u bob", "srv --monkey z", "srv -p 8080",
                                   "uvx pkg@latest --k=a?b", "srv 'two words'",
                                   "srv --header 'Accept: application/json'", "srv --header=Accept:text/plain",
                                   "srv --define=max_tokens=100", "srv -HAccept:text/plain", "srv --sk-mode ghp",
                                   "srv task-sk-1", "srv --mode bearer", "srv Basic"])
def test_other_words_are_kept(typed: str) -> None:
    assert without_credentials(typed) == typed


def test_two_programs_behind_a_shell_with_their_keys_are_two_servers() -> None:
    """``API_KEY=K`` at the head of a shell's script hid the rest of it: ``exec github-mcp`` and ``exec slack-mcp``
    were one server (``stdio:sh -c API_KEY=…``), their runs merged, the second refused as the first."""
    github, slack = (ServerEndpoint.for_command(parse_command_line(f"sh -c 'API_KEY={key} exec {program}'"))
                     for key, program in (("K1x", "github-mcp"), ("K2y", "slack-mcp")))
    assert github.key == "stdio:sh -c 'API_KEY=… exec github-mcp'"
    assert slack.key == "stdio:sh -c 'API_KEY=… exec slack-mcp'"
    assert ServerEndpoint.for_command(parse_command_line("sh -c 'API_KEY=K3z exec github-mcp'")).key == github.key


def test_the_command_runs_with_its_words_and_is_named_without_them() -> None:
    endpoint = ServerEndpoint.for_command(parse_command_line("srv --token T1x", env={"API_KEY": "K1x"}))
    assert endpoint.command is not None and endpoint.command.argv == ["srv", "--token", "T1x"]
    assert endpoint.url == endpoint.key == "stdio:srv --token …" and endpoint.label == "API_KEY=… srv --token …"
    assert ServerEndpoint.for_command(parse_command_line("srv --token T2y")).key == endpoint.key


@pytest.mark.parametrize(("argv", "marked"), [
    (["pg-mcp", "host=db user=bob password=…"], True), (["sh", "-c", "srv --token …"], True),
    (["pg-mcp", "host=db user=bob wait…"], False),
    # In a shell's script, before the rest of it.
    (["sh", "-c", "API_KEY=… exec github-mcp"], True), (["sh", "-c", "srv --token …; echo done"], True),
    (["sh", "-c", "echo wait… done"], False),
])
def test_a_credential_left_out_inside_a_word_of_several_is_seen(argv: list[str], marked: bool) -> None:
    """`servers --json` lists ``'host=db password=…'`` so (as the name shows it): imported, the program would start
    with "…" as the password."""
    from inspector.mcp.command_line import leaves_out_credentials

    assert leaves_out_credentials(argv) is marked
