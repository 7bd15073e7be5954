"""A command's credentials as an export found them still there, each hidden now, and what is not one kept:

* a command line's option value runs to a space, not to a comma (``--password=Pa55,word9`` exported ``,word9``;
  prose's ``password=a,b`` runs over a comma within the word too, ``API_KEY=a, HOST=x`` ends at it; in a quoted word,
  to its quote);
* a list of a command's words is read as a command line (``{"args": ["srv", "--api-key", "K"]}`` kept K: only a
  list of two or three items was read as a name and its value), as a value and as JSON text;
* an address's password ending in ``?`` or ``#`` right before its ``@`` (``http://bob:@PWb?@host/mcp`` exported
  ``PWb``);
* an address's password holding a space or a quote, in a quoted word or as a whole string (not hidden at all).

Each planted in a run of a real store and exported in both formats, and redacted in time in proportion to a megabyte.
"""

from __future__ import annotations

import json
import shlex
import time
from pathlib import Path

import pytest
from test_trace_support import T0

from inspector.mcp.user_info import second_server
from inspector.runs import RunTrace, ToolResult
from inspector.store import RunStore
from inspector.traces.redact import REDACTED, redact, redact_text
from inspector.transfer.exporting import export

LEAKS = ("Pa55", "word9", "PWb", "K3y")

#: Text as a command line, a JSON text or a Python one spells it, and what it is exported as.
TEXTS = [
    ("srv --password=Pa55,word9 --mode=fast", f"srv --password={REDACTED} --mode=fast"),
    ("srv --api-key=Pa55;word9&x --mode=fast", f"srv --api-key={REDACTED} --mode=fast"),
    ('{"args": ["--password=Pa55,wo rd9", "--mode=fast"]}', f'{{"args": ["--password={REDACTED}", "--mode=fast"]}}'),
    (json.dumps(json.dumps({"cmd": "srv --token=Pa55,word9"})),
     json.dumps(json.dumps({"cmd": f"srv --token={REDACTED}"}))),
    (repr(["--password=Pa55,wo rd9", "--mode=fast"]), repr([f"--password={REDACTED}", "--mode=fast"])),
    (json.dumps({"args": ["-y", "srv", "--api-key", "K3y", "--mode", "fast"]}),
     json.dumps({"args": ["-y", "srv", "--api-key", REDACTED, "--mode", "fast"]})),
    (json.dumps({"args": ["srv", "--access-key", "K3y", "-e", "API_KEY=Pa55 word9"]}),
     json.dumps({"args": ["srv", "--access-key", REDACTED, "-e", f"API_KEY={REDACTED}"]})),
    (repr(["srv", "--token", "K3y"]), repr(["srv", "--token", REDACTED])),
    ("see http://bob:@PWb?@host/mcp now", f"see http://{REDACTED}@host/mcp now"),
    ("see http://bob:x@PWb#@host/mcp now", f"see http://{REDACTED}@host/mcp now"),
    ('python srv.py "http://bob:Pa55 word9@host/mcp" --x', f'python srv.py "http://{REDACTED}@host/mcp" --x'),
    (shlex.join(["srv", "http://bob:Pa55 word9@host/mcp", "--x"]), f"srv 'http://{REDACTED}@host/mcp' --x"),
    (shlex.join(["srv", "http://bob:Pa55'word9@host/mcp", "--x"]), f"srv 'http://{REDACTED}@host/mcp' --x"),
    ('srv "http://bob:Pa55\'word9@host/mcp"', f'srv "http://{REDACTED}@host/mcp"'),
    ('srv "--url=http://bob:Pa55 word9@host/mcp"', f'srv "--url=http://{REDACTED}@host/mcp"'),
    ("http://bob:Pa55 word9@host/mcp", f"http://{REDACTED}@host/mcp"),
]

