"""A call of a tool the server does not list says what the call did not offer the server: some servers
(the reference server-everything: trigger-elicitation-request, get-roots-list, trigger-sampling-request)
list a tool only to a client that offers what it needs, and a developer who knows the tool exists reads
only "lists no tool named …". The options offered drop out of the sentence; --json is unchanged. The
demo server on 127.0.0.1, the real command line, English and German."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.cli_process import cli_here

SAID = {"en": ("Some servers list a tool only to clients that offer what it needs; this call did not offer ",
               ["answers to questions (--elicit)", "sampling (--allow-sampling)", "roots (--root)"]),
        "de": ("Manche Server listen ein Tool nur für Clients, die anbieten, was es braucht; dieser Aufruf bot "
               "nicht an: ", ["Antworten auf Fragen (--elicit)", "Sampling (--allow-sampling)", "Roots (--root)"])}


@pytest.mark.parametrize("language", ["en", "de"])
def test_what_the_call_did_not_offer_is_said(tmp_path: Path, demo_server, language: str) -> None:
    start, words = SAID[language]
    bare = cli_here("--lang", language, "call", demo_server.url, "get-roots-list", "--no-store")
    assert bare.returncode == 1
    [line] = [line for line in bare.stdout.splitlines() if line.startswith(start)]
    assert line == start + ", ".join(words) + ".", line
    offered = cli_here("--lang", language, "call", demo_server.url, "get-roots-list", "--no-store",
                       "--elicit", "decline", "--root", str(tmp_path))
    [line] = [line for line in offered.stdout.splitlines() if line.startswith(start)]
    assert line == start + words[1] + ".", line


def test_a_listed_tool_and_json_say_nothing_of_it(demo_server) -> None:
    failed = cli_here("call", demo_server.url, "fail", "--no-store")  # listed: its own error, not a missing tool
    assert failed.returncode == 1 and "did not offer" not in failed.stdout, failed.stdout
    as_json = cli_here("call", demo_server.url, "get-roots-list", "--no-store", "--json")
    assert as_json.returncode == 1 and "listed_tools" in json.loads(as_json.stdout)
    assert "did not offer" not in as_json.stdout
