"""Tables that move to disk once they grow: the per-run bookkeeping of an import.

Checking a file keeps a few facts per run (its uid, its header, the sequences seen, the state
of an OTLP trace). A file of a million tiny runs would make those facts alone take gigabytes,
so each table is a :class:`SpillingTable`: a plain dict while it is small, and beyond
:data:`SPILL_AFTER` entries a table in a private temporary SQLite database (deleted when
closed), whose page cache is bounded. Memory then stays bounded whatever the number of runs.
"""

from __future__ import annotations

import pickle
import sqlite3
from collections.abc import Iterator, MutableMapping
from typing import Any

SPILL_AFTER = 50_000
"""Entries a table keeps in memory before it moves to disk (a file of 100,000 spans in 25,000
traces stays in memory, about 80 MB; pickling each entry to disk and back would cost a third of
its import)."""

_CACHE_KIB = 8 * 1024  # the temporary database's page cache (for all of its tables)
_BATCH = 1000
HOT_ENTRIES = 2000
"""Entries of a table on disk also kept in memory: those used last (a trace's spans come
together, so its state is read and written many times in a row), written out together."""


def _encode(key: Any) -> bytes:
    # Keys are strings, ints or tuples of those: their pickles are equal exactly when they are.
    return pickle.dumps(key, protocol=pickle.HIGHEST_PROTOCOL)


class SpillArea:
    """One private temporary database for the tables of one import; close it when done."""

    def __init__(self, spill_after: int | None = None) -> None:
        self.spill_after = SPILL_AFTER if spill_after is None else spill_after
        self._conn: sqlite3.Connection | None = None
        self._tables = 0

    def table(self) -> SpillingTable:
        """A new, empty table (a dict until it grows past ``spill_after`` entries)."""
        return SpillingTable(self)

    def _new_table(self) -> tuple[sqlite3.Connection, str]:
        if self._conn is None:
            # "" is a private on-disk database that SQLite deletes when it is closed.
            self._conn = sqlite3.connect("", isolation_level=None, check_same_thread=False)
            self._conn.execute("PRAGMA journal_mode=OFF")
            self._conn.execute("PRAGMA synchronous=OFF")
            self._conn.execute(f"PRAGMA cache_size=-{_CACHE_KIB}")
            # One transaction for the database's whole life: nothing here needs to outlive the
            # import, and a commit per write would cost most of the time spilling takes.
            self._conn.execute("BEGIN")
        self._tables += 1
        name = f"t{self._tables}"
        self._conn.execute(f"CREATE TABLE {name} (key BLOB PRIMARY KEY, value BLOB)")
        return self._conn, name

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def __enter__(self) -> SpillArea:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


_MISSING = object()


