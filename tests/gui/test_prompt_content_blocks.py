"""The Prompts tab names a prompt's messages that are not text (an embedded resource, an image, a
resource link) with their details, as the result pane names a tool's blocks: the embedded text
resource's text shown plain, in English and German (the server: tests/integration's fault server
answering as server-everything's ``resource-prompt`` does)."""

from __future__ import annotations

from tests.gui.test_main_window import finished
from tests.integration.test_prompt_content_blocks import MESSAGES
from tests.support.fault_server import FaultServer


def work(exchange) -> None:
    method = exchange.request.rpc_method
    if method == "prompts/list":
        exchange.send_result({"prompts": [{"name": "resource-prompt"}]})
    elif method == "prompts/get":
        exchange.send_result({"messages": MESSAGES})
    elif method == "tools/list":
        exchange.send_result({"tools": [{"name": "echo", "inputSchema": {"type": "object"}}]})
    else:
        exchange.send_rpc_error(-32601, "no such method")


def test_a_prompts_embedded_resource_image_and_link_are_named_in_the_result_pane(qtbot, make_window) -> None:
    from inspector.gui.language import switch_language

    with FaultServer(work=work) as server:
        window = make_window((server.url, "prompting"), era="handshake")
        room = window.workbench
        room.browse.setCurrentWidget(room.prompts)
        room.prompts.list_prompts()
        qtbot.waitUntil(lambda: room.prompts.items.count() == 1, timeout=10000)
        room.prompts.items.setCurrentRow(0)
        task = room.prompts.get()
        assert finished(qtbot, task).status == "ok"
        room.detail.show_task(task)
        text = room.result.text.toPlainText()
        assert "not shown as text" not in text
        assert ("user:\nEmbedded resource demo://resource/dynamic/text/2 (text/plain, 33 bytes).\n"
                "    Resource 2: <b>plain</b>\n") in text  # plain text: the tags are characters
        assert "assistant:\nImage (image/png, 32 bytes).\n" in text
        assert text.endswith("user:\nResource link Blob Resource 1: demo://resource/dynamic/blob/1 "
                             "(application/octet-stream).")
        switch_language("de")
        try:
            german = room.result.text.toPlainText()
            assert "Eingebettete Ressource demo://resource/dynamic/text/2 (text/plain, 33 Bytes)." in german
            assert "Bild (image/png, 32 Bytes)." in german
        finally:
            switch_language("en")
