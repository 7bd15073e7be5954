"""Checks made before Qt is asked for a window, so that a missing display or missing system
libraries end in one sentence instead of Qt's abort. No Qt is imported here."""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
from collections.abc import Callable, Mapping
from pathlib import Path

from inspector.i18n import _, ngettext

#: Platforms that need no display server.
HEADLESS_PLATFORMS = ("offscreen", "minimal", "vnc", "linuxfb", "eglfs", "vkkhrdisplay")
_SONAME = re.compile(r"^(lib[\w.+-]*?)\.so(?:\.(\d+))?")


def requested_platform(env: Mapping[str, str]) -> str:
    """The platform plugin Qt will try first (``QT_QPA_PLATFORM`` may list several, ``;``-separated)."""
    value = env.get("QT_QPA_PLATFORM", "").strip().lower()
    return value.split(";")[0].split(":")[0].strip()


def apt_package(soname: str) -> str:
    """The Debian/Ubuntu package that usually ships a library: ``libxcb-icccm.so.4`` → ``libxcb-icccm4``."""
    match = _SONAME.match(soname)
    if not match:
        return soname
    stem, version = match.group(1).lower(), match.group(2) or ""
    if version and stem[-1].isdigit():
        return f"{stem}-{version}"
    return f"{stem}{version}"


def xcb_plugin() -> Path | None:
    """Where PySide6 keeps Qt's xcb platform plugin, if it is installed."""
    try:
        import PySide6  # the package only: no Qt library is loaded by this
    except ImportError:
        return None
    plugin = Path(PySide6.__file__).parent / "Qt" / "plugins" / "platforms" / "libqxcb.so"
    return plugin if plugin.exists() else None


def missing_libraries(plugin: Path | None = None,
                      run: Callable[[list[str]], str] | None = None) -> list[str]:
    """The shared libraries the xcb plugin needs and the system lacks (by ``ldd``), in order."""
    plugin = plugin or xcb_plugin()
    if plugin is None or shutil.which("ldd") is None:
        return []
    run = run or _ldd
    missing: list[str] = []
    for line in run(["ldd", str(plugin)]).splitlines():
        name, _arrow, where = line.strip().partition("=>")
        if "not found" in where and name.strip() not in missing:
            missing.append(name.strip())
    return missing


def _ldd(command: list[str]) -> str:
    try:
        return subprocess.run(command, capture_output=True, text=True, timeout=10, check=False).stdout
    except (OSError, subprocess.SubprocessError):
        return ""


def _unix_socket_answers(address: str, timeout_s: float) -> bool:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        probe.settimeout(timeout_s)
        try:
            probe.connect(address)
        except OSError:
            return False
    return True


def x_display_answers(display: str, timeout_s: float = 1.0) -> bool:
    """Whether something listens where ``DISPLAY`` points (``:N``, ``unix:N`` or ``host:N``).

    Only a connection is tried, no X protocol: enough to tell a running X server from a stale
    DISPLAY (a closed SSH forwarding, a stopped Xvfb), which Qt answers with an abort.
    """
    host, _colon, rest = display.strip().rpartition(":")
    number = rest.split(".")[0]
    if not number.isdigit() or host.startswith("/"):
        return True  # a form we do not know (e.g. XQuartz's launchd path): let Qt try
    if host in ("", "unix"):
        path = f"/tmp/.X11-unix/X{number}"
        # The filesystem socket, then Linux's abstract one of the same name (Xorg and Xvfb offer both).
        return any(_unix_socket_answers(address, timeout_s) for address in (path, "\0" + path))
    try:
        socket.create_connection((host, 6000 + int(number)), timeout=timeout_s).close()
    except OSError:
        return False
    return True


def wayland_display_answers(env: Mapping[str, str], timeout_s: float = 1.0) -> bool:
    """Whether a compositor listens on the socket ``WAYLAND_DISPLAY`` names."""
    name = env.get("WAYLAND_DISPLAY", "").strip()
    runtime = env.get("XDG_RUNTIME_DIR", "").strip()
    if not name.startswith("/"):
        if not runtime:
            return False  # a relative name without XDG_RUNTIME_DIR: no client can find it
        name = os.path.join(runtime, name)
    return _unix_socket_answers(name, timeout_s)


def display_answers(kind: str, env: Mapping[str, str]) -> bool:
    """``kind`` is ``"x11"`` or ``"wayland"``."""
    return wayland_display_answers(env) if kind == "wayland" else x_display_answers(env.get("DISPLAY", ""))


def platform_problem(env: Mapping[str, str] | None = None, platform: str | None = None,
                     find_missing: Callable[[], list[str]] = missing_libraries,
                     answers: Callable[[str, Mapping[str, str]], bool] = display_answers) -> str | None:
    """One sentence saying why no window can open here, or ``None`` when Qt can show one."""
    env = os.environ if env is None else env
    platform = sys.platform if platform is None else platform
    requested = requested_platform(env)
    if requested in HEADLESS_PLATFORMS or not platform.startswith("linux"):
        return None
    has_x = bool(env.get("DISPLAY", "").strip())
    has_wayland = bool(env.get("WAYLAND_DISPLAY", "").strip())
    if requested == "wayland" and has_wayland or (not requested and has_wayland and not has_x):
        if answers("wayland", env):
            return None
        return _("Run Inspector cannot open its window because the Wayland display {name} does not answer "
                 "(no compositor listens there); the command line still works: run-inspector --help.").format(
                     name=env.get("WAYLAND_DISPLAY", "").strip())
    if not has_x and not has_wayland:
        return _("Run Inspector cannot open its window because there is no display (neither DISPLAY "
                 "nor WAYLAND_DISPLAY is set); the command line still works: run-inspector --help.")
    if has_x and not answers("x11", env):
        return _("Run Inspector cannot open its window because the X display {display} does not answer "
                 "(its X server has stopped, or the SSH session that forwarded it has closed); the command "
                 "line still works: run-inspector --help.").format(display=env.get("DISPLAY", "").strip())
    missing = find_missing()
    if not missing:
        return None
    packages = list(dict.fromkeys(apt_package(name) for name in missing))
    return ngettext(
        "Run Inspector cannot open its window because the system library {libraries} is missing; "
        "install it with: sudo apt install {packages} (the command line works without it: "
        "run-inspector --help).",
        "Run Inspector cannot open its window because the system libraries {libraries} are missing; "
        "install them with: sudo apt install {packages} (the command line works without them: "
        "run-inspector --help).",
        len(missing)).format(libraries=", ".join(missing), packages=" ".join(packages))
