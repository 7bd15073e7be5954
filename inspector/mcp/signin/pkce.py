"""Proof Key for Code Exchange (RFC 7636, S256 only) and the ``state`` of one authorization attempt."""

from __future__ import annotations

import base64
import hashlib
import secrets
from dataclasses import dataclass, field


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


@dataclass(frozen=True)
class AuthorizationAttempt:
    """What one trip through the browser must bring back: the ``state`` it was sent with, and the
    verifier whose S256 challenge went out (both secret until the code is exchanged)."""

    verifier: str = field(default_factory=lambda: _b64url(secrets.token_bytes(48)), repr=False)
    state: str = field(default_factory=lambda: _b64url(secrets.token_bytes(24)), repr=False)

    @property
    def challenge(self) -> str:
        """``code_challenge`` for ``code_challenge_method=S256``."""
        return _b64url(hashlib.sha256(self.verifier.encode("ascii")).digest())
