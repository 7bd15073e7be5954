"""A prompt's messages that are not text (an embedded resource, an image, a resource link, as the
reference server-everything's ``resource-prompt`` sends) are named as a tool's answer names them:
the URI, type and size, and an embedded text resource's text, never hidden behind their kind. On
the command line, in English and German, every server text made safe."""

from __future__ import annotations

import base64

from inspector.cli import main
from tests.support.fault_server import FaultServer

PICTURE = base64.b64encode(b"\x89PNG\r\n\x1a\n" + b"\0" * 24).decode("ascii")
MESSAGES = [
    {"role": "user", "content": {"type": "text", "text": "Please analyze the following resource:"}},
    {"role": "user", "content": {"type": "resource", "resource": {
        "uri": "demo://resource/dynamic/text/2", "mimeType": "text/plain",
        "text": "Resource 2: <b>plain</b>\n\u001b[31mred"}}},
    {"role": "assistant", "content": {"type": "image", "mimeType": "image/png", "data": PICTURE}},
    {"role": "user", "content": {"type": "resource_link", "uri": "demo://resource/dynamic/blob/1",
                                 "name": "Blob Resource 1", "mimeType": "application/octet-stream"}},
]


def answer(exchange) -> None:
    exchange.send_result({"messages": MESSAGES})


def test_a_prompts_embedded_resource_image_and_link_are_named_with_their_details(capsys) -> None:
    with FaultServer("stateless", work=answer) as server:
        assert main(["prompts", "get", server.url, "resource-prompt", "--no-store"]) == 0
        out = capsys.readouterr().out
        assert main(["prompts", "get", server.url, "resource-prompt", "--no-store", "--lang", "de"]) == 0
        german = capsys.readouterr().out
    assert "not shown as text" not in out
    assert ("user:\nEmbedded resource demo://resource/dynamic/text/2 (text/plain, 33 bytes).\n"
            "    Resource 2: <b>plain</b>\n     [31mred\n") in out  # the escape made a space: nothing coloured
    assert "assistant:\nImage (image/png, 32 bytes).\n" in out
    assert "user:\nResource link Blob Resource 1: demo://resource/dynamic/blob/1 (application/octet-stream).\n" in out
    assert "Eingebettete Ressource demo://resource/dynamic/text/2 (text/plain, 33 Bytes)." in german
    assert "Bild (image/png, 32 Bytes)." in german
