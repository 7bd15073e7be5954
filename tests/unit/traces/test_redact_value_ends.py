"""Where a credential ends, as an export and a command server's name read it, for what the last session left:

* a MySQL password glued to ``-p`` in a configuration's ``args`` beside its ``command`` (``{"command": "mysql",
  "args": ["-pX"]}``) was exported, and a command server ``mysql -pX`` was named with it; ``-p8080`` of another
  program, and ``psql``'s ``-p5432`` (a port), are kept;
* ``API_KEY=a,b`` in prose exported ``,b``: a comma within the word is the value's (a list of keys, a password),
  one before a space or the next ``NAME=`` ends it (``PORT=80, HOST=x``);
* ``http://bob:x@PWb/@host/mcp`` exported ``PWb``: the password may be ``x@PWb/``, as an ``@`` in a later segment or
  after ``?`` already hid; an address without a password and such a segment (``http://h/@user``) is kept whole;
* a command line's word naming two servers (``cmd --url http://u:p@h/x@y/mcp``) was repeated ``http://h/…@y/mcp``
  by a refusal, keeping ``h``, which the server's name leaves out.

Each planted in a run of a real store and exported in both formats where an export is meant; the command line in
this process."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_trace_support import exported_tool_arguments

from inspector.mcp import ServerEndpoint
from inspector.mcp.address_query import address_to_keep, typed_to_quote
from inspector.mcp.command_line import shown_command_line
from inspector.mcp.server_command import ServerCommand
from inspector.traces.redact import REDACTED, redact, redact_text
from tests.support.cli_process import cli_here

LEAKS = ("Gl7ed", "Cm9a", "PWb")

CONFIGURATIONS = [
    {"command": "mysql", "args": ["-h", "db", "-u", "root", "-pGl7ed"]},
    {"command": "/usr/bin/mariadb-dump", "args": ["-pGl7ed", "shop"]},
]
KEPT_CONFIGURATIONS = [{"command": "node", "args": ["-p8080", "srv.js"]}, {"command": "psql", "args": ["-p5432"]}]

PROSE = [
    ("set API_KEY=a1Cm9a,b2Cm9a before", f"set API_KEY={REDACTED} before"),
    ("password=Cm9a,x and more", f"password={REDACTED} and more"),
    ("API_KEY=Cm9a, HOST=x", f"API_KEY={REDACTED}, HOST=x"),
    ("token=Cm9a,HOST=x", f"token={REDACTED},HOST=x"),
    ("see http://bob:x@PWb/@host/mcp now", f"see http://{REDACTED}@host/mcp now"),
]
ORDINARY = ["PORT=80, HOST=x", "hosts=a,b", '{"progressToken":null,"id":1}', "http://h/@user/mcp", "a,b, c"]


def test_a_password_glued_to_p_beside_its_command_is_hidden() -> None:
    assert redact(CONFIGURATIONS[0]) == {"command": "mysql", "args": ["-h", "db", "-u", "root", f"-p{REDACTED}"]}
    assert redact(CONFIGURATIONS[1]) == {"command": "/usr/bin/mariadb-dump", "args": [f"-p{REDACTED}", "shop"]}
    for kept in KEPT_CONFIGURATIONS:
        assert redact(kept) == kept


def test_a_database_command_servers_name_leaves_its_glued_password_out() -> None:
    assert ServerEndpoint.for_command(ServerCommand("mysql", ("-u", "root", "-pGl7ed"))).key == \
        "stdio:mysql -u root -p…"
    assert shown_command_line(["docker", "exec", "db", "mysql", "-pGl7ed"]) == "docker exec db mysql -p…"
    assert shown_command_line(["node", "-p8080"]) == "node -p8080"
    assert address_to_keep("stdio:mysql -pGl7ed") == "stdio:mysql -p…"  # an imported trace's server


@pytest.mark.parametrize(("text", "exported"), PROSE)
def test_a_values_end_in_prose(text: str, exported: str) -> None:
    assert redact_text(text) == exported


def test_ordinary_prose_and_addresses_are_kept() -> None:
    for text in ORDINARY:
        assert redact_text(text) == text, text


def test_an_at_that_begins_a_segment_after_a_password_hides_the_host_before_it() -> None:
    assert shown_command_line(["srv", "--url", "http://bob:x@PWb/@host/mcp"]) == "srv --url http://host/mcp"
    assert address_to_keep("http://bob:x@PWb/@host/mcp") == "http://host/mcp"
    # Such an address is still sent as RFC 3986 reads it (no two servers), only its export loses the host.
    ServerEndpoint("https://bob:pw@h.example/@scope/mcp")
    assert redact_text("https://bob:pw@h.example/@scope/mcp") == f"https://{REDACTED}@scope/mcp"


def test_a_command_lines_address_naming_two_servers_is_repeated_as_its_name_has_it(tmp_path: Path) -> None:
    assert typed_to_quote("cmd --url http://u:p@h/x@y/mcp") == "cmd --url http://y/mcp"
    assert typed_to_quote("http://u:p@h/x@y/mcp") == "http://h/…@y/mcp"  # an address alone: the host it goes to
    refused = cli_here("--db", str(tmp_path / "runs.db"), "call", "cmd --url http://u:p@h/x@y/mcp", "echo")
    assert refused.returncode == 2 and "'cmd --url http://y/mcp'" in refused.stderr, refused.stderr
    refused = cli_here("--db", str(tmp_path / "runs.db"), "call", "cmd --url http://bob:x@PWb/@host/mcp", "echo")
    assert refused.returncode == 2 and "PWb" not in refused.stderr, refused.stderr


@pytest.mark.parametrize("file_format", ["trace", "otlp"])
def test_none_of_them_reaches_an_export(tmp_path: Path, file_format: str) -> None:
    arguments = [*CONFIGURATIONS, *KEPT_CONFIGURATIONS, *({"text": text} for text, _ in PROSE)]
    data = exported_tool_arguments(tmp_path, file_format, arguments,
                                   note="the key was API_KEY=a1Cm9a,b2Cm9a and http://bob:x@PWb/@host/mcp")
    assert [leak for leak in LEAKS if leak in data] == []
    for kept in ("-p8080", "-p5432", "host/mcp", "HOST=x"):
        assert kept in data, kept
