"""`call URL TOOL text=hi`: the usage error says how a tool's arguments are given (as JSON in --args),
with the user's own pairs as the example; other stray words get argparse's sentence alone."""

from __future__ import annotations

import json
import shlex

from inspector.cli import main


def test_key_value_pairs_after_call_get_the_args_example(capsys, tmp_path) -> None:
    status = main(["--db", str(tmp_path / "runs.db"), "call", "http://127.0.0.1:9/mcp", "echo", "text=hi", "n=2"])
    err = capsys.readouterr().err
    assert status == 2
    assert "unrecognized arguments: text=hi n=2. A tool's arguments go in --args, as JSON: --args " in err
    example = err.strip().rsplit("--args ", 1)[1]
    assert json.loads(shlex.split(example)[0]) == {"text": "hi", "n": "2"}
    assert not (tmp_path / "runs.db").exists()  # refused before anything was opened or sent


def test_other_stray_words_keep_argparses_sentence(capsys, tmp_path) -> None:
    assert main(["--db", str(tmp_path / "runs.db"), "call", "http://127.0.0.1:9/mcp", "echo", "bogus"]) == 2
    err = capsys.readouterr().err
    assert err.strip().endswith("unrecognized arguments: bogus")
    assert main(["--db", str(tmp_path / "runs.db"), "tools", "http://127.0.0.1:9/mcp", "a=b"]) == 2
    assert "--args" not in capsys.readouterr().err  # only call takes a tool's arguments
