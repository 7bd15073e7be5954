"""How the receiver reads a body's bytes: a gzip body of several members (``cat a.gz b.gz``, as gzip
tools and some exporters write it) is read whole, the size limit counting all of them. Real HTTP to a
real receiver on 127.0.0.1, a real SQLite file."""

from __future__ import annotations

import gzip
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from inspector.capture import ReceiverOptions, TraceReceiver, otlp_body

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