class SpillingTable(MutableMapping[Any, Any]):
    """A mapping in insertion order (a replaced value keeps its place), in memory while small.

    Values read from disk are copies: a caller that changes one stores it again. Once on disk,
    the last :data:`HOT_ENTRIES` entries used stay in memory too (``_hot``), those changed since
    they were last written (``_dirty``, in the order they were first set) are written out
    together, before anything that reads the table as a whole and when ``_hot`` is full.
    """

    def __init__(self, area: SpillArea) -> None:
        self._area = area
        self._memory: dict[Any, Any] | None = {}
        self._conn: sqlite3.Connection | None = None
        self._name = ""
        self._length = 0
        self._hot: dict[Any, Any] = {}
        self._dirty: dict[Any, None] = {}
        # While the table is in memory, ``get`` and ``pop`` are its dict's own: a sorter asks them several
        # times a span, and this class's methods in between cost a Python call each. The instance's names
        # go when the table moves to disk (:meth:`_spill`), and the methods below answer from then on.
        self.get = self._memory.get  # type: ignore[method-assign]
        self.pop = self._memory.pop  # type: ignore[method-assign]

    @property
    def spilled(self) -> bool:
        """True once the table lives on disk."""
        return self._memory is None

    def _spill(self) -> None:
        memory, self._memory = self._memory, None
        del self.get, self.pop  # the dict's (see __init__)
        self._conn, self._name = self._area._new_table()
        self._conn.executemany(f"INSERT INTO {self._name} VALUES (?, ?)",
                               ((_encode(k), pickle.dumps(v, protocol=pickle.HIGHEST_PROTOCOL))
                                for k, v in memory.items()))

    def __setitem__(self, key: Any, value: Any) -> None:
        memory = self._memory
        if memory is not None:
            memory[key] = value
            if len(memory) > self._area.spill_after:
                self._spill()
            return
        self._hot[key] = value
        self._dirty[key] = None
        if len(self._hot) > HOT_ENTRIES:
            self._cool()

    def _flush(self) -> None:
        """Write the entries changed in memory (a new key takes its place after those on disk)."""
        if self._dirty:
            hot = self._hot
            self._conn.executemany(
                f"INSERT INTO {self._name} VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                [(_encode(k), pickle.dumps(hot[k], protocol=pickle.HIGHEST_PROTOCOL)) for k in self._dirty])
            self._dirty = {}

    def _cool(self) -> None:
        self._flush()
        self._hot = {}

    def __getitem__(self, key: Any) -> Any:
        if self._memory is not None:
            return self._memory[key]
        hot = self._hot
        if key in hot:
            return hot[key]
        row = self._conn.execute(f"SELECT value FROM {self._name} WHERE key = ?", (_encode(key),)).fetchone()
        if row is None:
            raise KeyError(key)
        value = hot[key] = pickle.loads(row[0])
        if len(hot) > HOT_ENTRIES:
            self._cool()
        return value

    def __contains__(self, key: object) -> bool:
        if self._memory is not None:
            return key in self._memory
        if key in self._hot:
            return True
        return self._conn.execute(f"SELECT 1 FROM {self._name} WHERE key = ?", (_encode(key),)).fetchone() is not None

    def get(self, key: Any, default: Any = None) -> Any:
        if self._memory is not None:
            return self._memory.get(key, default)
        try:
            return self[key]
        except KeyError:
            return default

    def setdefault(self, key: Any, default: Any = None) -> Any:
        if self._memory is not None and len(self._memory) < self._area.spill_after:
            return self._memory.setdefault(key, default)
        found = self.get(key, _MISSING)
        if found is _MISSING:
            self[key] = default
            return default
        return found

    def __delitem__(self, key: Any) -> None:
        if self._memory is not None:
            del self._memory[key]
            return
        known = self._hot.pop(key, _MISSING) is not _MISSING
        self._dirty.pop(key, None)
        # Gone from disk too at once: set again, the key takes its place at the end.
        if not self._conn.execute(f"DELETE FROM {self._name} WHERE key = ?", (_encode(key),)).rowcount and not known:
            raise KeyError(key)

    def pop(self, key: Any, default: Any = _MISSING) -> Any:
        """As a dict's (a sorter pops a waiting side per span, mostly of a key not there: no
        KeyError raised and caught for that while the table is in memory)."""
        memory = self._memory
        if memory is not None:
            return memory.pop(key) if default is _MISSING else memory.pop(key, default)
        try:
            value = self[key]
        except KeyError:
            if default is _MISSING:
                raise
            return default
        del self[key]
        return value

    def __len__(self) -> int:
        if self._memory is not None:
            return len(self._memory)
        self._flush()
        return self._conn.execute(f"SELECT COUNT(*) FROM {self._name}").fetchone()[0]

    def __iter__(self) -> Iterator[Any]:
        for key, _ in self._rows():
            yield key

    def items(self) -> Iterator[tuple[Any, Any]]:  # type: ignore[override]
        """Pairs in insertion order, read from disk a batch at a time."""
        return self._rows()

    def values(self) -> Iterator[Any]:  # type: ignore[override]
        return (value for _, value in self._rows())

    def _rows(self) -> Iterator[tuple[Any, Any]]:
        if self._memory is not None:
            yield from list(self._memory.items())
            return
        last = 0
        while True:  # by rowid, a batch at a time: the table may be written meanwhile elsewhere
            self._flush()
            rows = self._conn.execute(f"SELECT rowid, key, value FROM {self._name} WHERE rowid > ? ORDER BY rowid "
                                      "LIMIT ?", (last, _BATCH)).fetchall()
            for _rowid, key, value in rows:
                yield pickle.loads(key), pickle.loads(value)
            if len(rows) < _BATCH:
                return
            last = rows[-1][0]

