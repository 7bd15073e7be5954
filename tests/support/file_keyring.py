"""A real keyring backend for tests: entries in one JSON file in a temporary folder.

In the test process the ``file_keyring`` fixture (tests/conftest.py) installs it with
``keyring.set_keyring``; processes the test starts inherit ``PYTHON_KEYRING_BACKEND`` naming this
class and :data:`FILE_ENV` naming the file, so they read and write the same entries. Without
:data:`FILE_ENV` the class is not viable (its priority raises), so ``keyring`` never picks it by
itself. :class:`RefusingKeyring` is a keyring that looks usable and refuses every call (locked);
:class:`RefusingEntries` the file keyring refusing to keep some entries (their items locked, say);
:class:`LockingEntries` one that locks after such a refusal (an undo's writes refused too).
:class:`TroubledKeyring` is the file keyring with troubles a real one has: each call waits (a
Secret Service showing its unlock prompt, a slow D-Bus) and chosen calls fail with the error a
real backend raises; a process the test starts gets the same troubles through :data:`TROUBLE_ENV`.
"""

from __future__ import annotations

import fcntl
import json
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from keyring import errors
from keyring.backend import KeyringBackend
from keyring.compat import properties
from keyring.errors import KeyringLocked, PasswordDeleteError, PasswordSetError

#: The file the backend keeps its entries in (set by the fixture, inherited by child processes).
FILE_ENV = "RUN_INSPECTOR_TEST_KEYRING"
#: ``PYTHON_KEYRING_BACKEND`` for a process that should use this backend.
BACKEND_NAME = "tests.support.file_keyring.FileKeyring"
#: ``PYTHON_KEYRING_BACKEND`` for a process that should use :class:`TroubledKeyring`.
TROUBLED_NAME = "tests.support.file_keyring.TroubledKeyring"
#: The troubles of :class:`TroubledKeyring` in a process the test starts: ``wait=SECONDS`` and
#: ``CALL=ERROR`` items, comma-separated (``wait=2,set=KeyringLocked,delete=PasswordDeleteError``);
#: ``wait.CALL=SECONDS``: that call waits so long instead (``wait.set=3600``: a save nobody answers);
#: ``find=SECONDS``: asking its priority (``keyring`` finding its backend) waits that long, as the
#: Secret Service's asks D-Bus, in this process too.
TROUBLE_ENV = "RUN_INSPECTOR_TEST_KEYRING_TROUBLE"


class FileKeyring(KeyringBackend):
    """Entries ``{service: {username: password}}`` in a JSON file; safe across processes (a lock
    file serialises each read-modify-write, the file is replaced whole)."""

    @properties.classproperty
    def priority(cls) -> float:  # noqa: N805 - keyring's classproperty
        if not os.environ.get(FILE_ENV):
            raise RuntimeError(f"{FILE_ENV} names no file: this test keyring is not in use")
        return 1

    def __init__(self, path: str | os.PathLike[str] | None = None) -> None:
        super().__init__()
        self.path = Path(path if path is not None else os.environ[FILE_ENV])

    def get_password(self, service: str, username: str) -> str | None:
        with self._locked():
            return self._entries().get(service, {}).get(username)

    def set_password(self, service: str, username: str, password: str) -> None:
        with self._locked():
            entries = self._entries()
            entries.setdefault(service, {})[username] = password
            self._save(entries)

    def delete_password(self, service: str, username: str) -> None:
        with self._locked():
            entries = self._entries()
            if username not in entries.get(service, {}):
                raise PasswordDeleteError(username)
            del entries[service][username]
            self._save(entries)

    def entries(self, service: str = "run-inspector") -> dict[str, str]:
        """Every entry of ``service`` (for a test's assertions)."""
        with self._locked():
            return dict(self._entries().get(service, {}))

    @contextmanager
    def _locked(self) -> Iterator[None]:
        with open(f"{self.path}.lock", "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            yield

    def _entries(self) -> dict[str, dict[str, str]]:
        try:
            return json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}

    def _save(self, entries: dict[str, dict[str, str]]) -> None:
        partial = self.path.with_name(self.path.name + ".partial")
        partial.write_text(json.dumps(entries), encoding="utf-8")
        os.replace(partial, self.path)


