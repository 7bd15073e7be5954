"""The runs a trace file of a given name brought here (``runs.origin``: an import keeps the file's name)."""

from __future__ import annotations

from .run_store import RunStore


def runs_imported_from(store: RunStore, name: str, limit: int = 11) -> list[int]:
    """The ids of up to ``limit`` stored runs imported from a file named ``name`` (only its name is kept, not its
    folder), oldest first."""
    rows = store.db.conn.execute("SELECT id FROM runs WHERE source = 'imported' AND origin = ? ORDER BY id LIMIT ?",
                                 (name, limit)).fetchall()
    return [row[0] for row in rows]


__all__ = ["runs_imported_from"]
