"""The Wire tab of the step detail: a real call to the official SDK's server over Streamable HTTP,
stored in a real database, shown leg by leg; copied as JSON and as a curl command without secrets;
the curl command replayed against the server answers as the call did."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import httpx
from PySide6.QtWidgets import QApplication

from inspector.gui.widgets.wire_text import curl_command, cut_text, leg_title, message_kind
from inspector.mcp import ServerEndpoint
from inspector.runs import Leg
from tests.gui.test_step_wire import record, shown
from tests.support.asgi_server import serve_asgi
from tests.support.stdio_server import server as sdk_server

SECRET = "wire-view-secret-7f3a9c"


def _titles(item) -> list[str]:
    return [item.child(index).text(0) for index in range(item.childCount())]


def test_each_leg_opens_to_its_request_answer_and_events_and_copies_without_secrets(qtbot, tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    with serve_asgi(sdk_server.streamable_http_app(), "/mcp") as url:
        server = ServerEndpoint(url, headers={"Authorization": f"Bearer {SECRET}", "X-Trace-Tag": "demo"},
                                era="handshake")
        run_id = record(db, server, tool="echo", text="<b>hi</b>")
        detail = shown(qtbot, db, run_id)
        tabs, view = detail.tabs, detail.exchanges
        assert tabs.isTabVisible(tabs.indexOf(view)) and tabs.tabText(tabs.indexOf(view)) == "Wire"
        legs = [view.tree.topLevelItem(index) for index in range(view.tree.topLevelItemCount())]
        methods = [item.text(0).split(" · ")[0] for item in legs]
        assert methods[0] == "1. initialize" and methods[-1].endswith("tools/call"), methods
        call = legs[-1]
        assert "HTTP 200" in call.text(0)
        titles = _titles(call)
        assert titles[0] == f"Request: POST {url}" and titles[1].startswith("Answer: ")
        view.tree.setCurrentItem(call.child(0))
        request = view.text.toPlainText()
        assert request.startswith(f"POST {url}\n") and "x-trace-tag: [REDACTED]" in request
        assert '"method": "tools/call"' in request and "&lt;" not in request and "<b>hi</b>" in request
        assert SECRET not in request and "[REDACTED]" in request
        # The answer (an event stream from the SDK in this era): each event at its time, the answer named.
        answer = call.child(1)
        events = _titles(answer)
        assert events and all(title.startswith("+") for title in events)
        assert any(title.endswith("the answer") for title in events), events
        view.tree.setCurrentItem(answer.child(len(events) - 1))
        assert "<b>hi</b>" in view.text.toPlainText()
        # Copy as JSON: the leg as kept; copy as curl: without the secret header.
        view.tree.setCurrentItem(call)
        said = view.copy_leg_json()
        copied = json.loads(QApplication.clipboard().text())
        assert copied["method"] == "tools/call" and copied["request"]["url"] == url
        assert said.startswith(f"Copied leg {len(legs)} as JSON") and SECRET not in QApplication.clipboard().text()
        view.copy_leg_curl()
        command = QApplication.clipboard().text()
        words = shlex.split(command)
        assert words[:5] == ["curl", "-sS", "-X", "POST", url] and SECRET not in command
        # Configured header values count as credentials (never shown): a command leaves them out, as the session's id.
        sent = [words[index + 1] for index, word in enumerate(words) if word == "-H"]
        assert not {"authorization", "x-trace-tag", "mcp-session-id"} & {header.split(":")[0] for header in sent}
        assert "[REDACTED]" not in command and "content-type: application/json" in sent
        # Replayed (as a user would paste it, with their own token and a fresh session), it calls the tool.
        body = words[words.index("--data-raw") + 1]
        headers = dict(header.split(": ", 1) for header in sent)
        assert json.loads(body)["params"]["name"] == "echo"
        with httpx.Client() as plain:
            opened = plain.post(url, headers={"accept": "application/json, text/event-stream"}, json={
                "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                    "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}})
            session = opened.headers["mcp-session-id"]
            plain.post(url, headers={"mcp-session-id": session, "accept": "application/json, text/event-stream"},
                       json={"jsonrpc": "2.0", "method": "notifications/initialized"})
            again = plain.post(url, content=body, headers={**headers, "mcp-session-id": session})
        assert again.status_code == 200 and "<b>hi</b>" in again.text


def test_a_step_without_legs_has_no_wire_tab_and_a_leg_that_kept_nothing_says_so(qtbot, tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    with serve_asgi(sdk_server.streamable_http_app(), "/mcp") as url:
        run_id = record(db, ServerEndpoint(url), tool="echo", text="hi")
    detail = shown(qtbot, db, run_id)
    assert detail.exchanges.show_legs([Leg("tools/call", 5, 12.0, 200, "ok")]) is False
    item = detail.exchanges.tree.topLevelItem(0)
    assert item.text(0).endswith("nothing kept") and item.childCount() == 0
    detail.exchanges.tree.setCurrentItem(item)
    assert "kept nothing" in detail.exchanges.text.toPlainText()
    assert not detail.exchanges.copy_json.isEnabled() and not detail.exchanges.copy_curl.isEnabled()
    detail.show_step(None)
    assert not detail.tabs.isTabVisible(detail.tabs.indexOf(detail.exchanges))


def test_the_words_of_a_leg() -> None:
    line = {"level": "full", "request": {"method": "POST", "url": "", "headers": [], "body": "{}"}}
    assert curl_command(line) is None  # a line on stdin has no address to send to
    odd = {"level": "full", "request": {"method": "POST", "url": "https://example.test/mcp?x='1'",
                                        "headers": [["Cookie", "[REDACTED]"], ["X-A", "it's"]],
                                        "body": "{\"a\": \"$(rm -rf /)\"}"}}
    words = shlex.split(curl_command(odd))
    assert words == ["curl", "-sS", "-X", "POST", "https://example.test/mcp?x='1'", "-H", "X-A: it's",
                     "--data-raw", "{\"a\": \"$(rm -rf /)\"}"]
    assert message_kind('{"jsonrpc":"2.0","id":3,"method":"sampling/createMessage"}') == \
        "the server asked: sampling/createMessage"
    assert message_kind('{"jsonrpc":"2.0","method":"notifications/progress"}') == "notification notifications/progress"
    assert message_kind('{"jsonrpc":"2.0","id":3,"error":{}}') == "an error answer"
    assert message_kind("not json <b>") == "not json <b>"
    assert cut_text({"cut": {"bytes": 2048, "events": 0}}).endswith("2,048 bytes")
    assert cut_text({}) == ""
    leg = Leg("tools/call", 5, 12.0, None, "failed")
    assert leg_title(2, "tools/call", leg, {"request": {}}) == "2. tools/call · no answer · 0.012 s"


def test_the_workbench_shows_each_leg_as_it_ends_and_the_cancelled_call_with_its_request(
        qtbot, make_window, demo_server) -> None:
    from tests.gui.test_main_window import choose, finished

    window = make_window((demo_server.url, "Demo server"))
    choose(window, "hang")
    task = window.workbench.run_current_tool()
    detail = window.workbench.detail
    assert detail.tabText(detail.indexOf(detail.wire)) == "Wire"
    tree = detail.wire.tree
    # While the call hangs, the legs before it (if the era and catalogue needed any) are shown; the call is not.
    qtbot.waitUntil(lambda: bool(task.state.legs) and task.state.legs[-1].method == "tools/call"
                    and task.state.legs[-1].running, timeout=10000)
    shown = [tree.topLevelItem(index).text(0) for index in range(tree.topLevelItemCount())]
    assert len(shown) == len(task.finished_legs) and not any("tools/call" in title for title in shown), shown
    assert all(tree.topLevelItem(index).childCount() >= 2 for index in range(tree.topLevelItemCount()))
    task.cancel()
    assert finished(qtbot, task).status == "cancelled"
    qtbot.waitUntil(lambda: tree.topLevelItemCount() == len(shown) + 1, timeout=5000)
    assert "tools/call" in tree.topLevelItem(len(shown)).text(0)
    call = tree.topLevelItem(tree.topLevelItemCount() - 1)
    tree.setCurrentItem(call.child(0))
    assert '"name": "hang"' in detail.wire.text.toPlainText()
    # Selecting the operation again does not double its updates.
    window.workbench.detail.show_task(task)
    window.workbench.detail.show_task(task)
    assert tree.topLevelItemCount() == len(task.finished_legs)