class RefusingKeyring(KeyringBackend):
    """A keyring that looks usable but is locked: every read, write and delete fails."""

    priority = 1  # type: ignore[assignment]

    def get_password(self, service: str, username: str) -> str | None:
        raise KeyringLocked("locked")

    def set_password(self, service: str, username: str, password: str) -> None:
        raise KeyringLocked("locked")

    def delete_password(self, service: str, username: str) -> None:
        raise KeyringLocked("locked")


class RefusingEntries(FileKeyring):
    """The file keyring refusing to keep the entries ``refused`` names (``PasswordSetError``): their account
    starts or ends with it."""

    def __init__(self, path: str | os.PathLike[str], refused: str) -> None:
        super().__init__(path)
        self.refused = refused

    def set_password(self, service: str, username: str, password: str) -> None:
        if username.startswith(self.refused) or username.endswith(self.refused):
            raise PasswordSetError("refused for this entry")
        super().set_password(service, username, password)


class LockingEntries(RefusingEntries):
    """:class:`RefusingEntries` that locks once it refused (the user's session locked it as the command ran): every
    write and delete after that refusal fails (``KeyringLocked``); reads still answer."""

    def __init__(self, path: str | os.PathLike[str], refused: str) -> None:
        super().__init__(path, refused)
        self.locked = False

    def set_password(self, service: str, username: str, password: str) -> None:
        if self.locked:
            raise KeyringLocked("locked since a refusal")
        try:
            super().set_password(service, username, password)
        except PasswordSetError:
            self.locked = True
            raise

    def delete_password(self, service: str, username: str) -> None:
        if self.locked:
            raise KeyringLocked("locked since a refusal")
        super().delete_password(service, username)


#: The errors a real backend raises, by the name :data:`TROUBLE_ENV` gives them.
_ERRORS = {name: getattr(errors, name) for name in ("KeyringLocked", "PasswordSetError", "PasswordDeleteError",
                                                    "InitError", "KeyringError")}


def _told() -> dict[str, str]:
    return dict(item.split("=", 1) for item in os.environ.get(TROUBLE_ENV, "").split(",") if "=" in item)


class TroubledKeyring(FileKeyring):
    """The file keyring, slow and refusing as told: ``wait_s`` before each call, and ``refuse`` maps a
    call (``get``, ``set``, ``delete``) to the name of the error it raises (after the wait).
    ``calls`` counts the calls made (``made`` lists them), and ``threads`` names the threads that made
    them (``found_by`` the threads that asked its priority)."""

    found_by: set[str] = set()

    @properties.classproperty
    def priority(cls) -> float:  # noqa: N805 - keyring's classproperty
        import threading

        if not os.environ.get(FILE_ENV):
            raise RuntimeError(f"{FILE_ENV} names no file: this test keyring is not in use")
        cls.found_by.add(threading.current_thread().name)
        time.sleep(float(_told().get("find", 0)))
        return 1

    def __init__(self, path: str | os.PathLike[str] | None = None, wait_s: float | None = None,
                 refuse: dict[str, str] | None = None) -> None:
        super().__init__(path)
        told = _told()
        told.pop("find", None)
        self.wait_s = wait_s if wait_s is not None else float(told.pop("wait", 0))
        #: Waits of their own, by call (``get``, ``set``, ``delete``).
        self.waits = {name.split(".", 1)[1]: float(told.pop(name)) for name in list(told) if name.startswith("wait.")}
        self.refuse = refuse if refuse is not None else {call: error for call, error in told.items()}
        self.calls = 0
        #: The calls made, in order (``get``, ``set``, ``delete``).
        self.made: list[str] = []
        self.threads: set[str] = set()

    def _trouble(self, call: str) -> None:
        import threading

        self.calls += 1
        self.made.append(call)
        self.threads.add(threading.current_thread().name)
        time.sleep(self.waits.get(call, self.wait_s))
        error = self.refuse.get(call)
        if error is not None:
            raise _ERRORS[error](f"the test keyring refuses to {call} ({error})")

    def get_password(self, service: str, username: str) -> str | None:
        self._trouble("get")
        return super().get_password(service, username)

    def set_password(self, service: str, username: str, password: str) -> None:
        self._trouble("set")
        super().set_password(service, username, password)

    def delete_password(self, service: str, username: str) -> None:
        self._trouble("delete")
        super().delete_password(service, username)
