"""The recording proxy's sentences (a call the agent cancelled, an answer that never came) are stored
in English (the database, ``--json``) and said in the reader's language where a person reads them:
the Runs tab's timeline and step detail, and ``runs show``. A real proxy, the demo server or a
misbehaving server on 127.0.0.1, the official SDK as the agent, a real database."""

from __future__ import annotations

import json
from typing import Any

import anyio
import pytest
from mcp.client import Client

from inspector.capture.proxy import ProxyServer
from inspector.demo import DemoServer
from inspector.gui.runs.timeline_model import COLUMNS
from inspector.store import RunStore, resolve_db_path
from tests.gui.test_runs_words import _shown_in
from tests.integration.test_recording_proxy import CALL, _through_proxy
from tests.support.cli_process import cli_here

LIST = {"jsonrpc": "2.0", "id": 3, "method": "tools/list", "params": {}}


def _run(title: str) -> tuple[int, dict[str, Any]]:
    with RunStore.open(resolve_db_path()) as store:
        run = next(run for run in store.list_runs(limit=None) if run.title == title)
        return run.id, next(iter(store.iter_steps(run.id))).payload


def _runs_show(run_id: int, *options: str) -> str:
    done = cli_here("runs", "show", str(run_id), *options, env={"RUN_INSPECTOR_DB": str(resolve_db_path())})
    assert done.returncode == 0, done.stderr
    return done.stdout


def _stored_json(run_id: int) -> str:
    return json.dumps(json.loads(_runs_show(run_id, "--json", "--lang", "de")), ensure_ascii=False)


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_call_the_agent_cancelled_says_so_in_the_readers_language(qtbot, make_window, language: str) -> None:
    async def agent(url: str) -> None:
        async with Client(url, mode="legacy") as client:
            with anyio.move_on_after(1.0):
                await client.call_tool("hang", {})

    with DemoServer() as demo, ProxyServer(demo.url, resolve_db_path()) as proxy:
        anyio.run(agent, proxy.url)
    english = "The agent cancelled tools/call (notifications/cancelled) before the answer came."
    run_id, payload = _run("tools/call hang · proxy")
    assert payload["toolResult"] == english and payload["toolOutcome"] == "cancelled"
    assert english in _stored_json(run_id)
    said = english if language == "en" else \
        "Der Agent hat tools/call abgebrochen (notifications/cancelled), bevor die Antwort kam."
    with _shown_in(qtbot, make_window, language, run_id) as tab:
        tab.select_step(0)
        qtbot.waitUntil(lambda: tab.detail.result.toPlainText() == said)


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_call_whose_answer_had_no_result_says_so_in_the_readers_language(qtbot, make_window,
                                                                           language: str) -> None:
    body = b"<html>oops</html>"
    _through_proxy(lambda: [b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: "
                            + str(len(body)).encode() + b"\r\n\r\n" + body], resolve_db_path(), CALL)
    run_id, payload = _run("tools/call echo · proxy")
    server = payload["legs"][0]["exchange"]["request"]["url"]
    english = f"The server {server} ended its answer to tools/call without a result."
    assert payload["toolResult"] == english
    assert english in _stored_json(run_id)
    said = english if language == "en" else \
        f"Der Server {server} hat seine Antwort auf tools/call ohne Resultat beendet."
    assert f"echo: {said}" in _runs_show(run_id, "--lang", language)
    with _shown_in(qtbot, make_window, language, run_id) as tab:
        assert tab.timeline.index(0, COLUMNS.index("details")).data() == f"echo: {said}"
        tab.select_step(0)
        qtbot.waitUntil(lambda: tab.detail.result.toPlainText() == said)


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_request_the_server_refused_says_so_in_the_readers_language(language: str) -> None:
    _through_proxy(lambda: [b"HTTP/1.1 500 Internal Server Error\r\nContent-Type: text/plain\r\n"
                            b"Content-Length: 4\r\n\r\nbusy"], resolve_db_path(), LIST)
    run_id, payload = _run("tools/list · proxy")
    server = payload["legs"][0]["exchange"]["request"]["url"]
    english = f"tools/list: The server {server} answered tools/list with HTTP 500."
    assert payload["content"] == english
    assert english in _stored_json(run_id)
    said = english if language == "en" else f"tools/list: Der Server {server} hat tools/list mit HTTP 500 beantwortet."
    assert said in _runs_show(run_id, "--lang", language)
