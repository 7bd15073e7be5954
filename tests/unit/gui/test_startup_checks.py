"""Before Qt is asked for a window: no display or missing xcb libraries end in one sentence."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

from inspector.gui.startup import (
    apt_package,
    missing_libraries,
    platform_problem,
    wayland_display_answers,
    x_display_answers,
)

LDD_OUTPUT = """\
\tlinux-vdso.so.1 (0x00007ffd)
\tlibQt6XcbQpa.so.6 => /x/libQt6XcbQpa.so.6 (0x00007f)
\tlibxcb-cursor.so.0 => not found
\tlibxcb-icccm.so.4 => not found
\tlibxkbcommon-x11.so.0 => not found
\tlibxcb-icccm.so.4 => not found
"""


def ALWAYS(kind: str, env: object) -> bool:  # noqa: N802 - a constant-like stand-in: every display answers
    return True


def test_apt_package_names() -> None:
    assert apt_package("libxcb-cursor.so.0") == "libxcb-cursor0"
    assert apt_package("libxcb-icccm.so.4") == "libxcb-icccm4"
    assert apt_package("libxkbcommon-x11.so.0") == "libxkbcommon-x11-0"
    assert apt_package("libEGL.so.1") == "libegl1"


def test_missing_libraries_are_read_from_ldd(tmp_path: Path) -> None:
    plugin = tmp_path / "libqxcb.so"
    plugin.write_bytes(b"")
    missing = missing_libraries(plugin, run=lambda command: LDD_OUTPUT)
    assert missing == ["libxcb-cursor.so.0", "libxcb-icccm.so.4", "libxkbcommon-x11.so.0"]


def test_no_display_is_one_sentence_pointing_to_the_command_line() -> None:
    problem = platform_problem({}, "linux", find_missing=lambda: [])
    assert problem is not None and "no display" in problem and "run-inspector --help" in problem
    assert problem.endswith(".") and ". " not in problem  # one sentence


def test_missing_libraries_name_the_apt_command() -> None:
    problem = platform_problem({"DISPLAY": ":0"}, "linux", answers=ALWAYS,
                               find_missing=lambda: ["libxcb-cursor.so.0", "libxcb-icccm.so.4"])
    assert "sudo apt install libxcb-cursor0 libxcb-icccm4" in problem
    assert "libxcb-cursor.so.0, libxcb-icccm.so.4 are missing" in problem
    one = platform_problem({"DISPLAY": ":0"}, "linux", find_missing=lambda: ["libxcb-cursor.so.0"], answers=ALWAYS)
    assert "library libxcb-cursor.so.0 is missing; install it with" in one


def test_a_usable_platform_is_no_problem() -> None:
    assert platform_problem({"QT_QPA_PLATFORM": "offscreen"}, "linux", find_missing=lambda: ["x.so.1"]) is None
    assert platform_problem({"DISPLAY": ":0"}, "linux", find_missing=lambda: [], answers=ALWAYS) is None
    assert platform_problem({"WAYLAND_DISPLAY": "wayland-0"}, "linux", find_missing=lambda: ["x.so.1"],
                            answers=ALWAYS) is None
    assert platform_problem({}, "darwin") is None


def test_the_command_without_a_display_says_so_and_exits_non_zero(tmp_path: Path) -> None:
    env = {key: value for key, value in os.environ.items()
           if key not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    done = subprocess.run([sys.executable, "-m", "inspector", "--db", str(tmp_path / "runs.db")],
                          env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "no display" in lines[0] and "run-inspector --help" in lines[0]
    assert not (tmp_path / "runs.db").exists()  # nothing was opened


def test_which_database_the_window_opens(monkeypatch, tmp_path: Path) -> None:
    from inspector.gui.app import database_path
    from inspector.store import DB_ENV

    monkeypatch.delenv(DB_ENV, raising=False)
    chosen = str(tmp_path / "from-settings.db")
    assert database_path(None, chosen) == Path(chosen)  # the Settings dialog's choice
    assert database_path(str(tmp_path / "flag.db"), chosen) == tmp_path / "flag.db"  # --db wins
    monkeypatch.setenv(DB_ENV, str(tmp_path / "env.db"))
    assert database_path(None, chosen) == tmp_path / "env.db"  # so does RUN_INSPECTOR_DB
    monkeypatch.delenv(DB_ENV)
    assert database_path(None, "").name == "runs.db"  # else the user data folder


def _listening_unix(address: str) -> socket.socket:
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(address)
    server.listen(1)
    return server


def test_a_display_is_checked_by_connecting_to_it(tmp_path: Path) -> None:
    # X over TCP: host:N is port 6000 + N.
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        port = listener.getsockname()[1]
        assert x_display_answers(f"127.0.0.1:{port - 6000}.0")
    assert not x_display_answers(f"127.0.0.1:{port - 6000}")  # closed now
    # A local :N display: Linux's abstract socket of /tmp/.X11-unix/XN (no file needed).
    number = 40000 + os.getpid() % 20000
    assert not x_display_answers(f":{number}")
    server = _listening_unix(f"\0/tmp/.X11-unix/X{number}")
    try:
        assert x_display_answers(f":{number}") and x_display_answers(f"unix:{number}.0")
    finally:
        server.close()
    # Wayland: the socket named by WAYLAND_DISPLAY in XDG_RUNTIME_DIR.
    env = {"WAYLAND_DISPLAY": "wayland-qa", "XDG_RUNTIME_DIR": str(tmp_path)}
    assert not wayland_display_answers(env)
    server = _listening_unix(str(tmp_path / "wayland-qa"))
    try:
        assert wayland_display_answers(env)
        assert not wayland_display_answers({"WAYLAND_DISPLAY": "wayland-qa"})  # no runtime folder to look in
    finally:
        server.close()


def test_a_display_that_does_not_answer_is_one_sentence_not_a_qt_abort(tmp_path: Path) -> None:
    # A stale DISPLAY (a stopped Xvfb, a closed SSH forwarding) made Qt abort with a misleading
    # "xcb-cursor0 is needed" and status 134.
    number = 40000 + os.getpid() % 20000
    for display, extra in (({"DISPLAY": f":{number}"}, "X display"),
                           ({"WAYLAND_DISPLAY": "wayland-qa", "XDG_RUNTIME_DIR": str(tmp_path)}, "Wayland display")):
        env = {key: value for key, value in os.environ.items()
               if key not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM", "XDG_RUNTIME_DIR")}
        done = subprocess.run([sys.executable, "-m", "inspector", "--db", str(tmp_path / "runs.db")],
                              env={**env, **display}, capture_output=True, text=True, timeout=60)
        assert done.returncode == 1, done.stderr
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and extra in lines[0] and "does not answer" in lines[0], lines
        assert "run-inspector --help" in lines[0]
        assert not (tmp_path / "runs.db").exists()
