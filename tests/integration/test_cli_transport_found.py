"""The `initialize` POST a server of the older HTTP+SSE transport refuses with 405, on the command line:
`call` and `runs show` say what it found (the transport), in English and German, instead of "failed"
beside "HTTP 405" in an operation that ended ok. The stored outcome stays `failed` (`--json` and the
stored leg keep it); an address that refuses the POST and has no event stream either keeps its
failure; the fallback's statuses are the client's."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Route

from inspector.cli.words import leg_outcome_word
from inspector.i18n import transport_probe
from inspector.mcp import line_opening
from inspector.store import RunStore
from tests.support.asgi_server import serve_asgi
from tests.support.cli_process import main_output
from tests.support.stdio_server import server as sdk_server

EN = "transport found: the server speaks the older HTTP+SSE transport (HTTP 405 to the Streamable HTTP POST)"
DE = "Transport gefunden: der Server spricht den älteren HTTP+SSE-Transport (HTTP 405 auf den Streamable-HTTP-POST)"


def _refused_line(out: str) -> str:
    [line] = [line for line in out.splitlines() if line.strip().startswith("initialize") and "HTTP 405" in line]
    return line


def test_the_refused_post_that_found_the_older_transport_is_said_in_words_and_stays_failed(
        tmp_path: Path, capsys) -> None:
    db = str(tmp_path / "runs.db")
    with serve_asgi(sdk_server.sse_app(), "/sse") as url:
        called = main_output(capsys, "call", url, "echo", "--args", '{"text": "old"}', "--db", db)
        german = main_output(capsys, "--lang", "de", "call", url, "echo", "--args", '{"text": "old"}', "--no-store",
                             "--db", db)
        as_json = json.loads(main_output(capsys, "call", url, "echo", "--args", '{"text": "old"}', "--no-store",
                                         "--json", "--db", db))
    assert called.splitlines()[0].endswith(": ok (budget 20 s)"), called
    assert _refused_line(called).endswith(f"  {EN}"), called
    assert _refused_line(german).endswith(f"  {DE}"), german
    [refused] = [leg for leg in as_json["legs"] if leg["http_status"] == 405 and leg["method"] == "initialize"]
    assert refused["outcome"] == "failed" and as_json["outcome"] == "ok"  # the JSON keeps the stored value
    shown = main_output(capsys, "runs", "show", "last", "--db", db)
    assert _refused_line(shown).endswith(f"  {EN}"), shown
    assert _refused_line(main_output(capsys, "--lang", "de", "runs", "show", "last", "--db", db)).endswith(f"  {DE}")
    stored = json.loads(main_output(capsys, "runs", "show", "last", "--json", "--db", db))
    legs = stored["timeline"][0]["payload"]["legs"]
    assert [(leg["method"], leg["outcome"]) for leg in legs[1:3]] == [("initialize", "failed"), ("connect", "ok")]


def test_an_address_that_refuses_the_post_and_has_no_event_stream_keeps_its_failure(tmp_path: Path) -> None:
    from tests.support.cli_process import cli

    async def refuse(_request):  # noqa: ANN001 - starlette's request
        return PlainTextResponse("no", status_code=405)

    app = Starlette(routes=[Route("/mcp", refuse, methods=["GET", "POST"])])
    with serve_asgi(app, "/mcp") as url:
        done = cli("ping", url, "--db", str(tmp_path / "runs.db"))
    assert done.returncode != 0
    assert _refused_line(done.stdout).endswith("  failed"), done.stdout  # the refusal is why it failed
    assert "transport found" not in done.stdout + done.stderr


@pytest.mark.parametrize(("following", "found"), [(("connect", "ok"), True), (("connect", "failed"), False),
                                                  ((None, None), False), (("initialize", "ok"), False)])
def test_only_a_refusal_followed_by_an_open_event_stream_is_a_finding(following: tuple, found: bool) -> None:
    word = leg_outcome_word("failed", "initialize", 405, None, *following)
    assert (word == EN) is found and (word == "failed") is not found
    assert leg_outcome_word("failed", "initialize", 500, None, "connect", "ok") == "failed"
    assert leg_outcome_word("failed", "tools/call", 405, None, "connect", "ok") == "failed"


def test_the_statuses_are_the_ones_the_client_falls_back_on() -> None:
    assert transport_probe.LEGACY_STATUSES == line_opening.LEGACY_STATUSES


def test_the_json_legs_say_what_they_found(tmp_path: Path, capsys) -> None:
    """``call --json`` and ``runs show --json`` said the refused POST only as ``failed`` beside 405 (and the
    refused era probe as ``ok``), where the readable output says what each found: each leg has a
    ``finding`` now (``null`` for a leg that found nothing but its answer); the stored outcomes stay."""
    db = str(tmp_path / "runs.db")
    with serve_asgi(sdk_server.sse_app(), "/sse") as url:
        called = json.loads(main_output(capsys, "call", url, "echo", "--args", '{"text": "old"}', "--json",
                                        "--db", db))
    found = [("server/discover", 405, "ok", "era_probe_refused"), ("initialize", 405, "failed", "transport_found"),
             ("connect", None, "ok", None), ("initialize", None, "ok", None),
             ("notifications/initialized", None, "ok", None), ("tools/call", None, "ok", None)]
    assert [(leg["method"], leg["http_status"], leg["outcome"], leg["finding"]) for leg in called["legs"]] == found
    assert set(called["legs"][0]) == {"method", "granted_s", "budget_left_s", "elapsed_ms", "http_status", "outcome",
                                      "finding"}  # the fields there were, and the one added
    shown = json.loads(main_output(capsys, "runs", "show", "last", "--json", "--db", db))
    legs = shown["timeline"][0]["payload"]["legs"]
    assert [(leg["method"], leg["httpStatus"], leg["outcome"], leg["finding"]) for leg in legs] == found
    with RunStore.open(db) as store:  # not stored: said from what the leg keeps, as the readable lines are
        assert all("finding" not in leg for leg in store.step_at(1, 1).payload["legs"])