#: A list of a command's words, and what it is exported as.
WORDS = [
    (["-y", "srv", "--api-key", "K3y", "--mode", "fast"], ["-y", "srv", "--api-key", REDACTED, "--mode", "fast"]),
    (["srv", "--password=Pa55, word9", "-e", "API_KEY=Pa55 word9"], ["srv", f"--password={REDACTED}", "-e",
                                                                     f"API_KEY={REDACTED}"]),
    (["curl", "-u", "bob:Pa55 word9", "--header", "Authorization: Bearer K3y x"],
     ["curl", "-u", REDACTED, "--header", f"Authorization: {REDACTED}"]),
    (["mysql", "-h", "db", "-pPa55word9"], ["mysql", "-h", "db", f"-p{REDACTED}"]),
    (["srv", "http://bob:Pa55 word9@host/mcp"], ["srv", f"http://{REDACTED}@host/mcp"]),
    (["srv", "https://h.example/s?q=mcp&token=K3y"], ["srv", f"https://h.example/s?q=mcp&token={REDACTED}"]),
]

ORDINARY = [
    "a,b lists --mode=fast, mail bob@example.org", "srv --mode=fast --title=a,b", "http://example.org: see a@b",
    "http://host/mcp was called by bob@x.org", '"http://host:8080 a@b"',
    json.dumps({"args": ["a,b", "--mode", "fast", "--verbose"]}), "http://h/@user", "http://h/?@x",
]


@pytest.mark.parametrize(("text", "exported"), TEXTS)
def test_a_commands_credential_in_text_is_hidden_whole(text: str, exported: str) -> None:
    assert redact_text(text) == exported


@pytest.mark.parametrize(("words", "exported"), WORDS)
def test_a_list_of_a_commands_words_is_read_as_a_command_line(words: list[str], exported: list[str]) -> None:
    assert redact({"command": "npx", "args": words}) == {"command": "npx", "args": exported}
    assert redact(words) == exported


def test_ordinary_words_are_kept() -> None:
    for text in ORDINARY:
        assert redact_text(text) == text, text
    words = ["a,b", "--mode=fast", "bob@example.org", "-u", "bob", "--password", "--verbose", "wait…", "-p8080"]
    assert redact(words) == words
    # Prose: a comma ends a value where a space or the next name and its "=" follows it ("PORT=80, HOST=x"), not
    # within a word ("API_KEY=a,b": a list of keys, a password holding a comma).
    assert redact_text("password=Pa55,b and more") == f"password={REDACTED} and more"
    assert redact_text("API_KEY=a, HOST=x") == f"API_KEY={REDACTED}, HOST=x"


def test_a_password_ending_in_a_query_or_fragment_mark_names_two_servers() -> None:
    assert second_server("http://bob:@PWb?@host/mcp") == ("PWb", "host")
    assert second_server("http://bob:x@PWb#@host/mcp") == ("PWb", "host")
    assert second_server("http://h/?@x") is None and second_server("http://bob:pw@h/@user") is None


def _plant(store: RunStore) -> None:
    run = store.start_run("words", "live", "stdio:srv", started_at=T0)
    trace = RunTrace()
    for text, _ in TEXTS:
        store.append_step(run, trace.record_tool_result(1, "tool", {"text": text}, ToolResult.text(text), 1.0), T0)
    for words, _ in WORDS:
        store.append_step(run, trace.record_tool_result(1, "tool", {"args": words}, ToolResult.text("ok"), 1.0), T0)
    store.finish_run(run, "ok", T0)


@pytest.mark.parametrize("file_format", ["trace", "otlp"])
def test_no_word_of_a_commands_credential_reaches_an_export(tmp_path: Path, file_format: str) -> None:
    store = RunStore.open(tmp_path / "runs.db")
    try:
        _plant(store)
        path = tmp_path / f"out.{file_format}.json"
        export(store, None, None, path, format=file_format)
    finally:
        store.close()
    data = path.read_text(encoding="utf-8")
    assert [leak for leak in LEAKS if leak in data] == []
    for kept in ("--mode=fast", "host/mcp", "https://h.example/s?q=mcp", "--access-key"):
        assert kept in data, kept


@pytest.mark.parametrize("shape", ["--password=a,", '"--token=a,', "'--token=", '\\"--token=', ", \"--api-key\", \"",
                                   "'http://a:b ", '"http://a:b c', "http://a:b@c?@", "x://a:@b#@"])
def test_a_megabyte_of_a_commands_shapes_is_redacted_in_seconds(shape: str) -> None:
    text = (shape * (1_000_000 // len(shape) + 1))[:1_000_000]
    started = time.thread_time()
    redact_text(text)
    assert time.thread_time() - started < 5.0
    words = [shape] * 100_000
    started = time.thread_time()
    redact(words)
    assert time.thread_time() - started < 5.0
