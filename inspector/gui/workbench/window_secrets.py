"""The window's secret keeper: what the keyring keeps for the configured servers (secret headers, a
command's secret variables, an address's query), read and written on the engine's worker.

A keyring call can wait seconds (a locked Secret Service shows its unlock prompt, a slow D-Bus) or
fail: on the GUI thread that froze the window (a second per entry at startup, on Edit…, on OK, on
Remove). Here the GUI thread only ever asks memory. Saves and deletes are noted at once and made
on the worker, in order, one batch per burst; reads fill the memory and are said back
(:attr:`WindowSecrets.arrived`). A value asked for before it is read raises
:class:`~inspector.mcp.InvalidServerError` saying so (an endpoint is not built without its
secrets); what the keyring refused is said, naming its answer (:attr:`WindowSecrets.problem`): a
value it did not keep lasts until the window closes, one it did not remove stays in it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from PySide6.QtCore import QObject, Qt, QTimer, Signal

from inspector.i18n.messages import translate
from inspector.mcp import InvalidServerError
from inspector.mcp.messages import Message
from inspector.store.keyring_words import READING, UNREADABLE, refused_message
from inspector.store.secrets import SecretKeeper

from .operations_worker import Work

#: A server's secret entry: (its key, the account beside it: a header's name, ``env:NAME``, ``?query``).
Entry = tuple[str, str]


@dataclass(eq=False)
class _Batch:
    """What the worker is to do in one go, and what it found."""

    reads: list[Entry] = field(default_factory=list)
    #: (entry, value to keep, or None to remove), in the order asked.
    writes: list[tuple[Entry, str | None]] = field(default_factory=list)
    found: dict[Entry, str | None] = field(default_factory=dict)
    #: What the keyring refused: (entry, "keep" / "remove" / "read", its answer).
    refused: list[tuple[Entry, str, str]] = field(default_factory=list)
    available: bool = True
    #: The worker began it (one it never began is made at close: :meth:`WindowSecrets.finish_writes`).
    begun: bool = False


class _Crossing(QObject):
    done = Signal(object)


class WindowSecrets(QObject):
    """A :class:`SecretKeeper` for the window's registry that never waits on the keyring."""

    #: The secrets of a server were read (its key): an endpoint that waited for them can be built.
    arrived = Signal(str)
    #: A sentence to say: what the keyring refused, in the window's language.
    refused = Signal(str)

    def __init__(self, keeper: SecretKeeper, spawn: Callable[[Work], None],
                 accounts: Callable[[str], tuple[str, Iterable[str]]], parent: QObject | None = None) -> None:
        """``accounts(key)``: the server's name and the accounts its settings say are kept."""
        super().__init__(parent)
        self._keeper = keeper
        self._spawn = spawn
        self._accounts = accounts
        self._values: dict[Entry, str | None] = {}
        self._reading: set[str] = set()
        #: Servers whose secrets the keyring would not give: its answer.
        self._unreadable: dict[str, str] = {}
        self._names: dict[str, str] = {}
        self._batch: _Batch | None = None
        # Asking a keyring keeper whether it is available looks for the keyring: only on the worker.
        self._available: bool | None = False if getattr(type(keeper), "available", None) is False else None
        self._lock: asyncio.Lock | None = None
        self._waiting: dict[str, list[Callable[[], None]]] = {}
        #: Batches wait (see :meth:`hold`).
        self._held = False
        #: Batches handed to the worker and not back yet.
        self._sent: list[_Batch] = []
        self._crossing = _Crossing(self)
        self._crossing.done.connect(self._done, Qt.ConnectionType.QueuedConnection)

    # -- the SecretKeeper the registry uses -------------------------------------------------------------

    @property
    def available(self) -> bool:
        """Whether a keyring keeps the values (as last found on the worker; until then, assumed)."""
        return self._available is not False

    def find_keyring(self) -> None:
        """Look for the keyring on the worker (the window has painted): :attr:`available` knows."""
        if self._available is None:
            self._queue()

    #: The registry's calls never fail here (what the worker finds is said through :attr:`refused`).
    problem: str | None = None

    def save(self, server_url: str, header: str, value: str) -> bool:
        self._values[(server_url, header)] = value
        self._name(server_url)
        self._queue().writes.append(((server_url, header), value))
        return self.available

    def delete(self, server_url: str, header: str) -> bool:
        self._values[(server_url, header)] = None
        self._name(server_url)
        self._queue().writes.append(((server_url, header), None))
        return True

    def load(self, server_url: str, header: str) -> str | None:
        entry = (server_url, header)
        if entry in self._values:
            return self._values[entry]
        if self._available is False:
            return None
        if server_url in self._unreadable:
            raise InvalidServerError(Message(UNREADABLE, {"server": self._name(server_url),
                                                          "problem": self._unreadable[server_url]}))
        self.read(server_url)
        raise InvalidServerError(Message(READING, {"server": self._name(server_url)}))

    # -- reading ahead -------------------------------------------------------------------------------

    def known(self, server_url: str) -> bool:
        """Every secret the server's settings keep has been read (or there are none)."""
        return all((server_url, account) in self._values for account in self._accounts(server_url)[1])

    def unreadable(self, server_url: str) -> str | None:
        """What the keyring answered when the server's secrets were to be read (``None``: no refusal)."""
        return self._unreadable.get(server_url)

    def read(self, *servers: str, retry: bool = False) -> None:
        """Read what the servers keep from the keyring, on the worker (``retry``: also those it would
        not give before, the keyring perhaps unlocked since)."""
        for url in servers:
            if retry:
                self._unreadable.pop(url, None)
            if url in self._reading or url in self._unreadable:
                continue
            missing = [(url, account) for account in self._accounts(url)[1] if (url, account) not in self._values]
            if missing:
                self._reading.add(url)
                self._queue().reads.extend(missing)

    def when_read(self, server_url: str, then: Callable[[], None]) -> None:
        """Call ``then`` once the server's secrets are read (at once if they are) or could not be."""
        if self.known(server_url) or server_url in self._unreadable or self._available is False:
            then()
            return
        self._waiting.setdefault(server_url, []).append(then)
        self.read(server_url)

    def hold(self) -> None:
        """Keep what is asked of the keyring waiting until :meth:`release` (the window's first paint
        does not share the interpreter with the keyring's loading)."""
        self._held = True

    def release(self) -> None:
        self._held = False
        self._send()

    # -- the worker ---------------------------------------------------------------------------------------

    def _name(self, url: str) -> str:
        if url not in self._names:
            self._names[url] = self._accounts(url)[0]
        return self._names[url]

    def _queue(self) -> _Batch:
        """The batch the next turn of the GUI thread's loop hands to the worker."""
        if self._batch is None:
            self._batch = _Batch()
            QTimer.singleShot(0, self._send)
        return self._batch

    def _send(self) -> None:
        if self._held:
            return
        batch, self._batch = self._batch, None
        if batch is None:
            return
        keeper, crossing = self._keeper, self._crossing
        self._sent.append(batch)

        async def run() -> None:
            if self._lock is None:
                self._lock = asyncio.Lock()  # made on the worker's loop: batches one at a time, in order
            async with self._lock:
                batch.begun = True
                try:
                    await asyncio.to_thread(_work, keeper, batch)
                finally:
                    try:
                        crossing.done.emit(batch)
                    except RuntimeError:  # the window went while the keyring answered
                        pass

        self._spawn(run)

    def finish_writes(self) -> None:
        """The window closes and its worker has stopped: the saves and deletes it never began are
        made now (the window is hidden; a secret saved just before closing is not lost)."""
        left = [batch for batch in self._sent if not batch.begun]
        if self._batch is not None:
            left.append(self._batch)
        self._sent, self._batch = [], None
        for batch in left:
            if batch.writes:
                _work(self._keeper, _Batch(writes=batch.writes))

    def _done(self, batch: _Batch) -> None:
        if batch in self._sent:
            self._sent.remove(batch)
        self._available = batch.available
        for entry, value in batch.found.items():
            self._values.setdefault(entry, value)  # a value saved or deleted since is the newer
        for (url, _account), action, answer in batch.refused:
            if action == "read":
                self._unreadable.setdefault(url, answer)
        read = {url for url, _account in batch.reads}
        self._reading -= read
        self._say(batch)
        for url in sorted(read):
            for then in self._waiting.pop(url, []):
                then()
            self.arrived.emit(url)

    def _say(self, batch: _Batch) -> None:
        """One sentence per server and kind of refusal (a save's three headers are said together), all
        said at once."""
        said: dict[tuple[str, str, str], list[str]] = {}
        for (url, account), action, answer in batch.refused:
            if action != "read":
                said.setdefault((url, action, answer), []).append(account)
        if said:  # one status line for the batch: a sentence after another would hide it
            self.refused.emit(" ".join(translate(refused_message(action, self._name(url), url, accounts, answer))
                                       for (url, action, answer), accounts in said.items()))


def _work(keeper: SecretKeeper, batch: _Batch) -> None:
    """On a worker thread: the batch's writes, then its reads, in order."""
    batch.available = bool(keeper.available)
    if not batch.available:
        batch.found.update({entry: None for entry in batch.reads})
        return
    for entry, value in batch.writes:
        done = keeper.save(*entry, value) if value is not None else keeper.delete(*entry)
        if not done:
            batch.refused.append((entry, "keep" if value is not None else "remove",
                                  getattr(keeper, "problem", None) or "?"))
    for entry in batch.reads:
        value = keeper.load(*entry)
        answer = getattr(keeper, "problem", None)
        if answer is not None:
            batch.refused.append((entry, "read", answer))
        else:
            batch.found[entry] = value


__all__ = ["WindowSecrets"]
