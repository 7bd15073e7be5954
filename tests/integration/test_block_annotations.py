"""A content block's ``annotations`` (who it is for, its priority, when it changed) are kept beside the
block and said in words: in ``call --json``'s ``content_blocks``, in ``call``'s readable lines, in
``runs show`` of the stored step and beside a prompt's messages, in English and German. A hostile
server's annotations (wrong types, a priority out of range, a date that is none, a huge or deep
object) keep only what is valid and break nothing. The server: the fault server on 127.0.0.1."""

from __future__ import annotations

import base64
import json
from pathlib import Path

from inspector.cli import main
from tests.support.fault_server import FaultServer

PICTURE = base64.b64encode(b"\x89PNG\r\n\x1a\n" + b"\0" * 24).decode("ascii")
DEEP: dict = {}
_deepest = DEEP
for _ in range(500):
    _deepest["x"] = {}
    _deepest = _deepest["x"]

BLOCKS = [
    {"type": "text", "text": "Shown to the user, kept from the model.",
     "annotations": {"audience": ["user"], "priority": 0.9, "lastModified": "2026-11-30T14:02:00Z"}},
    {"type": "text", "text": "Plain words."},
    {"type": "image", "mimeType": "image/png", "data": PICTURE,
     "annotations": {"audience": ["assistant"], "priority": 0}},
    {"type": "resource_link", "uri": "demo://log/1", "name": "log",
     "annotations": {"audience": ["user", "assistant"], "priority": 1}},
    # hostile: wrong types, out of range, no date, a huge audience, a deep object beside them
    {"type": "resource", "resource": {"uri": "demo://notes", "mimeType": "text/plain", "text": "notes"},
     "annotations": {"audience": ["root", 7, *(["x" * 100] * 2000), "user"], "priority": 7,
                     "lastModified": "yesterday", "deep": DEEP}},
    {"type": "audio", "mimeType": "audio/wav", "data": "AAAA",
     "annotations": {"audience": "user", "priority": True, "lastModified": "2" * 10_000}},
    {"type": "image", "mimeType": "image/png", "data": PICTURE, "annotations": ["user"]},
    {"type": "image", "mimeType": "image/png", "data": PICTURE, "annotations": {"audience": [], "priority": "high"}},
]

PROMPT = [
    {"role": "user", "content": {"type": "text", "text": "Read this first.",
                                 "annotations": {"audience": ["assistant"], "priority": 0.25}}},
    {"role": "user", "content": {"type": "resource_link", "uri": "demo://guide", "name": "guide",
                                 "annotations": {"audience": ["user"]}}},
]


def work(exchange) -> None:
    method = exchange.request.rpc_method
    if method == "tools/list":
        exchange.send_result({"tools": [{"name": "annotated", "inputSchema": {"type": "object"}}]})
    elif method == "tools/call":
        exchange.send_result({"content": BLOCKS, "isError": False})
    elif method == "prompts/get":
        exchange.send_result({"messages": PROMPT})
    else:
        exchange.send_result({})



def test_annotations_are_kept_in_json_said_in_words_and_stored(tmp_path: Path, capsys, utc) -> None:
    db = str(tmp_path / "runs.db")
    with FaultServer("stateless", work=work) as server:
        assert main(["call", server.url, "annotated", "--json", "--db", db]) == 0
        report = json.loads(capsys.readouterr().out)
        assert main(["call", server.url, "annotated", "--no-store"]) == 0
        english = capsys.readouterr().out
        assert main(["call", server.url, "annotated", "--no-store", "--lang", "de"]) == 0
        german = capsys.readouterr().out
    blocks = report["content_blocks"]
    assert [block.get("annotations") for block in blocks] == [
        {"audience": ["user"], "priority": 0.9, "lastModified": "2026-11-30T14:02:00Z"},
        None,
        {"audience": ["assistant"], "priority": 0},
        {"audience": ["user", "assistant"], "priority": 1},
        None,  # "user" came after the first 16 entries; 7 and "yesterday" are not valid
        None,
        None,
        {"audience": []},
    ]
    assert blocks[0] == {"type": "text", "size": 39, "annotations": blocks[0]["annotations"]}
    assert ("Text (39 bytes).\n  Annotations: for the user only · priority 0.9 · changed 11/30/26, 2:02\u202fPM\n"
            in english)
    assert "Image (image/png, 32 bytes).\n  Annotations: for the assistant only · priority 0\n" in english
    assert ("Resource link log: demo://log/1.\n  Annotations: for the user and the assistant · priority 1\n"
            in english)
    assert "Embedded resource demo://notes (text/plain, 5 bytes).\n    notes\n" in english
    assert "Audio (audio/wav, 3 bytes).\nImage" in english
    assert "Image (image/png, 32 bytes).\n  Annotations: for no one\n" in english
    assert english.count("Annotations:") == 4
    assert english.count("Text (") == 1  # a text block without annotations is not named
    assert ("Text (39 Bytes).\n  Anmerkungen: nur für den Benutzer · Priorität 0,9 · geändert 30.11.26, 14:02\n"
            in german)
    assert "Ressourcen-Link log: demo://log/1.\n  Anmerkungen: für den Benutzer und den Assistenten · Priorität 1\n" \
        in german

    assert main(["runs", "show", str(report["run_id"]), "--db", db]) == 0
    shown = capsys.readouterr().out
    assert "  Annotations: for the user only · priority 0.9 · changed 11/30/26, 2:02\u202fPM" in shown
    assert "  Annotations: for the user and the assistant · priority 1" in shown
    assert main(["runs", "show", str(report["run_id"]), "--db", db, "--json"]) == 0
    stored = json.loads(capsys.readouterr().out)
    assert stored["timeline"][0]["payload"]["contentBlocks"] == blocks


def test_a_prompts_text_message_says_its_annotations(capsys) -> None:
    with FaultServer("stateless", work=work) as server:
        assert main(["prompts", "get", server.url, "guided", "--no-store"]) == 0
        out = capsys.readouterr().out
        assert main(["prompts", "get", server.url, "guided", "--no-store", "--lang", "de"]) == 0
        german = capsys.readouterr().out
    assert "user:\nRead this first.\n  Annotations: for the assistant only · priority 0.25\n" in out
    assert "user:\nResource link guide: demo://guide.\n  Annotations: for the user only\n" in out
    assert "Lies das zuerst." not in german  # server text is never translated
    assert "Read this first.\n  Anmerkungen: nur für den Assistenten · Priorität 0,25\n" in german
