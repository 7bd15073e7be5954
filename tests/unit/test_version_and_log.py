"""``run-inspector --version`` is instant (no Qt, no HTTP, no Babel); unexpected errors reach a rotated
log file in the user's log folder, with their traceback and without the secrets their text quotes."""

from __future__ import annotations

import importlib.metadata
import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PLANTED = "sk-planted-4c1d2e9f"


def test_version_prints_the_installed_version_without_loading_qt_or_httpx() -> None:
    probe = ("import sys, io, contextlib\n"
             "from inspector.cli import main\n"
             "out = io.StringIO()\n"
             "with contextlib.redirect_stdout(out):\n"
             "    status = main(['--version'])\n"
             "import json\n"
             "print(json.dumps({'status': status, 'out': out.getvalue(), 'modules': sorted(sys.modules)}))\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, check=True)
    report = json.loads(done.stdout)
    assert report["status"] == 0
    assert report["out"] == f"run-inspector {importlib.metadata.version('run-inspector')}\n"
    heavy = [name for name in report["modules"] if name.split(".")[0] in ("PySide6", "httpx", "babel", "mcp")]
    assert heavy == []


def test_version_json_is_one_object_without_loading_qt_or_httpx() -> None:
    probe = ("import sys, io, contextlib\n"
             "from inspector.cli import main\n"
             "out = io.StringIO()\n"
             "with contextlib.redirect_stdout(out):\n"
             "    status = main(['--version', '--json'])\n"
             "import json\n"
             "print(json.dumps({'status': status, 'out': out.getvalue(), 'modules': sorted(sys.modules)}))\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, check=True)
    report = json.loads(done.stdout)
    assert report["status"] == 0
    assert report["out"].endswith("\n") and report["out"].count("\n") == 1
    assert json.loads(report["out"]) == {"name": "run-inspector",
                                         "version": importlib.metadata.version("run-inspector")}
    heavy = [name for name in report["modules"] if name.split(".")[0] in ("PySide6", "httpx", "babel", "mcp")]
    assert heavy == []


@pytest.mark.parametrize("words", [["--json", "--version"], ["--lang", "de", "--version", "--json"]])
def test_version_json_after_other_options_is_answered_by_the_parser(words: list[str]) -> None:
    done = subprocess.run([sys.executable, "-m", "inspector", *words], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"name": "run-inspector", "version": importlib.metadata.version("run-inspector")}


def test_version_after_other_options_is_answered_by_the_parser() -> None:
    done = subprocess.run([sys.executable, "-m", "inspector", "--lang", "de", "--version"],
                          capture_output=True, text=True, cwd=ROOT)
    assert (done.returncode, done.stdout) == (0, f"run-inspector {importlib.metadata.version('run-inspector')}\n")


def test_the_version_falls_back_to_pyproject_without_metadata(monkeypatch: pytest.MonkeyPatch) -> None:
    from inspector import version

    def missing(_name: str) -> str:
        raise importlib.metadata.PackageNotFoundError(_name)

    monkeypatch.setattr(importlib.metadata, "version", missing)
    monkeypatch.setattr(importlib.metadata, "metadata", missing)
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert version.installed_version() == ""
    assert version.app_version() == project["version"]
    assert version.app_licence() == project["license"] == "MIT"
    assert version.app_homepage() == project["urls"]["Homepage"]


def test_the_homepage_comes_from_the_installed_metadata() -> None:
    from inspector import version

    entries = importlib.metadata.metadata("run-inspector").get_all("Project-URL")
    assert f"Homepage, {version.app_homepage()}" in entries


def test_the_log_file_is_in_the_user_log_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from inspector.logfile import log_path

    monkeypatch.delenv("RUN_INSPECTOR_LOG")
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    if sys.platform.startswith("linux"):
        assert log_path() == tmp_path / "run-inspector" / "log" / "run-inspector.log"
    monkeypatch.setenv("RUN_INSPECTOR_LOG", str(tmp_path / "elsewhere.log"))
    assert log_path() == tmp_path / "elsewhere.log"


def _secret_error() -> RuntimeError:
    return RuntimeError(f"GET https://api.example/v1?token={PLANTED}&page=2 failed; headers were "
                        f"{{'Authorization': 'Bearer {PLANTED}'}}, password={PLANTED}")


def test_an_internal_error_of_a_command_is_logged_with_its_traceback_and_no_secret(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from inspector.cli import main, runs
    from inspector.logfile import log_path

    def broken(_args: object) -> int:
        raise _secret_error()

    monkeypatch.setattr(runs, "run", broken)
    with pytest.raises(RuntimeError):
        main(["runs", "list"])
    logged = log_path().read_text(encoding="utf-8")
    assert "Internal error in the command: run-inspector runs" in logged
    assert "Traceback (most recent call last)" in logged and "in broken" in logged
    assert "RuntimeError: GET https://api.example/v1?token=" in logged
    assert PLANTED not in logged
    assert f"the traceback is also in the log file {log_path()}" in capsys.readouterr().err


def test_the_window_hook_logs_unhandled_exceptions_then_calls_the_previous_hook(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from inspector.logfile import install_excepthook, log_path

    seen: list[BaseException] = []
    monkeypatch.setattr(sys, "excepthook", lambda kind, error, tb: seen.append(error))
    install_excepthook()
    install_excepthook()  # twice: still one line per error
    try:
        raise _secret_error()
    except RuntimeError as error:
        sys.excepthook(type(error), error, error.__traceback__)
    logged = log_path().read_text(encoding="utf-8")
    assert logged.count("Unhandled exception in the window") == 1
    assert "test_the_window_hook_logs" in logged and PLANTED not in logged
    assert len(seen) == 1


def test_the_log_rotates_at_its_size_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    from inspector import logfile

    monkeypatch.setattr(logfile, "MAX_BYTES", 2_000)
    monkeypatch.setenv("RUN_INSPECTOR_LOG", str(logfile.log_path().with_name("small.log")))
    for number in range(30):
        logfile.log_unexpected(f"error {number}", ValueError("x" * 200))
    files = sorted(path.name for path in logfile.log_path().parent.glob("small.log*"))
    assert files == ["small.log", "small.log.1", "small.log.2", "small.log.3"]
    assert all(path.stat().st_size <= 2_000 for path in logfile.log_path().parent.glob("small.log*"))


def test_an_unwritable_log_folder_is_no_second_error(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from inspector.logfile import log_unexpected

    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("RUN_INSPECTOR_LOG", str(blocker / "run-inspector.log"))
    assert log_unexpected("anything", ValueError("x")) is None


def test_with_json_the_internal_error_is_one_json_object_and_a_log_entry(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from inspector.cli import main, runs
    from inspector.logfile import log_path

    def broken(_args: object) -> int:
        raise _secret_error()

    monkeypatch.setattr(runs, "run", broken)
    with pytest.raises(RuntimeError):
        main(["runs", "list", "--json"])
    answer = json.loads(capsys.readouterr().out)
    assert answer["error"]["kind"] == "internal"
    logged = log_path().read_text(encoding="utf-8")
    assert "in broken" in logged and PLANTED not in logged
