"""The httpx client an operation or a listening session talks through: verified TLS whose certificate
authorities are read on first use, no redirects, no time-outs of its own (the leg's grant bounds
everything), nothing taken from the environment."""

from __future__ import annotations

import ssl
import threading
from functools import lru_cache
from typing import Any

import httpx

USER_AGENT = "run-inspector/0.1"


class _VerifiedOnFirstUse(ssl.SSLContext):
    """A verifying TLS client context (as :func:`ssl.create_default_context` makes) that loads the
    system's certificate authorities when it is first used: reading them costs tens of
    milliseconds, which a call to a plain ``http://`` server need not pay."""

    _loaded = False
    _loading = threading.Lock()

    def _load(self) -> None:
        with self._loading:
            if not self._loaded:
                self.load_default_certs(ssl.Purpose.SERVER_AUTH)
                self._loaded = True

    def wrap_socket(self, *args: Any, **kwargs: Any) -> ssl.SSLSocket:  # type: ignore[override]
        self._load()
        return super().wrap_socket(*args, **kwargs)

    def wrap_bio(self, *args: Any, **kwargs: Any) -> ssl.SSLObject:  # type: ignore[override]
        self._load()
        return super().wrap_bio(*args, **kwargs)


@lru_cache(maxsize=1)
def shared_ssl_context() -> ssl.SSLContext:
    """One verified TLS context per process: building it costs milliseconds per client."""
    return _VerifiedOnFirstUse(ssl.PROTOCOL_TLS_CLIENT)


def new_http_client() -> httpx.AsyncClient:
    """An httpx client for one operation: no redirects, no time-outs of its own (the leg's
    grant bounds everything), no proxy or ``.netrc`` credentials taken from the environment."""
    return httpx.AsyncClient(
        verify=shared_ssl_context(),
        follow_redirects=False,
        timeout=httpx.Timeout(None),
        trust_env=False,
        headers={"User-Agent": USER_AGENT},
    )
