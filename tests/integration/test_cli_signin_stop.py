"""Ctrl-C and SIGTERM on `signin`: while it waits for the browser both end it with a sentence and nothing kept;
once the tokens are kept neither changes anything. A SIGTERM killed it where it stood (status -15), and a Ctrl-C
landing as the sign-in shut down, its tokens kept, said "the sign-in ... was stopped before it ended" (status
130) while the next command used those tokens."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.integration.test_cli_late_stop import ROOT, stopped_at
from tests.support.auth_server import serve_auth_server
from tests.support.file_keyring import BACKEND_NAME, FILE_ENV
from tests.support.isolation import clean_environment

FOLLOW = ROOT / "tests" / "support" / "follow_redirect.py"
pytestmark = pytest.mark.timeout(90)


def _keyring(folder: Path) -> dict[str, str]:
    """The environment of a process using the test keyring kept in ``folder``."""
    return {"PYTHON_KEYRING_BACKEND": BACKEND_NAME, FILE_ENV: str(folder / "keyring.json")}


@pytest.mark.parametrize("stop", ["SIGINT", "SIGTERM"])
def test_a_stop_signal_as_the_signin_shuts_down_its_tokens_kept_changes_nothing(tmp_path: Path, stop: str) -> None:
    """The stop lands as the sign-in's HTTP client closes, the tokens in the keyring: the sign-in stands, and the
    next command uses it without signing in again."""
    keyring = _keyring(tmp_path)
    with serve_auth_server() as auth:
        done = stopped_at(stop, "httpx:AsyncClient.aclose", "signin", auth.mcp_url, "--json",
                          env={**keyring, "BROWSER": f"{sys.executable} {FOLLOW} %s"})
        assert done.returncode == 0, (done.returncode, done.stderr)
        assert json.loads(done.stdout)["signed_in"] is True and "Cancelled" not in done.stderr
        then = subprocess.run([sys.executable, "-m", "inspector", "tools", auth.mcp_url, "--no-store"], cwd=ROOT,
                              capture_output=True, text=True, timeout=60,
                              env=clean_environment(keyring, {"BROWSER": "false"}))
    assert then.returncode == 0, then.stderr
    assert "asks for a sign-in" not in then.stderr


@pytest.mark.parametrize(("stop", "said"), [
    (signal.SIGINT, "Cancelled (Ctrl-C): the sign-in to"),
    (signal.SIGTERM, "Ended by a signal (SIGTERM): the sign-in to"),
])
def test_a_stop_signal_while_the_signin_waits_for_the_browser_ends_it_with_a_sentence(
        tmp_path: Path, stop: signal.Signals, said: str) -> None:
    """A browser that never comes back: the signal is sent (as `timeout` or a CI runner does) once the address
    is printed. SIGTERM killed the process (status -15, no sentence)."""
    keyring = _keyring(tmp_path)
    with serve_auth_server() as auth:
        signing = subprocess.Popen([sys.executable, "-m", "inspector", "signin", auth.mcp_url], cwd=ROOT,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                   env=clean_environment(keyring, {"BROWSER": "true"}))
        try:
            heard = []
            for line in signing.stderr:  # type: ignore[union-attr]
                heard.append(line)
                if "open this address" in line:
                    break
            os.kill(signing.pid, stop)
            out, err = signing.communicate(timeout=30)
        finally:
            if signing.poll() is None:
                signing.kill()
                signing.wait()
    assert signing.returncode == 130, (signing.returncode, "".join(heard) + err)
    assert said in err and "was stopped before it ended." in err and out == ""
    assert "Traceback" not in err
    kept = Path(keyring[FILE_ENV])
    assert not kept.exists() or "signin tokens" not in kept.read_text()  # nothing kept
