"""`run-inspector serve-demo`: prints its URL, serves MCP, and stops cleanly on Ctrl-C."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys

import pytest

from inspector.mcp import McpClient, ServerEndpoint


@pytest.mark.parametrize("stop_signal", [signal.SIGINT, signal.SIGTERM])
def test_serve_demo_runs_until_ctrl_c_or_sigterm(stop_signal):
    """SIGTERM (``kill``, a service manager, ``docker stop``) stops it as Ctrl-C does: it ended at once
    with status -15 and said nothing."""
    process = subprocess.Popen([sys.executable, "-m", "inspector", "serve-demo", "--page-size", "10",
                                "--json-response"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        first = process.stdout.readline()
        assert first.startswith("The demo MCP server is listening at http://127.0.0.1:"), first
        url = first.rsplit(" ", 1)[1].strip()
        # The next thing a user types, with the address to type it with (the first line stays the address).
        assert process.stdout.readline() == f"Its tools, from another terminal: run-inspector tools {url}\n"

        async def walk():
            client = McpClient()
            catalogue = await client.list_tools(ServerEndpoint(url))
            await client.drain()
            return catalogue

        catalogue = asyncio.run(walk())
        assert catalogue.pages > 10 and "lookup_001" in catalogue.names
        process.send_signal(stop_signal)
        out, err = process.communicate(timeout=15)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 0, err
    assert "The demo server stopped." in out
    assert "Traceback" not in err


def test_serve_demo_refuses_bad_options(capsys):
    from inspector.cli import main

    assert main(["serve-demo", "--page-size", "0"]) == 2
    assert "--page-size must be at least 1" in capsys.readouterr().err
    assert main(["serve-demo", "--handshake-delay", "soon"]) == 2
    assert "--handshake-delay must be a number of seconds" in capsys.readouterr().err
    # A hundred million tools ended in a MemoryError traceback after a minute; ten thousand start.
    assert main(["serve-demo", "--page-size", "10", "--catalogue-size", "100000000"]) == 2
    assert capsys.readouterr().err == "run-inspector: --catalogue-size must be from 0 to 10,000 (got 100000000).\n"


def test_serve_demo_for_a_parent_says_where_in_json_and_stops_when_its_stdin_closes():
    """As the window starts it: one JSON object once it listens; the end of stdin stops it cleanly."""
    import json
    import socket
    from urllib.parse import urlsplit

    process = subprocess.Popen([sys.executable, "-m", "inspector", "serve-demo", "--json", "--stop-with-stdin"],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        url = json.loads(process.stdout.readline())["url"]
        port = urlsplit(url).port
        with socket.create_connection(("127.0.0.1", port), timeout=5):
            pass  # it listens
        process.stdin.close()  # as when the window ends, however it ends
        process.wait(15)
        out, err = process.stdout.read(), process.stderr.read()
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 0, err
    assert out == ""  # the one object was the first line; nothing follows it
    assert "Traceback" not in err
    # A taken port: the error is the one object (and the sentence on stderr).
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", port))
        taken.listen(1)
        done = subprocess.run([sys.executable, "-m", "inspector", "serve-demo", "--json", "--port", str(port)],
                              capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    error = json.loads(done.stdout)["error"]
    assert error["kind"] == "usage" and "cannot listen" in error["message"]


def test_a_taken_port_is_said_in_the_readers_language(capsys):
    """The demo server's 'cannot listen' sentence was English in German output, with the C
    library's "Address already in use" inside it."""
    import socket

    from inspector.cli import main

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        assert main(["serve-demo", "--port", str(port)]) == 2
        english = capsys.readouterr().err
        assert main(["--lang", "de", "serve-demo", "--port", str(port)]) == 2
        german = capsys.readouterr().err
    assert english.strip() == (f"run-inspector: The demo server cannot listen on 127.0.0.1:{port} (the address "
                               "is in use already); choose another port with --port, or 0 for any free one.")
    assert german.strip() == (f"run-inspector: Der Demo-Server kann nicht auf 127.0.0.1:{port} lauschen (die "
                              "Adresse wird bereits verwendet); wählen Sie mit --port einen anderen Port oder 0 "
                              "für einen beliebigen freien.")


def test_a_demo_server_that_could_not_start_leaves_no_log_handler_behind(capsys):
    """The command hung its log handler on the demo's logger and kept it when the server could not
    listen: a demo server started later in the same process wrote its lines to that command's
    stderr, closed by then ("--- Logging error --- I/O operation on closed file")."""
    import logging
    import socket

    from inspector.cli import main

    demo_log = logging.getLogger("inspector.demo")
    before = list(demo_log.handlers)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        assert main(["serve-demo", "--port", str(taken.getsockname()[1])]) == 2
    capsys.readouterr()
    assert demo_log.handlers == before
