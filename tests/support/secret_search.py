"""Asserting that secret values appear nowhere: a database, files (exports, logs), the process list.

``assert_nowhere(secrets, database=path, files=[...])`` looks for each secret as written (UTF-8),
JSON-escaped, percent-encoded and as UTF-16 (little endian, as a Windows log might hold it):

- in the database file's bytes, its write-ahead log and shared memory (a deleted row's bytes stay
  in a free page until overwritten: they count), and in every value of every table (read back
  through SQLite, so a value is found whatever page it sits on);
- in each file's bytes;
- in ``/proc/<pid>/cmdline`` of this process's descendants (``processes=True``, the default), or of
  the given pids (other users on the machine can read that list).

The failure names where each secret was found and how, never the secret itself (test output is
kept in logs).
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterable, Sequence
from pathlib import Path
from urllib.parse import quote

#: Shorter secrets would be found by chance (in a hash, a timestamp): a test plants longer ones.
SHORTEST_SECRET = 8


def assert_nowhere(secrets: Sequence[str], *, database: str | os.PathLike[str] | None = None,
                   files: Iterable[str | os.PathLike[str]] = (),
                   processes: bool | Iterable[int] = True) -> None:
    """Fail (AssertionError) if any of ``secrets`` appears where the module docstring says."""
    found = find_secrets(secrets, database=database, files=files, processes=processes)
    if found:
        raise AssertionError("secret values found:\n" + "\n".join(f"  {where}" for where in found))


def find_secrets(secrets: Sequence[str], *, database: str | os.PathLike[str] | None = None,
                 files: Iterable[str | os.PathLike[str]] = (),
                 processes: bool | Iterable[int] = True) -> list[str]:
    """Where each secret was found (as ``"<place>: secret #<n> (<form>)"``); empty: nowhere."""
    for secret in secrets:
        if len(secret) < SHORTEST_SECRET:
            raise ValueError(f"a secret of {len(secret)} characters would be found by chance; plant longer ones")
    forms = [_forms(secret) for secret in secrets]
    found: list[str] = []
    if database is not None:
        database = Path(database)
        if not database.is_file():
            raise FileNotFoundError(database)  # a typo must not pass as "nothing found"
        for path in (database, Path(f"{database}-wal"), Path(f"{database}-shm")):
            if path.exists():
                found += _in_bytes(path.read_bytes(), str(path), forms)
        found += _in_tables(database, forms)
    for file in files:
        found += _in_bytes(Path(file).read_bytes(), str(file), forms)
    pids = descendants(os.getpid()) if processes is True else [] if processes is False else list(processes)
    for pid in pids:
        try:
            command_line = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:  # ended meanwhile
            continue
        found += _in_bytes(command_line, f"the command line of process {pid}", forms)
    return found


def descendants(pid: int) -> list[int]:
    """The processes started by ``pid``, and by those, and so on (Linux /proc)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # "pid (name) state ppid ...": the name may hold spaces and parentheses, so read after the last ")".
        parent = int(stat[stat.rindex(")") + 2:].split()[1])
        children.setdefault(parent, []).append(int(entry.name))
    found, waiting = [], [pid]
    while waiting:
        for child in children.get(waiting.pop(), []):
            found.append(child)
            waiting.append(child)
    return found


def _forms(secret: str) -> list[tuple[str, bytes]]:
    forms = {"as written": secret.encode("utf-8"),
             "JSON-escaped": json.dumps(secret)[1:-1].encode("utf-8"),
             "percent-encoded": quote(secret, safe="").encode("ascii"),
             "UTF-16": secret.encode("utf-16-le")}
    unique: dict[bytes, str] = {}
    for name, form in forms.items():
        unique.setdefault(form, name)
    return [(name, form) for form, name in unique.items()]


def _in_bytes(data: bytes, place: str, forms: list[list[tuple[str, bytes]]]) -> list[str]:
    return [f"{place}: secret #{number} ({name})" for number, secret_forms in enumerate(forms, 1)
            for name, form in secret_forms if form in data]


def _in_tables(database: Path, forms: list[list[tuple[str, bytes]]]) -> list[str]:
    conn = sqlite3.connect(f"{database.resolve().as_uri()}?mode=ro", uri=True)
    try:
        found = []
        tables = [row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        for table in tables:
            for row in conn.execute(f'SELECT * FROM "{table}"'):
                for value in row:
                    data = value if isinstance(value, bytes) else str(value).encode("utf-8")
                    found += _in_bytes(data, f"table {table}", forms)
        return sorted(set(found))
    finally:
        conn.close()
