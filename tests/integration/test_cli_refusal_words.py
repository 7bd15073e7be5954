"""Refusals whose reason is a sentence of ours are said whole in the reader's language (a NaN in
--args or in a scenario file, a model URL that cannot be a model's, an empty model name); --json keeps the English.
Before, the reason stayed English inside the German sentence ("NaN is not a JSON number") or the
whole sentence did (the model URL)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inspector.cli import main

MODEL = ["agent", "hi", "--model-url", "ftp://x", "--model", "m", "--server", "http://127.0.0.1:9/mcp"]
MODEL_EN = "The model URL must start with http:// or https:// and name a host (got 'ftp://x')."
MODEL_DE = "Die URL des Modells muss mit http:// oder https:// beginnen und einen Host nennen (angegeben: 'ftp://x')."
NAMELESS = ["agent", "hi", "--model-url", "http://127.0.0.1:9/v1", "--model", "", "--server", "http://127.0.0.1:9/mcp"]
NAMELESS_EN = "The model name must not be empty."
NAMELESS_DE = "Der Name des Modells darf nicht leer sein."
ARGS = ["call", "http://127.0.0.1:9/mcp", "echo", "--args", '{"x": NaN}']
ARGS_EN = "--args is not valid JSON: NaN is not a JSON number"
ARGS_DE = "--args ist kein gültiges JSON: NaN ist keine JSON-Zahl"


def _refusal(capsys, argv: list[str], language: str) -> str:
    capsys.readouterr()
    assert main(["--lang", language, *argv]) == 2
    return capsys.readouterr().err.strip()


@pytest.mark.parametrize(("argv", "english", "german"), [
    (MODEL, MODEL_EN, MODEL_DE), (NAMELESS, NAMELESS_EN, NAMELESS_DE), (ARGS, ARGS_EN, ARGS_DE)],
    ids=["model-url", "model-name", "args-nan"])
def test_the_refusal_is_said_in_german_and_kept_english_in_json(tmp_path: Path, capsys, argv: list[str],
                                                                english: str, german: str) -> None:
    argv = [*argv, "--db", str(tmp_path / "runs.db")]
    assert _refusal(capsys, argv, "en") == f"run-inspector: {english}"
    assert _refusal(capsys, argv, "de") == f"run-inspector: {german}"
    assert main(["--lang", "de", *argv, "--json"]) == 2
    assert json.loads(capsys.readouterr().out)["error"]["message"] == english


def test_a_nan_in_a_scenario_file_is_said_in_german(tmp_path: Path, capsys) -> None:
    scenario = tmp_path / "s.json"
    scenario.write_text('{"name": NaN}', encoding="utf-8")
    argv = ["scenario", str(scenario), "--db", str(tmp_path / "runs.db")]
    assert _refusal(capsys, argv, "de") == \
        f"run-inspector: Die Szenariodatei {scenario} ist kein gültiges JSON: NaN ist keine JSON-Zahl."
    assert _refusal(capsys, argv, "en") == \
        f"run-inspector: The scenario file {scenario} is not valid JSON: NaN is not a JSON number."
