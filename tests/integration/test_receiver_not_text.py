"""A JSON body spelling a lone surrogate (``"\\udc00"``): refused as not text, naming the place, as an
import of the same spans refuses its file; before, the receiver answered 500 with the UnicodeEncodeError
SQLite raised. Real HTTP to a real receiver on 127.0.0.1, a real SQLite file."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from inspector.capture import ReceiverOptions, TraceReceiver

JSON = {"Content-Type": "application/json"}
TRACE = "0af7651916cd43dd8448eb211c80319c"


def _body(name: str = "fine", key: str = "k", value: str = "v") -> bytes:
    """One span's request, the placeholders spelled into the JSON text as they are (escapes kept)."""
    return ('{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"' + TRACE + '","spanId":"b7ad6b7169203331",'
            '"name":"' + name + '","startTimeUnixNano":"1","endTimeUnixNano":"2","attributes":[{"key":"' + key
            + '","value":{"stringValue":"' + value + '"}}]}]}]}]}').encode()


@pytest.fixture
def receiver(tmp_path: Path) -> Iterator[TraceReceiver]:
    with TraceReceiver(tmp_path / "received.db", ReceiverOptions(port=0, quiet_s=0.4)) as running:
        yield running


def _runs(db: Path) -> int:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT COUNT(*) FROM runs").fetchone()[0]


@pytest.mark.parametrize(("fields", "place"), [
    ({"name": "\\udc00"}, "resourceSpans[0].scopeSpans[0].spans[0].name"),
    ({"value": "a\\uD800b"}, "resourceSpans[0].scopeSpans[0].spans[0].attributes[0].value.stringValue"),
    ({"key": "\\ud83d"}, "resourceSpans[0].scopeSpans[0].spans[0].attributes[0].key"),
])
def test_a_lone_surrogate_is_refused_as_not_text_naming_its_place(receiver: TraceReceiver, fields: dict[str, str],
                                                                  place: str) -> None:
    answer = httpx.post(receiver.url, content=_body(**fields), headers=JSON, timeout=10)
    assert answer.status_code == 400, answer.text
    assert answer.json() == {"code": 3, "message": f"The body holds a string that is not text (an escaped lone "
                                                   f"surrogate) at {place}: nothing of it was stored."}
    assert _runs(receiver.db_path) == 0
    # The receiver goes on: the same span, spelled as text, is stored.
    assert httpx.post(receiver.url, content=_body(), headers=JSON, timeout=10).status_code == 200
    assert _runs(receiver.db_path) == 1


def test_a_surrogate_pair_and_an_escaped_backslash_are_text(receiver: TraceReceiver) -> None:
    """"\\ud83d\\ude00" is one character (😀) and "\\\\udc00" a backslash and five letters: both stored."""
    answer = httpx.post(receiver.url, content=_body(name="\\ud83d\\ude00", value="\\\\udc00"), headers=JSON,
                        timeout=10)
    assert answer.status_code == 200, answer.text
    with sqlite3.connect(receiver.db_path) as conn:
        assert conn.execute("SELECT title FROM runs").fetchone()[0] == "\N{GRINNING FACE}"
