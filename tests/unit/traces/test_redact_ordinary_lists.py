"""Ordinary text an export kept before lists of a command's words were read as command lines (session 68), kept
again, and the credentials of those lists still hidden:

* an item beginning with "Basic" and a word ("Basic usage", a heading in a tool's result) lost the word, as a
  command server's name did ("--title 'Basic setup'"): only a base64 "user:password" after "Basic" is one;
* an item of prose holding a key known by its shape ("key is sk-… today") came out garbled: "key is … today[REDACTED]";
* an item beginning with "Bearer" and prose ("Bearer token authentication is required", an enum's "Bearer token")
  lost all after "Bearer", and a command server's name so: only a token after "Bearer" given alone is one, as
  the text's rule reads it (``Bearer T``), and of an item of prose the text's rule hides it in its place;
* a whole string beginning with an address whose port is a placeholder, an e-mail address further on
  ("http://localhost:PORT/mcp and mail help@acme.io") was exported as "http://[REDACTED]@acme.io": a password with a "/"
  before its space is one only when a host and a path follow its "@" (``http://bob:Pa/55 K3y@host/mcp`` hidden still).

Checked in a run of a real store exported in both formats.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_trace_support import T0

from inspector.mcp.command_line import shown_typed_command_line
from inspector.runs import RunTrace, ToolResult
from inspector.store import RunStore
from inspector.traces.redact import REDACTED, redact, redact_text
from inspector.transfer.exporting import export

KEY = "sk-proj-abcdefghij0123456789K3y"
#: base64 of "bob:Pa55K3y" (a Basic credential), and of "a:bc" without its padding.
PAIR, UNPADDED = "Ym9iOlBhNTVLM3k=", "YTpiYw"

ORDINARY_LISTS = [
    ["Basic usage", "Advanced usage"], ["Basic setup of the server", "Next steps"], ["basic mode", "x"],
    ["http://localhost:PORT/mcp and mail help@acme.io for access"],
    ["https://api.example.org:PORT/v1 - questions to ops@example.org", "b"],
    # "Bearer" then prose, or a word that is no token (the text's rule keeps it): exported as "Bearer [REDACTED]".
    ["Bearer token authentication is required for all endpoints", "x"], ["OAuth", "Bearer token", "Basic auth", "none"],
]


@pytest.mark.parametrize("words", ORDINARY_LISTS)
def test_a_list_of_prose_is_kept(words: list[str]) -> None:
    assert redact({"sections": words}) == {"sections": words}
    assert all(redact_text(word) == word for word in words)


def test_a_key_in_an_items_prose_is_hidden_in_its_place() -> None:
    assert redact({"notes": ["x", f"key is {KEY} today"]}) == {"notes": ["x", f"key is {REDACTED} today"]}
    assert redact([f"{KEY} and {KEY}"]) == [f"{REDACTED} and {REDACTED}"]


@pytest.mark.parametrize(("words", "exported"), [
    (["curl", "-H", f"Basic {PAIR}"], ["curl", "-H", f"Basic {REDACTED}"]),
    (["curl", "-H", f"Basic {UNPADDED}"], ["curl", "-H", f"Basic {REDACTED}"]),
    (["srv", "--pat", KEY], ["srv", "--pat", REDACTED]),
    (["srv", "http://bob:Pa55 K3y@host/mcp"], ["srv", f"http://{REDACTED}@host/mcp"]),
])
def test_a_commands_credentials_in_a_list_are_still_hidden(words: list[str], exported: list[str]) -> None:
    assert redact({"args": words}) == {"args": exported}


@pytest.mark.parametrize(("typed", "shown"), [
    ("srv --title 'Basic setup'", "srv --title 'Basic setup'"), ("srv 'basic mode'", "srv 'basic mode'"),
    (f"srv --with 'Basic {PAIR}'", "srv --with 'Basic '…"), (f"srv --with 'Basic {UNPADDED}'", "srv --with 'Basic '…"),
    ("srv --title 'Bearer token'", "srv --title 'Bearer token'"),
    ("srv --with 'Bearer T0k3n'", "srv --with 'Bearer '…"),
    ("srv --title 'Bearer tokens expire: renew them' --auth-mode bearer",
     "srv --title 'Bearer … expire: renew them' --auth-mode bearer"),
])
def test_a_command_servers_name_keeps_basic_and_bearer_as_words(typed: str, shown: str) -> None:
    assert shown_typed_command_line(typed) == shown


@pytest.mark.parametrize("file_format", ["trace", "otlp"])
def test_an_export_keeps_the_prose_of_lists(tmp_path: Path, file_format: str) -> None:
    store = RunStore.open(tmp_path / "runs.db")
    try:
        run = store.start_run("lists", "live", "stdio:srv", started_at=T0)
        trace = RunTrace()
        for words in ORDINARY_LISTS:
            store.append_step(run, trace.record_tool_result(1, "tool", {"sections": words}, ToolResult.text("ok"),
                                                            1.0), T0)
        store.append_step(run, trace.record_tool_result(1, "tool", {"notes": [f"key is {KEY} today"]},
                                                        ToolResult.text("ok"), 1.0), T0)
        store.finish_run(run, "ok", T0)
        path = tmp_path / f"out.{file_format}.json"
        export(store, None, None, path, format=file_format)
    finally:
        store.close()
    data = path.read_text(encoding="utf-8")
    for kept in ("Basic usage", "Basic setup of the server", "basic mode", "localhost:PORT/mcp and mail help",
                 "key is [REDACTED] today", "Bearer token authentication is required for all endpoints"):
        assert kept in data, kept
    assert any(f"{quote}Bearer token{quote}" in data for quote in ('"', '\\"'))  # an enum's item
    assert "K3y" not in data and "[REDACTED]@" not in data


def test_text_and_a_name_read_basic_by_one_rule() -> None:
    """A pair whose base64 padding was left out is one to the text's rule too (it was kept there, hidden in a name)."""
    assert redact_text(f"sent Basic {UNPADDED} then") == f"sent Basic {REDACTED} then"
    assert redact_text("Basic usage, basic mode") == "Basic usage, basic mode"


def test_a_password_holding_a_slash_and_a_space_before_a_host_and_path_is_still_hidden() -> None:
    address = "http://bob:Pa/55 K3y@host/mcp"
    assert redact({"args": ["srv", address]}) == {"args": ["srv", f"http://{REDACTED}@host/mcp"]}
    assert "K3y" not in (shown_typed_command_line(f"srv '{address}'") or "K3y")
