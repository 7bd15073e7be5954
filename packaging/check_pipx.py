"""`make check-pipx`: ``pipx install`` of the wheel into a throwaway PIPX_HOME, then the same smoke test
as the standalone build's (packaging/smoke_standalone.py) on the installed ``run-inspector``: its
version, a call against the demo server it serves, English and German dates and numbers, the window
offscreen for a moment. pipx itself goes into a throwaway virtual environment; pipx and the wheel's
dependencies come from the package index (PyPI), so this is not part of `make test`.

Usage: python packaging/check_pipx.py dist/run_inspector-VERSION-py3-none-any.whl [--keep]
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from smoke_standalone import main as smoke  # noqa: E402


def _step(what: str, command: list[str], env: dict[str, str] | None = None) -> None:
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=900)
    print(f"{what}: exit {done.returncode} ({time.perf_counter() - started:.1f} s)")
    if done.returncode != 0:
        print(done.stdout[-3000:] + done.stderr[-3000:])
        raise SystemExit(1)


def main(wheel: str, keep: bool = False) -> int:
    wheel_path = Path(wheel).resolve()
    if not wheel_path.is_file():
        print(f"no wheel at {wheel}: `make dist` builds it")
        return 1
    folder = Path(tempfile.mkdtemp(prefix="run-inspector-pipx-"))
    try:
        tool = folder / "pipx-tool"
        _step("virtual environment for pipx", [sys.executable, "-m", "venv", str(tool)])
        _step("pip install pipx", [str(tool / "bin" / "python"), "-m", "pip", "install", "--quiet", "pipx"])
        env = {**os.environ, "PIPX_HOME": str(folder / "pipx"), "PIPX_BIN_DIR": str(folder / "bin"),
               "PIPX_MAN_DIR": str(folder / "man")}
        _step(f"pipx install {wheel_path.name}", [str(tool / "bin" / "pipx"), "install", str(wheel_path)], env)
        program = folder / "bin" / "run-inspector"
        print(f"installed: {program} -> {program.resolve()}")
        return smoke(str(program))
    finally:
        if keep:
            print(f"kept: {folder}")
        else:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], keep="--keep" in sys.argv[2:]))
