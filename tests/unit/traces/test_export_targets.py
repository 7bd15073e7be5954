"""Export writes only regular files: a device, a named pipe, a socket or a folder at the
destination is refused in one sentence and left as it was; a file replaced keeps its mode, a link
there stays (the file it names is replaced)."""

from __future__ import annotations

import os
import socket
import stat
from pathlib import Path

import pytest
from test_trace_support import fill

from inspector.store import RunStore
from inspector.transfer.exporting import TraceExportError, export


@pytest.fixture
def store(tmp_path: Path) -> RunStore:
    opened = RunStore.open(tmp_path / "runs.db")
    fill(opened)
    yield opened
    opened.close()


def _device(tmp_path: Path) -> Path:
    target = tmp_path / "null-device"
    try:  # as root: a real character device (the null device's numbers), safe to lose in tmp
        os.mknod(target, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except PermissionError:  # not root: /dev cannot be written by this user anyway
        return Path(os.devnull)
    return target


def _fifo(tmp_path: Path) -> Path:
    target = tmp_path / "pipe"
    os.mkfifo(target)
    return target


def _socket(tmp_path: Path) -> Path:
    target = tmp_path / "sock"
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(str(target))
    listener.close()  # the socket file stays behind
    return target


def _folder(tmp_path: Path) -> Path:
    target = tmp_path / "folder"
    target.mkdir()
    return target


@pytest.mark.parametrize("make, kind", [(_device, stat.S_ISCHR), (_fifo, stat.S_ISFIFO),
                                        (_socket, stat.S_ISSOCK), (_folder, stat.S_ISDIR)],
                         ids=["device", "fifo", "socket", "folder"])
@pytest.mark.parametrize("file_format", ["trace", "otlp"])
def test_a_destination_that_is_not_a_regular_file_is_refused(store: RunStore, tmp_path: Path, make, kind,
                                                             file_format: str) -> None:
    target = make(tmp_path)
    before = set(target.parent.iterdir()) if target.parent != Path("/dev") else None
    with pytest.raises(TraceExportError) as caught:
        export(store, None, None, target, format=file_format)
    message = str(caught.value)
    assert "not a regular file" in message or "is a folder, not a file" in message
    assert message.count(". ") <= 1 and message.endswith("nothing was written there.")
    assert kind(os.stat(target).st_mode), "the destination was replaced"
    if before is not None:
        assert set(target.parent.iterdir()) == before  # no temporary file left behind


def test_a_replaced_file_keeps_its_mode(store: RunStore, tmp_path: Path) -> None:
    target = tmp_path / "shared.json"
    target.write_text("old")
    os.chmod(target, 0o644)
    export(store, None, None, target)
    assert stat.S_IMODE(os.stat(target).st_mode) == 0o644
    assert target.read_text().startswith('{"format"')


def test_a_link_stays_and_the_file_it_names_is_replaced(store: RunStore, tmp_path: Path) -> None:
    """``latest.json -> kept/2026.json``: the export replaced the link by a new file and left the file it
    named as it was; the link is kept now (as a shell's ``>`` keeps it), and so is that file's mode."""
    named = tmp_path / "kept" / "2026.json"
    named.parent.mkdir()
    named.write_text("old")
    os.chmod(named, 0o640)
    link = tmp_path / "latest.json"
    link.symlink_to(Path("kept") / "2026.json")
    export(store, None, None, link)
    assert link.is_symlink() and os.readlink(link) == str(Path("kept") / "2026.json")
    assert named.read_text().startswith('{"format"') and stat.S_IMODE(os.stat(named).st_mode) == 0o640
    assert sorted(path.name for path in named.parent.iterdir()) == ["2026.json"]  # nothing left beside it


def test_a_link_to_a_missing_folder_names_that_folder(store: RunStore, tmp_path: Path) -> None:
    """A link to a file in a folder that is not there: the folder said is that one, not the link's."""
    link = tmp_path / "latest.json"
    link.symlink_to(Path("gone") / "2026.json")
    with pytest.raises(TraceExportError) as caught:
        export(store, None, None, link)
    assert f"no new file can be made in its folder {tmp_path / 'gone'} (no such file or folder)" in str(caught.value)
    assert link.is_symlink() and not (tmp_path / "gone").exists()


@pytest.mark.parametrize("language, said", [("en", "(the file is write-protected)"),
                                             ("de", "(die Datei ist schreibgeschützt)")])
def test_a_write_protected_file_is_not_replaced(tmp_path: Path, language: str, said: str) -> None:
    """A file made read-only (``chmod a-w``) so that nothing replaces it was replaced all the same: the rename
    needs only its folder to be writable. ``>`` and ``cp`` refuse it; so does export now."""
    import subprocess
    import sys

    from tests.support.cli_process import BOUND_BY_PERMISSIONS

    db = tmp_path / "runs.db"
    with RunStore.open(db) as opened:
        fill(opened)
    target = tmp_path / "kept.json"
    target.write_text("kept")
    target.chmod(0o444)
    done = subprocess.run([*BOUND_BY_PERMISSIONS, sys.executable, "-m", "inspector", "--lang", language, "export",
                           "--all", "-o", str(target), "--db", str(db)],
                          capture_output=True, text=True, cwd=Path(__file__).resolve().parents[3], timeout=60)
    assert done.returncode == 2 and said in done.stderr and done.stderr.count("\n") == 1, done.stderr
    assert target.read_text() == "kept" and sorted(tmp_path.iterdir()) == [tmp_path / "kept.json", db]


def test_a_new_file_is_private(store: RunStore, tmp_path: Path) -> None:
    target = tmp_path / "new.json"
    export(store, None, None, target)
    assert stat.S_IMODE(os.stat(target).st_mode) == 0o600


def test_the_command_line_refuses_a_device_with_exit_2(tmp_path: Path) -> None:
    import subprocess
    import sys

    db = tmp_path / "cli.db"
    with RunStore.open(db) as opened:
        fill(opened)
    target = _fifo(tmp_path)
    done = subprocess.run([sys.executable, "-m", "inspector", "export", "--all", "-o", str(target), "--db", str(db)],
                          capture_output=True, text=True, cwd=Path(__file__).resolve().parents[3],
                          env=dict(os.environ), timeout=60)
    assert done.returncode == 2 and "named pipe, not a regular file" in done.stderr
    assert done.stderr.count("\n") == 1 and stat.S_ISFIFO(os.stat(target).st_mode)


def test_a_file_in_a_folder_that_makes_no_new_files_says_so(store: RunStore) -> None:
    """/proc/version is there (and looks like a regular file), but /proc takes no new file, so the file
    written beside it first cannot be made: that said "no such file or folder" of a file that exists."""
    target = Path("/proc/version")
    if not target.is_file():
        pytest.fail("this test needs Linux's /proc")
    before = target.read_bytes()
    with pytest.raises(TraceExportError) as caught:
        export(store, None, None, target)
    assert str(caught.value) == ("The trace could not be written to /proc/version: its folder /proc is there but "
                                 "takes no new files (the trace is written beside the file first, then put in its "
                                 "place). Choose another place; nothing was written there.")  # not "no such file"
    assert target.read_bytes() == before


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_command_line_says_so_and_a_missing_folder_keeps_its_words(tmp_path: Path, language: str) -> None:
    """``export -o /proc/version`` at the command line, in English and German; a folder that is not there
    is still named missing."""
    from tests.support.cli_process import cli_here

    db = tmp_path / "runs.db"
    with RunStore.open(db) as opened:
        fill(opened)
    said = {"en": ("its folder /proc is there but takes no new files", "no such file or folder"),
            "de": ("Sein Ordner /proc ist vorhanden, nimmt aber keine neuen Dateien auf",
                   "keine solche Datei und kein solcher Ordner")}
    there, missing = said[language]
    done = cli_here("--lang", language, "export", "--all", "-o", "/proc/version", "--force", "--db", str(db))
    assert done.returncode != 0 and there in done.stderr and missing not in done.stderr, done.stderr
    gone = cli_here("--lang", language, "export", "--all", "-o", str(tmp_path / "no-such-folder" / "runs.json"),
                    "--db", str(db))
    assert gone.returncode != 0 and missing in gone.stderr and there not in gone.stderr, gone.stderr
