"""Secret header values: kept in the system keyring when one is usable, never in the database."""

from __future__ import annotations

import re
from typing import Any, Protocol

from .keyring_entries import KEYRING_SERVICE, KeyringEntries, usable_keyring

_SECRET_HEADER = re.compile(r"(authorization|cookie|token|secret|api[-_]?key|password|credential|session)",
                            re.IGNORECASE)


def is_secret_header(name: str) -> bool:
    """Headers whose values are credentials by their name (Authorization, X-Api-Key, ...)."""
    return bool(_SECRET_HEADER.search(name))


class SecretKeeper(Protocol):
    """Where secret header values go. ``available`` is False when nothing can keep them."""

    available: bool

    def save(self, server_url: str, header: str, value: str) -> bool: ...
    def load(self, server_url: str, header: str) -> str | None: ...
    def delete(self, server_url: str, header: str) -> bool: ...


class NoSecretKeeper:
    """Keeps nothing: secret values must be given again (asked for) each time."""

    available = False

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
        self._backend: Any = None

    @property
    def _keyring(self) -> Any:
        if not self._found:
            self._backend, self._found = usable_keyring(), True
        return self._backend

    @property
    def available(self) -> bool:
        return self._keyring is not None

    def save(self, server_url: str, header: str, value: str) -> bool:
        if not self.available:
            return False
        try:
            self._keyring.set_password(KEYRING_SERVICE, f"{server_url} {header}", value)
        except Exception:  # noqa: BLE001 - any keyring failure means "not kept"
            return False
        return True

    def load(self, server_url: str, header: str) -> str | None:
        if not self.available:
            return None
        try:
            return self._keyring.get_password(KEYRING_SERVICE, f"{server_url} {header}")
        except Exception:  # noqa: BLE001
            return None

    def delete(self, server_url: str, header: str) -> bool:
        """Remove the entry; True when it is gone (also when there was none, or no keyring keeps any)."""
        return not self.available or KeyringEntries(self._keyring).delete(f"{server_url} {header}")


def system_secret_keeper() -> SecretKeeper:
    """The keyring's keeper (it keeps nothing when no keyring is usable, as :class:`NoSecretKeeper`)."""
    return KeyringSecretKeeper()
