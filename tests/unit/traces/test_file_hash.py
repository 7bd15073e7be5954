"""The SHA-256 an import compares its two reads of a file by, computed on a thread of its own."""

from __future__ import annotations

import hashlib
import threading
from pathlib import Path

import pytest

from inspector.traces.file_hash import FileHash
from inspector.traces.json_stream import READ_CHUNK
from inspector.traces.progress import ProgressMeter
from inspector.traces.reader import TracePlan, read_file, reader_for
from inspector.traces.sniff import sniff

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "otel" / "mcp_sdk.jsonl"


def _hashing_threads() -> list[str]:
    return [thread.name for thread in threading.enumerate() if thread.name == "import-hash"]


def _read(source: Path) -> tuple[str, list[list[str]]]:
    """The hash ``read_file`` gives, and the hashing threads alive at each report of progress while it read."""
    seen: list[list[str]] = []
    meter = ProgressMeter(lambda done, total: seen.append(_hashing_threads()), 10**12, 0)
    kind = sniff(source)
    # (the spans of a file repeated are the same spans again: left out, counted)
    digest = read_file(source, kind, reader_for(kind, TracePlan(), checking=True), meter, source.stat().st_size)
    return digest, seen


def test_a_file_of_many_chunks_is_hashed_on_a_thread_while_it_is_read(tmp_path: Path) -> None:
    # The copies make a file of several read chunks; its hash is the hash of its bytes.
    lines = FIXTURE.read_bytes()
    source = tmp_path / "many.jsonl"
    source.write_bytes(lines * (3 * READ_CHUNK // len(lines) + 1))
    digest, seen = _read(source)
    assert digest == hashlib.sha256(source.read_bytes()).hexdigest()
    assert seen and all(names == ["import-hash"] for names in seen)  # hashing while the chunks were read
    assert _hashing_threads() == []  # and ended with the reading


def test_a_file_of_one_chunk_is_hashed_where_it_is_read() -> None:
    digest, seen = _read(FIXTURE)
    assert digest == hashlib.sha256(FIXTURE.read_bytes()).hexdigest()
    assert seen == [[]]


def test_the_thread_ends_when_the_reading_stops_half_way() -> None:
    with pytest.raises(RuntimeError), FileHash(3 * READ_CHUNK, READ_CHUNK) as digest:
        digest.update(b"x" * READ_CHUNK)
        assert _hashing_threads() == ["import-hash"]
        raise RuntimeError("cancelled")
    assert _hashing_threads() == []


def test_chunks_are_hashed_in_their_order() -> None:
    chunks = [bytes([index]) * (READ_CHUNK // 3 + index) for index in range(40)]
    with FileHash(10 * READ_CHUNK, READ_CHUNK) as digest:
        for chunk in chunks:
            digest.update(chunk)
        assert digest.hexdigest() == hashlib.sha256(b"".join(chunks)).hexdigest()
