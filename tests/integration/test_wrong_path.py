"""An address whose path is wrong (the server's root, a typo): a real MCP server (the official SDK's)
answers HTTP 404 there to `initialize` and to the older transport's event stream. The error says
that no MCP server answers at the address and to check its path, in English and German; at the
right path nothing of it is said."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inspector.cli import main
from tests.support.asgi_server import serve_asgi
from tests.support.cli_process import main_output
from tests.support.sdk_server import build_sdk_server

SAID = {"en": "no MCP server answers at this address. Check the address's path (servers often answer at /mcp, "
              "those of the older transport at /sse).",
        "de": "Unter dieser Adresse antwortet kein MCP-Server. Prüfen Sie den Pfad der Adresse (Server antworten "
              "oft unter /mcp, die des älteren Transports unter /sse)."}


@pytest.fixture(scope="module")
def sdk_url():
    app = build_sdk_server().streamable_http_app(json_response=False, stateless_http=False)
    with serve_asgi(app) as url:
        yield url


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_wrong_path_is_said_to_be_one(tmp_path: Path, capsys, sdk_url: str, language: str) -> None:
    wrong = sdk_url.removesuffix("/mcp") + "/"
    assert main(["--lang", language, "tools", wrong, "--db", str(tmp_path / "runs.db")]) == 1
    said = " ".join(capsys.readouterr().out.split())
    assert "HTTP 404" in said or "HTTP-Status 404" in said, said
    assert SAID[language] in said, said


def test_the_json_and_the_stored_run_say_it_and_the_right_path_does_not(tmp_path: Path, capsys, sdk_url: str) -> None:
    db = str(tmp_path / "runs.db")
    wrong = sdk_url.removesuffix("/mcp") + "/mpc"
    assert main(["tools", wrong, "--json", "--db", db]) == 1
    answer = json.loads(capsys.readouterr().out)
    assert answer["error"]["kind"] == "http_status" and SAID["en"] in answer["error"]["message"], answer
    stored = json.loads(main_output(capsys, "runs", "show", "last", "--json", "--db", db))
    assert SAID["en"] in stored["timeline"][0]["payload"]["content"], stored
    right = main_output(capsys, "tools", sdk_url, "--db", db)
    assert "answers at this address" not in right and "tools in 1 page" in right.replace("3 tools", "tools"), right


def test_a_redirect_answers_the_era_probe_with_nothing_the_probe_ends_the_operation(tmp_path: Path, capsys,
                                                                                    sdk_url: str) -> None:
    """The SDK's server at `/mcp/` (a trailing slash, as people type it) redirects to `/mcp` (HTTP 307). The
    probe's leg read "server/discover HTTP 307 ok" (its refusal taken for the era's answer), the handshake
    was sent to the redirecting address all the same and failed there. A redirect says nothing of the era:
    the probe fails with it and nothing more is sent; the era is not remembered."""
    db = str(tmp_path / "runs.db")
    assert main(["tools", sdk_url + "/", "--json", "--db", db]) == 1
    answer = json.loads(capsys.readouterr().out)
    assert [(leg["method"], leg["http_status"], leg["outcome"]) for leg in answer["legs"]] == [
        ("server/discover", 307, "failed")]
    assert answer["error"]["kind"] == "http_status", answer
    assert "answered server/discover with HTTP status 307 (Temporary Redirect)" in answer["error"]["message"]
    assert f"it pointed to {sdk_url}." in answer["error"]["message"]
    [server] = json.loads(main_output(capsys, "servers", "--json", "--db", db))["servers"]
    assert (server["found_era"], server["failed"]) == (None, 1)
