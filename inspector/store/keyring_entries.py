"""The system keyring as a place for this application's text entries (service ``run-inspector``).

Any keyring may be missing, locked, refuse a write or hold something another program put there:
nothing here raises. A read that fails, or finds more than :data:`MAX_ENTRY_CHARS`, finds nothing;
a write or delete that fails says so with ``False``; :attr:`KeyringEntries.problem` then says what
the keyring answered (its error, e.g. ``KeyringLocked: ...``), for a message that names it.
"""

from __future__ import annotations

import threading
from typing import Any

KEYRING_SERVICE = "run-inspector"
#: The keyring entry of an address's secret query, beside the server's secret headers (no header is
#: named so: ``?`` is not allowed in a header name).
QUERY_ACCOUNT = "?query"
#: The longest entry read or written: tokens and keys are a few kilobytes; anything longer is not ours.
MAX_ENTRY_CHARS = 64 * 1024
#: The problem a write of a longer value notes (the keyring is not asked): no unlocking helps, the value is wrong.
TOO_LONG = f"longer than {MAX_ENTRY_CHARS} characters"
#: The longest keyring error shown (a backend's error may quote a whole D-Bus reply).
MAX_PROBLEM_CHARS = 200


def problem_text(error: BaseException) -> str:
    """What a keyring error says, on one line: its kind and its words (``KeyringLocked: locked``)."""
    words = " ".join(str(error).split())
    text = f"{type(error).__name__}: {words}" if words else type(error).__name__
    return text if len(text) <= MAX_PROBLEM_CHARS else text[:MAX_PROBLEM_CHARS - 1] + "…"


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
        self._local = threading.local()

    @property
    def problem(self) -> str | None:
        """What the keyring said when this thread's last call failed (``None``: it did not fail)."""
        return getattr(self._local, "problem", None)

    @problem.setter
    def problem(self, text: str | None) -> None:
        self._local.problem = text

    def read(self, account: str) -> str | None:
        self.problem = None
        try:
            value = self._backend.get_password(KEYRING_SERVICE, account)
        except Exception as error:  # noqa: BLE001 - locked, denied, gone: nothing is kept for us
            self.problem = problem_text(error)
            return None
        if not isinstance(value, str) or len(value) > MAX_ENTRY_CHARS:
            return None
        return value

    def write(self, account: str, value: str) -> bool:
        self.problem = None
        if len(value) > MAX_ENTRY_CHARS:
            self.problem = TOO_LONG
            return False
        try:
            self._backend.set_password(KEYRING_SERVICE, account, value)
        except Exception as error:  # noqa: BLE001 - any failure means "not kept"
            self.problem = problem_text(error)
            return False
        return True

    def delete(self, account: str) -> bool:
        """Remove the entry; ``True`` when it is gone (also when there was none)."""
        self.problem = None
        try:
            self._backend.delete_password(KEYRING_SERVICE, account)
        except Exception as error:  # noqa: BLE001 - PasswordDeleteError, locked, denied
            refused = problem_text(error)
            if self.read(account) is None and self.problem is None:
                return True  # "not found" is gone (and so is an entry a refusing keyring does not hold)
            self.problem = refused
            return False
        return True


__all__ = ["KEYRING_SERVICE", "MAX_ENTRY_CHARS", "TOO_LONG", "KeyringEntries", "problem_text", "usable_keyring"]
