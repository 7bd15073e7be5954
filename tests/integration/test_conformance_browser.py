"""The conformance adapter's browser: ``webbrowser`` with the adapter's ``BROWSER`` completes a
sign-in redirect as a person's browser would (the suite's authorization endpoint redirects at once)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

ROOT = Path(__file__).resolve().parents[2]


def load_adapter():
    spec = importlib.util.spec_from_file_location("conformance_client", ROOT / "conformance" / "client.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class _Handler(BaseHTTPRequestHandler):
    """``/authorize`` answers 302 to ``redirect_uri`` with a code; ``/callback`` records what came."""

    received: list[dict[str, list[str]]] = []

    def do_GET(self) -> None:  # noqa: N802 - the http.server name
        parts = urlsplit(self.path)
        query = parse_qs(parts.query)
        if parts.path == "/authorize":
            self.send_response(302)
            self.send_header("Location", f"{query['redirect_uri'][0]}?code=test-auth-code&state={query['state'][0]}")
            self.end_headers()
        else:
            self.received.append(query)
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b"signed in")

    def log_message(self, *args: object) -> None:
        pass


def test_webbrowser_with_the_adapters_browser_delivers_the_code_to_the_loopback_listener(tmp_path: Path) -> None:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        base = f"http://127.0.0.1:{server.server_address[1]}"
        url = f"{base}/authorize?response_type=code&state=xyz&redirect_uri={base}/callback"
        env = load_adapter().signin_environment(tmp_path)
        opener = "import sys, webbrowser; sys.exit(0 if webbrowser.open(sys.argv[1]) else 1)"
        done = subprocess.run([sys.executable, "-c", opener, url], env=env, timeout=30, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        assert _Handler.received == [{"code": ["test-auth-code"], "state": ["xyz"]}]
    finally:
        server.shutdown()
        server.server_close()
