"""`run-inspector proxy`: listens on loopback, forwards to the server, records each operation, stops cleanly."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

from inspector.demo import DemoServer
from inspector.mcp import McpClient, ServerEndpoint
from inspector.store import RunStore


def _ours_through(url: str) -> str:
    async def go() -> str:
        client = McpClient()
        try:
            result = await client.call_tool(ServerEndpoint(url, era="handshake"), "echo", {"text": "via the proxy"})
        finally:
            await client.drain()
        return result.content
    return asyncio.run(go())


def test_proxy_json_prints_its_address_and_records_until_stdin_closes(tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    with DemoServer() as demo:
        process = subprocess.Popen([sys.executable, "-m", "inspector", "proxy", "--to", demo.url, "--db", str(db),
                                    "--json", "--stop-with-stdin"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
        try:
            told = json.loads(process.stdout.readline())
            assert told["url"].startswith("http://127.0.0.1:") and told["url"].endswith("/mcp")
            # The database under the key `receive` uses too, and under the one documented before.
            assert told["to"] == demo.url and told["database"] == told["db"] == str(db) and told["budget_s"] is None
            assert _ours_through(told["url"]) == "via the proxy"
            process.stdin.close()
            process.wait(20)
            out, err = process.stdout.read(), process.stderr.read()
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
    assert process.returncode == 0, err
    assert out == ""  # exactly the one object, already read
    with RunStore.open(db) as store:
        runs = {run.title: run for run in store.list_runs(limit=None)}
        call = runs["tools/call echo · proxy"]
        legs = [leg["method"] for leg in next(store.iter_steps(call.id)).payload["legs"]]
    assert call.status == "ok" and call.source == "live" and call.server == demo.url
    # Run Inspector's own client opens a session per operation: the proxy records it as one run.
    assert legs[:3] == ["initialize", "notifications/initialized", "tools/call"]


def _readable_proxy(to: str, db: Path) -> subprocess.Popen[str]:
    """`run-inspector proxy --to TO --db DB` on any free port, its readable lines unbuffered."""
    return subprocess.Popen([sys.executable, "-m", "inspector", "proxy", "--to", to, "--db", str(db),
                             "--listen", "127.0.0.1:0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})


def test_proxy_says_where_it_listens_and_how_many_runs_it_kept(tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    with DemoServer() as demo:
        process = _readable_proxy(demo.url, db)
        try:
            first = process.stdout.readline()
            assert first.startswith("The recording proxy is listening at http://127.0.0.1:"), first
            assert f"forwards to {demo.url}" in first
            url = first.split(" at ", 1)[1].split(" and ", 1)[0]
            assert str(db) in process.stdout.readline()
            assert _ours_through(url) == "via the proxy"
            assert process.stdout.readline().startswith("recorded run ")
            process.send_signal(signal.SIGINT)
            out, err = process.communicate(timeout=20)
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
    assert process.returncode == 0, err
    assert "The proxy stopped; it recorded" in out and "Traceback" not in err


def test_sigterm_stops_the_proxy_as_ctrl_c_does_and_the_call_in_flight_is_kept(tmp_path: Path) -> None:
    """SIGTERM (``kill``, a service manager) ended the proxy at once (status -15): the call it was forwarding
    stayed a run "interrupted" with nothing said. Now it stops as Ctrl-C stops it: the call is recorded as
    cancelled, the proxy says so and ends with status 0."""
    db = tmp_path / "runs.db"
    with DemoServer() as demo:
        process = _readable_proxy(demo.url, db)
        try:
            url = process.stdout.readline().split(" at ", 1)[1].split(" and ", 1)[0]
            process.stdout.readline()
            hanging = threading.Thread(target=_hang_through, args=(url,), daemon=True)
            hanging.start()
            deadline = time.monotonic() + 30
            while not _running_runs(db) and time.monotonic() < deadline:  # the operation's run is begun
                time.sleep(0.1)
            time.sleep(1.5)  # tools/call hang forwarded: the demo server holds it
            process.send_signal(signal.SIGTERM)
            out, err = process.communicate(timeout=20)
            hanging.join(30)
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
    assert process.returncode == 0, err
    assert "tools/call hang · proxy (cancelled)" in out and "The proxy stopped; it recorded" in out, out
    with RunStore.open(db) as store:
        statuses = {run.title: run.status for run in store.list_runs(limit=None)}
    assert statuses["tools/call hang · proxy"] == "cancelled", statuses


def _running_runs(db: Path) -> list[str]:
    if not db.exists():
        return []
    with RunStore.open(db) as store:
        return [run.title for run in store.list_runs(limit=None) if run.status == "running"]


def _hang_through(url: str) -> None:
    async def go() -> None:
        client = McpClient()
        try:
            await client.call_tool(ServerEndpoint(url, era="handshake"), "hang", {}, budget_s=30)
        except Exception:  # noqa: BLE001 - the proxy stops under it: whatever the client makes of that
            pass
        finally:
            await client.drain()
    asyncio.run(go())


def test_proxy_refuses_what_it_cannot_do(capsys, tmp_path: Path) -> None:
    from inspector.cli import main

    db = str(tmp_path / "runs.db")
    assert main(["proxy", "--to", "http://127.0.0.1:9/mcp", "--listen", "here", "--db", db]) == 2
    assert "The address to listen on must be HOST:PORT" in capsys.readouterr().err
    assert main(["proxy", "--to", "ftp://example.org/", "--db", db]) == 2
    assert "must be an http:// or https:// URL" in capsys.readouterr().err
    for unreadable in ("http://127.0.0.1:bad/mcp", "http://[::1/mcp", "http://127.0.0.1:99999/mcp"):
        assert main(["proxy", "--to", unreadable, "--db", db]) == 2  # it raised ValueError: an internal error
        assert "must be an http:// or https:// URL" in capsys.readouterr().err
    assert main(["proxy", "--to", "http://127.0.0.1:9/mcp", "--budget", "soon", "--db", db]) == 2
    assert "--budget must be a positive number of seconds" in capsys.readouterr().err
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    try:
        port = taken.getsockname()[1]
        assert main(["proxy", "--to", "http://127.0.0.1:9/mcp", "--listen", f"127.0.0.1:{port}", "--db", db,
                     "--json"]) == 2
        answer = json.loads(capsys.readouterr().out)
        assert f"cannot listen on 127.0.0.1:{port}" in json.dumps(answer)
    finally:
        taken.close()


def test_proxy_prints_no_credential_of_the_address_it_forwards_to(tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    password, key = "pw-0e1f2a3b4c", "key-9a8b7c6d5e"
    with DemoServer() as demo:
        given = demo.url.replace("http://", f"http://user:{password}@") + f"?api_key={key}"
        for extra in ([], ["--json"]):
            process = subprocess.Popen([sys.executable, "-m", "inspector", "proxy", "--to", given, "--db", str(db),
                                        "--listen", "127.0.0.1:0", *extra], stdout=subprocess.PIPE,
                                       stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
            try:
                first = process.stdout.readline()
                assert demo.url in first
                process.send_signal(signal.SIGINT)
                out, err = process.communicate(timeout=20)
            finally:
                if process.poll() is None:
                    process.kill()
                    process.wait()
            for secret in (password, key):
                assert secret not in first + out + err


def test_runs_show_says_why_a_proxied_steps_legs_were_granted_no_time(tmp_path: Path) -> None:
    """`runs show` listed the legs of a step the proxy recorded "granted -" and said no more: it says
    why, as the window's budget bar does (the agent's own call, passed through), in German too."""
    db = tmp_path / "runs.db"
    with DemoServer() as demo:
        process = _readable_proxy(demo.url, db)
        try:
            url = process.stdout.readline().split(" at ", 1)[1].split(" and ", 1)[0]
            assert _ours_through(url) == "via the proxy"
            process.send_signal(signal.SIGINT)
            process.communicate(timeout=20)
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
    with RunStore.open(db) as store:
        run_id = next(run.id for run in store.list_runs(limit=None) if run.title == "tools/call echo · proxy")
    said = {}
    for language in ("en", "de"):
        shown = subprocess.run([sys.executable, "-m", "inspector", "--lang", language, "runs", "show", str(run_id),
                                "--db", str(db)], capture_output=True, text=True, timeout=60)
        assert shown.returncode == 0, shown.stderr
        said[language] = shown.stdout
    assert "    No deadline: the agent's own call, passed through.\n" in said["en"]
    assert said["en"].count("No deadline") == 1  # once for the step, under its legs
    assert "    Keine Frist:" in said["de"] and "No deadline" not in said["de"]
