"""The system keyring as a place for this application's text entries (service ``run-inspector``).

Any keyring may be missing, locked, refuse a write or hold something another program put there:
nothing here raises. A read that fails, or finds more than :data:`MAX_ENTRY_CHARS`, finds nothing;
a write or delete that fails says so with ``False``.
"""

from __future__ import annotations

from typing import Any

KEYRING_SERVICE = "run-inspector"
#: The longest entry read or written: tokens and keys are a few kilobytes; anything longer is not ours.
MAX_ENTRY_CHARS = 64 * 1024


def usable_keyring() -> Any | None:
    """The keyring backend ``keyring`` chose, or ``None`` when it keeps nothing (the ``fail`` or
    ``null`` backend, a priority of 0 or below, or ``keyring`` missing or misconfigured)."""
    try:
        import keyring
        from keyring.backends import fail

        backend = keyring.get_keyring()
        priority = backend.priority
    except Exception:  # noqa: BLE001 - a broken configuration (bad keyringrc, a backend that fails) keeps nothing
        return None
    if isinstance(backend, fail.Keyring) or isinstance(priority, bool) or not isinstance(priority, (int, float)):
        return None
    return backend if priority > 0 else None


class KeyringEntries:
    """Text entries of this application in one keyring backend; never raises."""

    def __init__(self, backend: Any) -> None:
        self._backend = backend

    def read(self, account: str) -> str | None:
        try:
            value = self._backend.get_password(KEYRING_SERVICE, account)
        except Exception:  # noqa: BLE001 - locked, denied, gone: nothing is kept for us
            return None
        if not isinstance(value, str) or len(value) > MAX_ENTRY_CHARS:
            return None
        return value

    def write(self, account: str, value: str) -> bool:
        if len(value) > MAX_ENTRY_CHARS:
            return False
        try:
            self._backend.set_password(KEYRING_SERVICE, account, value)
        except Exception:  # noqa: BLE001 - any failure means "not kept"
            return False
        return True

    def delete(self, account: str) -> bool:
        """Remove the entry; ``True`` when it is gone (also when there was none)."""
        try:
            from keyring.errors import PasswordDeleteError
        except ImportError:  # pragma: no cover - a backend exists only with keyring installed
            return False
        try:
            self._backend.delete_password(KEYRING_SERVICE, account)
        except PasswordDeleteError:
            return self.read(account) is None  # "not found" is gone; "refused" is not
        except Exception:  # noqa: BLE001
            return False
        return True


__all__ = ["KEYRING_SERVICE", "MAX_ENTRY_CHARS", "KeyringEntries", "usable_keyring"]
