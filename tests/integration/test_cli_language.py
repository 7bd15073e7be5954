"""The command line's language: `--lang` anywhere on the line, else the environment's locale;
`--json` is the same in every language."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from inspector.store import RunStore
from tests.support.cli_process import cli as cli_process
from tests.support.cli_process import cli_here
from tests.support.sample_runs import mixed_run


def cli(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """The command line with the locale ``env`` sets (and no LC_ALL or LANGUAGE): what it says in which
    language, not its process, so in this one."""
    return cli_here(*args, env={"LC_ALL": "", "LANGUAGE": "", **env})


def _mixed(tmp_path: Path) -> tuple[int, dict[str, str]]:
    db = tmp_path / "runs.db"
    with RunStore.open(db) as store:
        run_id = mixed_run(store)
    return run_id, {"RUN_INSPECTOR_DB": str(db), "LANG": "en_US.UTF-8"}


def test_json_is_byte_identical_in_both_languages(tmp_path: Path) -> None:
    run_id, env = _mixed(tmp_path)
    as_json = [cli("--lang", lang, "runs", "show", "--json", str(run_id), env=env) for lang in ("en", "de")]
    assert as_json[0].returncode == 0 == as_json[1].returncode
    assert as_json[0].stdout == as_json[1].stdout and '"cancelled"' in as_json[0].stdout
    german_env = cli("runs", "show", "--json", str(run_id), env={**env, "LANG": "de_DE.UTF-8"})
    assert german_env.stdout == as_json[0].stdout


def test_runs_show_in_german_says_abgebrochen(tmp_path: Path) -> None:
    run_id, env = _mixed(tmp_path)
    german = cli("runs", "show", "--lang", "de", str(run_id), env=env)
    assert german.returncode == 0, german.stderr
    assert "abgebrochen" in german.stdout and "fehlgeschlagen" in german.stdout
    english = cli("runs", "show", str(run_id), env=env)
    assert "cancelled" in english.stdout and "abgebrochen" not in english.stdout
    # The environment's locale decides without --lang.
    assert "abgebrochen" in cli("runs", "show", str(run_id), env={**env, "LANG": "de_DE.UTF-8"}).stdout


def test_an_unknown_language_is_one_sentence_and_status_2(tmp_path: Path) -> None:
    result = cli("--lang", "xx", "runs", "list", env={"RUN_INSPECTOR_DB": str(tmp_path / "r.db")})
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "run-inspector: There is no language 'xx'; --lang takes one of: en, de."]


def test_argparse_own_words_follow_the_language(tmp_path: Path) -> None:
    env = {"RUN_INSPECTOR_DB": str(tmp_path / "runs.db"), "LANG": "de_DE.UTF-8"}
    helped = cli("runs", "--help", env=env)
    assert helped.returncode == 0
    assert helped.stdout.startswith("Aufruf: run-inspector runs") and "Optionen:" in helped.stdout
    assert "usage:" not in helped.stdout and "options:" not in helped.stdout
    # Its errors too (a missing argument is said by each command in words of ours: test_cli_edges).
    missing = cli("runs", "list", "--limit", env=env)
    assert missing.returncode == 2 and "Argument --limit: erwartet ein Argument" in missing.stderr
    english = cli("--lang", "en", "runs", "list", "--limit", env=env)
    assert "argument --limit: expected one argument" in english.stderr
    call_help = cli("call", "--help", env=env).stdout
    assert '--stdio "BEFEHLSZEILE"' in call_help and "--budget SEKUNDEN" in call_help
    assert "COMMAND LINE" not in call_help
    replay_help = cli("replay", "--help", env=env).stdout
    assert replay_help.count("LAUF:SCHRITT") == 2 and "RUN:STEP" not in replay_help  # the usage and the argument


def test_why_args_do_not_parse_is_said_in_words_of_ours_in_german_too(tmp_path: Path) -> None:
    """`call --args '{"text" "hi"}'` said Python's English ("Expecting ':' delimiter: line 1 column
    9 (char 8)") in a German sentence; nothing is sent."""
    env = {"RUN_INSPECTOR_DB": str(tmp_path / "runs.db"), "LANG": "de_DE.UTF-8"}
    german = cli("call", "http://127.0.0.1:9/mcp", "echo", "--args", '{"text" "hi"}', env=env)
    english = cli("--lang", "en", "call", "http://127.0.0.1:9/mcp", "echo", "--args", '{"text" "hi"}', env=env)
    assert german.returncode == 2 == english.returncode
    assert german.stderr.strip() == ("run-inspector: --args ist in Zeile 1, Spalte 9 kein gültiges JSON: ein Schlüssel "
                                     "eines Objekts ohne Doppelpunkt danach")
    assert english.stderr.strip() == ("run-inspector: --args is not valid JSON at line 1, column 9: an object's key "
                                      "without a colon after it")
    assert not (tmp_path / "runs.db").exists()


@pytest.mark.parametrize("words", [["--limit", "x"], ["--outcome", "nope"], ["--limit"], ["extra"], ["--s", "x"]],
                         ids=["type", "choice", "missing value", "unrecognized", "ambiguous"])
def test_argparse_refusals_are_english_in_json_whatever_the_language(tmp_path: Path, words: list[str]) -> None:
    """`--lang de --json runs list --limit x` put argparse's German sentence in the JSON object's message,
    which is English in every language (docs/cli-json.md); standard error says it in German. An abbreviation
    of several options (`--s`: --status, --server, --search), which argparse refuses by its parser's error()
    and not by an ArgumentError, was German there still."""
    db = str(tmp_path / "runs.db")
    german = cli_process("--lang", "de", "--json", "runs", "list", "--db", db, *words)
    english = cli_process("--lang", "en", "--json", "runs", "list", "--db", db, *words)
    assert german.returncode == 2 == english.returncode
    assert german.stdout == english.stdout
    message = json.loads(german.stdout)["error"]["message"]
    assert message.startswith(("argument --", "unrecognized arguments: ", "ambiguous option: --s could match"))
    shown = german.stderr.strip()
    assert shown.startswith(("run-inspector: Argument --", "run-inspector: unbekannte Argumente: ",
                             "run-inspector: mehrdeutige Option: --s passt zu")), shown
    assert english.stderr.strip() == f"run-inspector: {message}"
