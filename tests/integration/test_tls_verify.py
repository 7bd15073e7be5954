"""HTTPS servers: the certificate is verified against the system's authorities (loaded on the first
TLS connection only, so that a call to an ``http://`` server does not pay for reading them)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.support.asgi_server import serve_asgi
from tests.support.sdk_server import build_sdk_server
from tests.support.tls import make_loopback_certificates

ROOT = Path(__file__).resolve().parents[2]


def _call(url: str, tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "RUN_INSPECTOR_SETTINGS": str(tmp_path / "s.ini"), "SSL_CERT_DIR": str(tmp_path),
                   **env}
    return subprocess.run([sys.executable, "-m", "inspector", "call", url, "echo", "--args", '{"text": "over tls"}',
                           "--no-store", "--json"], capture_output=True, text=True, timeout=60, cwd=ROOT,
                          env=environment)


def test_a_server_whose_authority_is_trusted_answers(tmp_path: Path) -> None:
    authority, certificate, key = make_loopback_certificates(tmp_path)
    with serve_asgi(build_sdk_server().streamable_http_app(), tls=(str(certificate), str(key))) as url:
        assert url.startswith("https://")
        done = _call(url, tmp_path, SSL_CERT_FILE=str(authority))
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert (answer["outcome"], answer["content"]) == ("ok", "over tls")


def test_an_unknown_authority_is_refused_and_said(tmp_path: Path) -> None:
    _, certificate, key = make_loopback_certificates(tmp_path)
    empty = tmp_path / "no-authorities.pem"
    empty.write_text("")
    with serve_asgi(build_sdk_server().streamable_http_app(), tls=(str(certificate), str(key))) as url:
        done = _call(url, tmp_path, SSL_CERT_FILE=str(empty))
    assert done.returncode != 0
    answer = json.loads(done.stdout)
    assert answer["outcome"] == "failed" and "over tls" not in done.stdout
    assert "CERTIFICATE_VERIFY_FAILED" in answer["error"]["message"], answer


def test_the_authorities_are_read_on_the_first_tls_connection_only() -> None:
    probe = ("import ssl\nfrom inspector.mcp.channels.http_client import shared_ssl_context\n"
             "context = shared_ssl_context()\n"
             "print(context.cert_store_stats()['x509_ca'], context.verify_mode == ssl.CERT_REQUIRED, "
             "context.check_hostname)\n"
             "context.wrap_bio(ssl.MemoryBIO(), ssl.MemoryBIO(), server_hostname='example.org')\n"
             "print(context.cert_store_stats()['x509_ca'] > 0 or bool(context.get_ca_certs()) or 'loaded')\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, cwd=ROOT)
    first, second = done.stdout.split("\n")[:2]
    assert first == "0 True True", done.stderr
    assert second == "True"
