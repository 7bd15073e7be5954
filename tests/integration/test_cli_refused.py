"""A port where nothing listens, met by every command that reaches out (a server, a model, a query
service, a sign-in): one sentence naming the refusal, never brackets inside brackets, in English and
German. It said "... could not be reached (the connection was refused (nothing listens at that
address and port)); check ..."."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.support.asgi_server import closed_port
from tests.support.cli_process import cli_here

REFUSED = {"en": "the connection was refused, which means nothing listens at that address and port",
           "de": "die Verbindung wurde abgewiesen, unter dieser Adresse und an diesem Port lauscht also nichts"}


def deepest_bracket(text: str) -> int:
    depth = deepest = 0
    for character in text:
        depth += {"(": 1, ")": -1}.get(character, 0)
        deepest = max(deepest, depth)
    return deepest


def refused_sentences(tmp_path: Path, language: str) -> dict[str, str]:
    closed = f"http://127.0.0.1:{closed_port()}"
    db = str(tmp_path / "runs.db")
    commands = {
        "ping": ["ping", f"{closed}/mcp", "--era", "handshake"],
        "agent": ["agent", "--model-url", f"{closed}/v1", "--model", "m", "--server", f"{closed}/mcp", "hello"],
        "pull": ["import", "--from-jaeger", closed, "--trace", "0123456789abcdef0123456789abcdef"],
        "signin": ["signin", f"{closed}/mcp"],
    }
    said = {}
    for name, words in commands.items():
        done = cli_here("--lang", language, *words, "--db", db)  # what it says, not its process
        assert done.returncode in (1, 2), (name, done.stdout, done.stderr)
        said[name] = done.stdout + done.stderr
    return said


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_refused_connection_is_one_sentence_without_nested_brackets(tmp_path: Path, language: str) -> None:
    for name, output in refused_sentences(tmp_path, language).items():
        lines = [line for line in output.splitlines() if REFUSED[language] in line]
        assert lines, (name, output)
        for line in lines:
            assert deepest_bracket(line) <= 1, (name, line)
            assert not re.search(r"\(\s*\)|\)\)", line), (name, line)


def test_json_keeps_the_english_sentence(tmp_path: Path) -> None:
    closed = f"http://127.0.0.1:{closed_port()}/mcp"
    done = cli_here("--lang", "de", "ping", closed, "--json", "--db", str(tmp_path / "runs.db"))
    assert REFUSED["en"] in json.loads(done.stdout)["error"]["message"]
