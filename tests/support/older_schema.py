"""A database of an older schema version, as an earlier release left it: a trace imported, then the indexes that
version had not yet dropped and its version set, so that opening it upgrades it."""

from __future__ import annotations

import gzip
import sqlite3
from collections.abc import Iterable
from pathlib import Path

from inspector.store import RunStore
from inspector.transfer.importing import import_trace

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def older_database(path: Path, trace: Path, version: int, indexes: Iterable[str]) -> Path:
    """``path`` holding ``trace`` imported, without ``indexes``, at schema ``version``."""
    with RunStore.open(path) as store:
        import_trace(store, trace)
    conn = sqlite3.connect(path)
    try:
        for index in indexes:
            conn.execute(f"DROP INDEX {index}")
        conn.execute(f"PRAGMA user_version = {int(version)}")
        conn.commit()
    finally:
        conn.close()
    return path


def stored_database(path: Path, name: str) -> Path:
    """``path`` holding tests/fixtures/stores/``name`` (a database an older Run Inspector wrote, gzipped)."""
    path.write_bytes(gzip.decompress((FIXTURES / "stores" / name).read_bytes()))
    return path


def imported(path: Path, names: Iterable[str]) -> Path:
    """``path`` holding the OTLP fixtures ``names`` (tests/fixtures/otel/) imported by this Run Inspector."""
    with RunStore.open(path) as store:
        for name in names:
            import_trace(store, FIXTURES / "otel" / name)
    return path
