"""How the receiver reads a body's bytes: a gzip body of several members (``cat a.gz b.gz``, as gzip
tools and some exporters write it) is read whole, the size limit counting all of them; JSON that is
UTF-16 or UTF-32 text is refused as an import refuses such a file. Real HTTP to a real receiver on
127.0.0.1, a real SQLite file."""

from __future__ import annotations

import gzip
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from inspector.capture import ReceiverOptions, TraceReceiver, otlp_body
from inspector.store import RunStore
from inspector.transfer import TraceImportError, import_trace

JSON = {"Content-Type": "application/json"}
GZIP_JSON = {**JSON, "Content-Encoding": "gzip"}
SPAN = ('{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"0af7651916cd43dd8448eb211c80319c",'
        '"spanId":"b7ad6b7169203331","name":"two members","startTimeUnixNano":"1","endTimeUnixNano":"2"}]}]}]}')


@pytest.fixture
def receiver(tmp_path: Path) -> Iterator[TraceReceiver]:
    with TraceReceiver(tmp_path / "received.db", ReceiverOptions(port=0, quiet_s=0.4)) as running:
        yield running


def _titles(db: Path) -> list[str]:
    with sqlite3.connect(db) as conn:
        return [row[0] for row in conn.execute("SELECT title FROM runs")]


def test_a_gzip_body_of_two_members_is_read_whole(receiver: TraceReceiver) -> None:
    """Before: only the first member was read ("The body is not valid JSON (Expecting value ...)")."""
    half = len(SPAN) // 2
    body = gzip.compress(SPAN[:half].encode()) + gzip.compress(SPAN[half:].encode())
    assert gzip.decompress(body) == SPAN.encode()  # what gzip itself reads
    answer = httpx.post(receiver.url, content=body, headers=GZIP_JSON, timeout=10)
    assert answer.status_code == 200, answer.text
    assert answer.json() == {}
    assert _titles(receiver.db_path) == ["two members"]


def test_the_unpacked_limit_counts_every_member(receiver: TraceReceiver) -> None:
    """Two members of 40 MiB each: each within the 64 MiB, together over it."""
    each = 40 * 1024 * 1024
    body = gzip.compress(b"{" + b" " * each, compresslevel=9) + gzip.compress(b" " * each + b"}", compresslevel=9)
    assert len(body) < otlp_body.MAX_BODY_BYTES
    answer = httpx.post(receiver.url, content=body, headers=GZIP_JSON, timeout=30)
    assert answer.status_code == 413, answer.text
    assert "unpacks to more than 64 MiB" in answer.json()["message"]
    # A second member cut short is said as the first one is.
    cut = httpx.post(receiver.url, content=gzip.compress(b"{") + gzip.compress(b"}")[:12], headers=GZIP_JSON,
                     timeout=10)
    assert cut.status_code == 400 and "cut short" in cut.json()["message"]
    assert _titles(receiver.db_path) == []


@pytest.mark.parametrize(("text", "encoding", "named"), [
    (SPAN, "utf-16", "UTF-16"), (" " + SPAN, "utf-16-be", "UTF-16"), ("\n" + SPAN, "utf-16-le", "UTF-16"),
    (SPAN, "utf-32", "UTF-32"), (SPAN, "utf-32-le", "UTF-32")])
def test_json_that_is_not_utf8_is_refused_as_an_import_refuses_it(receiver: TraceReceiver, tmp_path: Path,
                                                                    text: str, encoding: str, named: str) -> None:
    """JSON is UTF-8 (RFC 8259; OTLP's JSON encoding). Before: the receiver took UTF-16 and UTF-32 (json.loads
    reads them), which an import of the same bytes refuses."""
    body = text.encode(encoding)
    answer = httpx.post(receiver.url, content=body, headers=JSON, timeout=10)
    assert answer.status_code == 400, answer.text
    assert answer.json() == {"code": 3, "message": f"The body is {named} text, not UTF-8: send the JSON as UTF-8."}
    source = tmp_path / "saved.json"
    source.write_bytes(body)
    with RunStore.open(tmp_path / "imported.db") as store, pytest.raises(TraceImportError) as refused:
        import_trace(store, source)
    assert f"the file is {named} text, not UTF-8" in str(refused.value)
    # The same span as UTF-8 (with a byte order mark, as both take it) is stored.
    assert httpx.post(receiver.url, content=b"\xef\xbb\xbf" + SPAN.encode(), headers=JSON).status_code == 200
    assert _titles(receiver.db_path) == ["two members"]


def test_utf8s_shape_of_a_lone_surrogate_is_refused_not_answered_500(receiver: TraceReceiver) -> None:
    """b"\\xed\\xb0\\x80" (U+DC00 as UTF-8 would spell it: no text holds it): json.loads took it (it reads bytes
    with surrogatepass) and SQLite refused to store it, answered 500 with a UnicodeEncodeError."""
    body = SPAN.replace("two members", "\udc00").encode("utf-8", "surrogatepass")
    answer = httpx.post(receiver.url, content=body, headers=JSON, timeout=10)
    assert answer.status_code == 400, answer.text
    offset = body.index(b"\xed")
    assert answer.json() == {"code": 3, "message": f"The body is not UTF-8 text (at byte {offset}): send the JSON "
                                                   f"as UTF-8."}
    assert _titles(receiver.db_path) == []
