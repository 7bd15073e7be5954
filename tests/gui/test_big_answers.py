"""The Workbench's Result of a large answer is bounded as the Runs tab's step detail bounds a stored step
(the first hundred blocks named, then how many more; the structure tree cut), says what it left out,
and puts the whole answer on the clipboard on request. The server: the fault server on 127.0.0.1.
How long the window froze before these bounds: benchmarks/gui_big_answers.py. Screenshots of the
bounded Result in English and German go to RUN_INSPECTOR_SHOTS (default: the screenshot folder)."""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtWidgets import QApplication

from tests.gui.test_main_window import choose, finished
from tests.support.fault_server import FaultServer

SHOTS = Path(os.environ.get("RUN_INSPECTOR_SHOTS", Path(__file__).parent / "screenshots"))


def answering(result: dict):
    def work(exchange) -> None:
        if exchange.request.rpc_method == "tools/list":
            exchange.send_result({"tools": [{"name": "big", "inputSchema": {"type": "object"}}]})
        else:
            exchange.send_result(result)
    return work


LINKS = {"content": [{"type": "text", "text": "Here are the links."}]
         + [{"type": "resource_link", "uri": f"demo://r/{n}", "name": f"r{n}"} for n in range(5000)]}


def test_five_thousand_blocks_are_named_as_the_step_detail_names_them(qtbot, make_window) -> None:
    from inspector.gui.language import switch_language

    with FaultServer(work=answering(LINKS)) as server:
        window = make_window((server.url, "big"), era="handshake")
        window.resize(1280, 800)
        choose(window, "big")
        assert finished(qtbot, window.workbench.run_current_tool(), timeout=30000).status == "ok"
        result = window.workbench.result
        text = result.text.toPlainText()
        assert "Resource link r0: demo://r/0." in text and "Resource link r98: demo://r/98." in text
        assert "demo://r/99." not in text  # the text block is the first of the hundred named
        assert text.endswith("4,901 more content blocks are not named here.")
        assert text.count("\n") < 200
        assert len(window.workbench.detail.links.uris()) == 99  # the links of the blocks named
        assert "Not shown as text: 5,000 resource links." in result.sentence.text()  # the count as a number is said
        assert "Copy the whole answer puts all of it on the clipboard." in result.sentence.text()
        assert not result.copy_whole.isHidden()
        result.copy_whole.click()
        copied = QApplication.clipboard().text()
        assert copied.startswith("[5000 blocks are not shown as text: 5000 resource links.]\nHere are the links.")
        assert "Resource link r4999: demo://r/4999." in copied and copied.count("Resource link ") == 5000
        SHOTS.mkdir(parents=True, exist_ok=True)
        qtbot.wait(50)  # the result pane lays out its longer sentence before it is shot
        assert window.grab().save(str(SHOTS / "big-answer-en.png"))
        switch_language("de")
        try:
            german = result.text.toPlainText()
            assert german.endswith("4.901 weitere Inhaltsblöcke sind hier nicht genannt.")
            assert result.copy_whole.text() == "Die ganze Antwort kopieren"
            qtbot.wait(50)  # the window lays itself out again in German before it is shot
            assert window.grab().save(str(SHOTS / "big-answer-de.png"))
        finally:
            switch_language("en")


def test_twenty_thousand_keys_make_a_bounded_tree_and_are_copied_whole(qtbot, make_window) -> None:
    wide = {"content": [{"type": "text", "text": "wide"}],
            "structuredContent": {f"k{n:05d}": {"v": n, "w": [n, n]} for n in range(20_000)}}
    with FaultServer(work=answering(wide)) as server:
        window = make_window((server.url, "big"), era="handshake")
        choose(window, "big")
        assert finished(qtbot, window.workbench.run_current_tool(), timeout=30000).status == "ok"
        result = window.workbench.result
        model = result.structure
        # The first 500 keys (as the step detail's Structured tab), then the key "…" saying how many more.
        assert model.rowCount() == 501
        assert model.item(500, 0).text() == "…" and model.item(500, 1).text() == "19,500 more keys"
        rows = sum(model.item(row, 0).rowCount() for row in range(model.rowCount()))
        assert rows <= 5_000
        assert not result.copy_whole.isHidden()
        result.copy_whole.click()
        copied = QApplication.clipboard().text()
        assert '"k19999": {' in copied and copied.count('"v": ') == 20_000


