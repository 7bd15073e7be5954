"""The window's secret keeper: what the keyring keeps for the configured servers (secret headers, a
command's secret variables, an address's query; the team's push headers, the Play tab's model
key), read and written on the window's line to the keyring (:class:`~.keyring_line.KeyringLine`).

A keyring call can wait seconds (a locked Secret Service shows its unlock prompt, a slow D-Bus) or
fail: on the GUI thread that froze the window (a second per entry at startup, on Edit…, on OK, on
Remove). Here the GUI thread only ever asks memory. Saves and deletes are noted at once and made
on the line, in order, one batch per burst; reads fill the memory and are said back
(:attr:`WindowSecrets.arrived`). A value asked for before it is read raises
:class:`~inspector.mcp.InvalidServerError` saying so (an endpoint is not built without its
secrets); what the keyring refused is said, naming its answer (:attr:`WindowSecrets.problem`): a
value it did not keep lasts until the window closes, one it did not remove stays in it. When the
window closes, the saves and deletes still queued are made (:meth:`WindowSecrets.close`, then
:meth:`KeyringLine.finish`, bounded); what was still not written is said (:meth:`WindowSecrets.unwritten`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import partial

from PySide6.QtCore import QObject, Qt, QTimer, Signal

from inspector.i18n import N_
from inspector.i18n.entry_names import kept_name
from inspector.i18n.messages import translate
from inspector.mcp import InvalidServerError
from inspector.mcp.messages import Message
from inspector.store.keyring_words import READING, UNREADABLE, refused_message
from inspector.store.secrets import SecretKeeper

from .keyring_line import KeyringLine

#: A read shorter than this is not said: the window shows the server being connected meanwhile (an
#: instant keyring's read took ~30 ms at every start, and "Reading the secrets…" flashed for it).
SLOW_READ_S = 0.5
#: When a read still waits to be handed to the line (the first paint holds it): not begun.
_NOT_SENT = float("inf")
#: What is said of a server whose secrets are being read, until the read is slow.
CONNECTING = N_("Connecting to {server}…")


class SecretsPending(InvalidServerError):
    """The server's secrets are being read, not for long yet: it is said to be connected
    (``sentence``); :attr:`reading` says what it waits for, to a user who asked for something."""

    def __init__(self, server: str) -> None:
        super().__init__(Message(CONNECTING, {"server": server}))
        self.reading = Message(READING, {"server": server})


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
    #: How many of the writes the keyring has answered.
    written: int = 0


class _Crossing(QObject):
    done = Signal(object)


class WindowSecrets(QObject):
    """A :class:`SecretKeeper` for the window's registry that never waits on the keyring."""

    #: The secrets of a server were read (its key): an endpoint that waited for them can be built.
    arrived = Signal(str)
    #: A sentence to say: what the keyring refused, in the window's language.
    refused = Signal(str)
    #: The secrets of a server (its key) are still being read after :data:`SLOW_READ_S`: now it is said.
    slow = Signal(str)

    def __init__(self, keeper: SecretKeeper, line: KeyringLine,
                 accounts: Callable[[str], tuple[str, Iterable[str]]], parent: QObject | None = None, *,
                 refusal: Callable[[str, str, str, list[str], str], Message] = refused_message) -> None:
        """``accounts(key)``: the server's name and the accounts its settings say are kept;
        ``refusal(action, name, key, accounts, answer)``: the sentence saying what the keyring refused."""
        super().__init__(parent)
        self._keeper = keeper
        self._line = line
        self._refusal = refusal
        self._accounts = accounts
        self._values: dict[Entry, str | None] = {}
        #: Servers whose secrets are being read: when the read was handed to the line (``time.monotonic()``).
        self._reading: dict[str, float] = {}
        #: Servers whose secrets the keyring would not give: its answer.
        self._unreadable: dict[str, str] = {}
        self._names: dict[str, str] = {}
        self._batch: _Batch | None = None
        # Asking a keyring keeper whether it is available looks for the keyring: only on the worker.
        self._available: bool | None = False if getattr(type(keeper), "available", None) is False else None
        self._waiting: dict[str, list[Callable[[], None]]] = {}
        #: Batches wait (see :meth:`hold`).
        self._held = False
        #: Batches handed to the line and not back yet.
        self._sent: list[_Batch] = []
        #: The window closes: queued reads are not made, nothing more is said.
        self._closing = False
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

    def remembered(self, server_url: str, header: str) -> str | None:
        """The value as read or saved (``None``: none, or not read yet: see :meth:`known`)."""
        return self._values.get((server_url, header))

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
        if time.monotonic() - self._reading.get(server_url, 0.0) < SLOW_READ_S:
            raise SecretsPending(self._name(server_url))
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
                self._reading[url] = _NOT_SENT
                self._queue().reads.extend(missing)

    def _slow(self, url: str) -> None:
        if self._closing or url not in self._reading:
            return
        left_s = self._reading[url] + SLOW_READ_S - time.monotonic()
        if left_s > 0:  # a coarse timer may fire up to 5 % early
            self._slow_soon(url, left_s)
        else:
            self.slow.emit(url)

    def _slow_soon(self, url: str, after_s: float) -> None:
        QTimer.singleShot(int(after_s * 1000) + 1, self, partial(self._slow, url))

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
        """The server's name as a sentence says it (the demo entry's in the language said in), kept once known
        (a server removed is still named by it). A server saved anew is not configured yet when its secrets are:
        named by its key until it is (an import named its servers by their addresses)."""
        if url not in self._names:
            name = self._accounts(url)[0]
            if name == url:
                return name
            self._names[url] = name
        return kept_name(self._names[url], url)

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
        for url in {url for url, _account in batch.reads}:  # the read's time counts from here
            self._reading[url] = time.monotonic()
            self._slow_soon(url, SLOW_READ_S)

        def run() -> None:
            try:
                _work(keeper, batch, lambda: self._closing)
            finally:
                try:
                    crossing.done.emit(batch)
                except RuntimeError:  # the window went while the keyring answered
                    pass

        self._line.send(run)

    def close(self) -> None:
        """The window closes: what waits is handed to the line (the saves and deletes are made, the
        reads no longer), and nothing more is said. :meth:`KeyringLine.finish` waits for it."""
        self._closing, self._held = True, False
        self._send()

    def unwritten(self) -> list[tuple[str, list[str], str | None]]:
        """After :meth:`close`: the saves and deletes the keyring refused or has not answered, (the
        name of the server or place, its accounts, the keyring's answer or ``None``: none yet)."""
        left: dict[tuple[str, str | None], list[str]] = {}
        for batch in self._sent:
            for (url, account), action, answer in list(batch.refused):
                if action != "read":
                    left.setdefault((self._name(url), answer), []).append(account)
            for (url, account), _value in batch.writes[batch.written:]:
                left.setdefault((self._name(url), None), []).append(account)
        return [(name, accounts, answer) for (name, answer), accounts in left.items()]

    def _done(self, batch: _Batch) -> None:
        if self._closing:
            return
        if batch in self._sent:
            self._sent.remove(batch)
        self._available = batch.available
        for entry, value in batch.found.items():
            self._values.setdefault(entry, value)  # a value saved or deleted since is the newer
        for (url, _account), action, answer in batch.refused:
            if action == "read":
                self._unreadable.setdefault(url, answer)
        read = {url for url, _account in batch.reads}
        for url in read:
            self._reading.pop(url, None)
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
            self.refused.emit(" ".join(translate(self._refusal(action, self._name(url), url, accounts, answer))
                                       for (url, action, answer), accounts in said.items()))


def _work(keeper: SecretKeeper, batch: _Batch, closing: Callable[[], bool]) -> None:
    """On the line's thread: the batch's writes, then its reads (none once the window closes), in order."""
    batch.available = bool(keeper.available)
    if not batch.available:
        batch.found.update({entry: None for entry in batch.reads})
        batch.written = len(batch.writes)  # nothing to write to: kept for the session, as said
        return
    for entry, value in batch.writes:
        done = keeper.save(*entry, value) if value is not None else keeper.delete(*entry)
        batch.written += 1
        if not done:
            batch.refused.append((entry, "keep" if value is not None else "remove",
                                  getattr(keeper, "problem", None) or "?"))
    for entry in batch.reads:
        if closing():
            return
        value = keeper.load(*entry)
        answer = getattr(keeper, "problem", None)
        if answer is not None:
            batch.refused.append((entry, "read", answer))
        else:
            batch.found[entry] = value


__all__ = ["SLOW_READ_S", "SecretsPending", "WindowSecrets"]
