"""A leg the client names after its request ("tools/call (round 2)", "input: elicitation/create") reads in
the reader's language; the name is kept in English (``--json``, the store). Before, a German `call` and
`runs show` listed "tools/call (round 2)" among German words. The demo server on 127.0.0.1 (`ask_user`,
asked in rounds in the stateless era), the real command line."""

from __future__ import annotations

import json

import pytest

from tests.support.cli_process import cli_here


@pytest.mark.parametrize(("language", "names"), [
    ("en", ["input: elicitation/create", "tools/call (round 2)"]),
    ("de", ["Eingabe: elicitation/create", "tools/call (Runde 2)"])])
def test_the_legs_of_a_question_asked_in_rounds_are_named_in_the_readers_language(
        demo_server, language: str, names: list[str]) -> None:
    done = cli_here("--lang", language, "call", demo_server.url, "ask_user", "--era", "stateless",
                    "--elicit", "decline", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert [leg["method"] for leg in report["legs"]][-2:] == ["input: elicitation/create", "tools/call (round 2)"]
    said = cli_here("--lang", language, "call", demo_server.url, "ask_user", "--era", "stateless",
                    "--elicit", "decline", "--no-store").stdout
    shown = cli_here("--lang", language, "runs", "show", str(report["run_id"])).stdout
    for text in (said, shown):
        starts = [name for line in text.splitlines() for name in names if line.strip().startswith(name)]
        assert starts == names, text