def test_embedded_texts_are_named_up_to_what_the_pane_shows(qtbot, make_window) -> None:
    texts = {"content": [{"type": "resource", "resource": {"uri": f"demo://t/{n}", "text": "line\n" * 1500}}
                         for n in range(100)]}
    with FaultServer(work=answering(texts)) as server:
        window = make_window((server.url, "big"), era="handshake")
        choose(window, "big")
        assert finished(qtbot, window.workbench.run_current_tool(), timeout=30000).status == "ok"
        text = window.workbench.result.text.toPlainText()
        # Blocks are named until their lines fill what the pane shows of one text, then counted.
        assert "Embedded resource demo://t/0 (7,500 bytes)." in text
        assert "demo://t/99" not in text
        assert "more content blocks are not named here." in text
        assert len(text) < 120_000
        result = window.workbench.result
        assert not result.copy_whole.isHidden()  # blocks left out: the whole answer one action away
        result.copy_whole.click()
        assert QApplication.clipboard().text().count("Embedded resource demo://t/") == 100


def test_a_small_answer_has_no_copy_button(qtbot, make_window) -> None:
    with FaultServer(work=answering({"content": [{"type": "text", "text": "small"}]})) as server:
        window = make_window((server.url, "big"), era="handshake")
        choose(window, "big")
        assert finished(qtbot, window.workbench.run_current_tool()).status == "ok"
        assert window.workbench.result.copy_whole.isHidden()
        assert "left out" not in window.workbench.result.sentence.text()


def test_listing_twenty_thousand_tools_does_not_ask_every_row(qtbot, make_window, monkeypatch) -> None:
    from inspector.gui.workbench.tools_model import ToolsModel

    tools = [{"name": f"tool_{n:05d}", "description": "d" * 200, "inputSchema": {"type": "object"}}
             for n in range(20_000)]

    def work(exchange) -> None:
        if exchange.request.rpc_method == "tools/list":
            start = int((exchange.request.params or {}).get("cursor") or 0)
            page = {"tools": tools[start:start + 2000]}
            if start + 2000 < len(tools):
                page["nextCursor"] = str(start + 2000)
            exchange.send_result(page)
        else:
            exchange.send_result({"content": [{"type": "text", "text": "ok"}]})

    asked: list[int] = []
    data = ToolsModel.data

    def counted(self, index, role=0):
        asked.append(index.row())
        return data(self, index, role)

    monkeypatch.setattr(ToolsModel, "data", counted)
    with FaultServer(work=work) as server:
        window = make_window((server.url, "many"), era="handshake")
        panel = window.workbench.tools
        qtbot.waitUntil(lambda: panel.model.rowCount() == 20_000, timeout=30000)
        panel.view.setCurrentIndex(panel.proxy.index(19_999, 0))  # the last tool chosen, as a click chooses it
        qtbot.wait(50)
        assert panel.current_tool()["name"] == "tool_19999"
        # Rows all one line high: listing and choosing ask the rows shown, not each of the 20,000 its size.
        assert len(set(asked)) < 1_000


def test_a_tool_whose_input_schema_is_nested_four_hundred_deep_can_be_chosen_and_run(qtbot, make_window) -> None:
    deep = b'{"type":"object","properties":{"a":' * 400 + b'{"type":"string"}' + b"}}" * 400

    def work(exchange) -> None:
        if exchange.request.rpc_method == "tools/list":
            exchange.send(200, b'{"jsonrpc":"2.0","id":%d,"result":{"tools":[{"name":"deep","inputSchema":'
                          % exchange.request.rpc_id + deep + b"}]}}")
        else:
            exchange.send_result({"content": [{"type": "text", "text": "ran"}]})

    with FaultServer(work=work) as server:
        window = make_window((server.url, "deep"), era="handshake")
        choose(window, "deep")  # its schema too deep to check: an unusable schema, not an error in the window
        assert window.workbench.tools.current_tool()["name"] == "deep"
        form = window.workbench.arguments.form
        assert form.field_at(("a",) * 12).kind == "json"  # below twelve levels: one box of JSON text
        assert finished(qtbot, window.workbench.run_current_tool()).status == "ok"
        assert "ran" in window.workbench.result.text.toPlainText()
