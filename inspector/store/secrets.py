"""Secret header values: kept in the system keyring when one is usable, never in the database."""

from __future__ import annotations

import re
from typing import Protocol

from .keyring_entries import KeyringEntries, usable_keyring

# Header names whose values are credentials by their name (as in ``inspector.mcp.secrets``, which
# this layer may not import): the words of credentials, and the names collectors give theirs (from
# their documentation): a name ending in "-key" or "_key" (Instana's x-instana-key, SigNoz's
# signoz-ingestion-key), a DSN holding a token (Uptrace's uptrace-dsn) and Honeycomb's
# x-honeycomb-team (its API key); and names APIs take their keys in besides Authorization ("X-Auth",
# "Authentication", "X-Passphrase").
_SECRET_HEADER = re.compile(r"(authorization|authentication|cookie|token|secret|api[-_]?key|password|passwd"
                            r"|passphrase|passcode|credential|session|(^|[-_])auth$|[-_]key$|dsn|honeycomb-team)",
                            re.IGNORECASE)


#: The keyring entry of a model's API key, beside its completions address (``agent`` and the Play tab).
MODEL_KEY_ACCOUNT = "api-key"


def is_secret_header(name: str) -> bool:
    """Headers whose values are credentials by their name (Authorization, X-Api-Key, ...)."""
    return bool(_SECRET_HEADER.search(name))


class SecretKeeper(Protocol):
    """Where secret header values go. ``available`` is False when nothing can keep them; ``problem``
    says what the keyring answered when the last call failed (``None``: it did not, or none is
    usable), for a message that names it."""

    available: bool
    problem: str | None

    def save(self, server_url: str, header: str, value: str) -> bool: ...
    def load(self, server_url: str, header: str) -> str | None: ...
    def delete(self, server_url: str, header: str) -> bool: ...


class NoSecretKeeper:
    """Keeps nothing: secret values must be given again (asked for) each time."""

    available = False
    problem = None

    def save(self, server_url: str, header: str, value: str) -> bool:
        return False

    def load(self, server_url: str, header: str) -> str | None:
        return None

    def delete(self, server_url: str, header: str) -> bool:
        return True


class KeyringSecretKeeper:
    """The system keyring through the ``keyring`` package, looked for when first used: finding a
    backend costs a fifth of a second, which a command that never needs a secret does not pay."""

    def __init__(self) -> None:
        self._found = False
        self._entries: KeyringEntries | None = None

    @property
    def _keyring(self) -> KeyringEntries | None:
        if not self._found:
            backend = usable_keyring()
            self._entries, self._found = (KeyringEntries(backend) if backend is not None else None), True
        return self._entries

    @property
    def available(self) -> bool:
        return self._keyring is not None

    @property
    def problem(self) -> str | None:
        return self._keyring.problem if self._keyring is not None else None

    def save(self, server_url: str, header: str, value: str) -> bool:
        entries = self._keyring
        return entries is not None and entries.write(f"{server_url} {header}", value)

    def load(self, server_url: str, header: str) -> str | None:
        entries = self._keyring
        return entries.read(f"{server_url} {header}") if entries is not None else None

    def delete(self, server_url: str, header: str) -> bool:
        """Remove the entry; True when it is gone (also when there was none, or no keyring keeps any)."""
        entries = self._keyring
        return entries is None or entries.delete(f"{server_url} {header}")


def system_secret_keeper() -> SecretKeeper:
    """The keyring's keeper (it keeps nothing when no keyring is usable, as :class:`NoSecretKeeper`)."""
    return KeyringSecretKeeper()
