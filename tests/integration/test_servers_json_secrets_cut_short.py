"""``servers --json --with-secrets > backup.json`` on a disk that fills part way: the file keeps the first part of
the listing, credentials and all, and the command ends with status 1 saying the output is incomplete. It said
nothing of the credentials then (the warning came after the output, which the failed write never reached), so the
half-written backup looked like nothing to take care of. The warning is said however the output ends.

Real parts: the real command in a process of its own, its output a real file whose size the system limits
(``RLIMIT_FSIZE``: a write past it fails with EFBIG, as a full disk fails with ENOSPC), real SQLite files."""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
from pathlib import Path

from tests.support.cli_process import ROOT, cli_here

#: A command line's credential long enough that the listing passes the file's limit within the first servers.
TOKENS = [f"tok{number}-{'k' * 12_000}" for number in range(6)]
#: The most the output file may hold: past the database's shared memory file (32 KiB), short of the listing.
LIMIT = 48_000


def _limited() -> None:
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails (EFBIG) instead of killing
    resource.setrlimit(resource.RLIMIT_FSIZE, (LIMIT, LIMIT))


def test_a_listing_cut_short_by_a_full_file_still_says_it_holds_credentials(tmp_path: Path) -> None:
    db, backup = tmp_path / "runs.db", tmp_path / "backup.json"
    for number, token in enumerate(TOKENS):
        done = cli_here("--db", str(db), "servers", "set", f"server{number}", "--command",
                        f"{sys.executable} -m tests.support.stdio_server{number} --token {token}")
        assert done.returncode == 0, done.stderr
    # Python buffers its output unless told not to (unbuffered output: test_cli_output_cut_short).
    env = {name: value for name, value in os.environ.items() if name != "PYTHONUNBUFFERED"}
    with backup.open("w") as output:
        done = subprocess.run([sys.executable, "-m", "inspector", "--db", str(db), "servers", "--json",
                               "--with-secrets"], stdout=output, stderr=subprocess.PIPE, text=True, timeout=60,
                              cwd=ROOT, env=env, preexec_fn=_limited)
    written = backup.read_text(encoding="utf-8")
    assert backup.stat().st_size == LIMIT and TOKENS[0] in written  # a credential reached the file
    assert done.returncode == 1, done.stderr
    assert ("the output could not be written (the file is too large for its file system or for the limits of "
            "this process); what was written of it is incomplete.") in done.stderr
    assert ("the output holds the credentials of server0, server1, server2, server3, server4, server5 "
            "(--with-secrets): keep it as you keep a password.") in done.stderr
    assert not [token for token in TOKENS if token in done.stderr]
