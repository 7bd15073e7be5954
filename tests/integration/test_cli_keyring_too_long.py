"""A secret longer than the 65,536 characters a keyring entry holds is said to be too long, with what to do: it
was said as a refusal ('did not keep the secret Authorization (longer than 65536 characters) ... Unlock the keyring
and save it again'), in German with the English words inside. Real processes' code in this one (``cli_here``), a
real keyring in a file (tests/support/file_keyring.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.cli_process import cli_here
from tests.support.file_keyring import FileKeyring

URL = "http://127.0.0.1:9/mcp"
LONG = "Bearer " + "x" * 70_000


@pytest.mark.parametrize(("language", "said"), [
    ("en", f"run-inspector: {URL} was not saved: the system keyring cannot keep the secret Authorization, longer than "
           "the 65,536 characters one entry holds, so its settings and its secrets were left as they were. Check what "
           "was given (a key is rarely longer than a few thousand characters) and save it again.\n"),
    ("de", f"run-inspector: {URL} wurde nicht gespeichert: Der System-Schlüsselbund kann das Geheimnis Authorization "
           "nicht behalten, da der Wert länger ist als die 65.536 Zeichen, die ein Eintrag fasst; daher blieben seine "
           "Einstellungen und Geheimnisse, wie sie waren. Prüfen Sie, was angegeben wurde (ein Schlüssel ist selten "
           "länger als einige tausend Zeichen), und speichern Sie ihn erneut.\n"),
])
def test_servers_set_says_a_secret_is_too_long_for_the_keyring(tmp_path: Path, file_keyring: FileKeyring,
                                                               language: str, said: str) -> None:
    db = str(tmp_path / "runs.db")
    done = cli_here("--lang", language, "servers", "set", URL, "--header", f"Authorization: {LONG}", "--db", db)
    assert (done.returncode, done.stdout, done.stderr) == (1, "", said)
    assert file_keyring.entries() == {}
    if language == "en":  # --json says it in English, its numbers in digits
        as_json = cli_here("servers", "--json", "set", URL, "--header", f"Authorization: {LONG}", "--db", db)
        assert json.loads(as_json.stdout)["error"]["message"] == said.removeprefix("run-inspector: ").strip().replace(
            "65,536", "65536")


def test_servers_import_says_a_secret_is_too_long_for_the_keyring(tmp_path: Path, file_keyring: FileKeyring) -> None:
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {"vault": {"url": URL, "headers": {"Authorization": LONG}}}}))
    done = cli_here("servers", "import", str(config), "--yes", "--db", str(tmp_path / "runs.db"))
    assert done.returncode == 1
    assert done.stderr == ("run-inspector: Nothing was added: the configured servers and their secrets were left as "
                           "they were. The system keyring cannot keep the secret Authorization of vault: it is longer "
                           "than the 65,536 characters one entry holds. Check those values in the file (a key is "
                           "rarely longer than a few thousand characters) and import it again.\n")
    assert file_keyring.entries() == {}
