"""A collector's address an earlier version saved with its query (``team/push_endpoint`` =
``http://host:4318/v1/traces?api_key=KEY``): the key stayed in clear in the settings file until File › Settings…
was opened and OK pressed, and the keyring's entries of the push headers (with the sentences naming them) were
named by the address with it.

When the window first reads the setting, the query and the push headers' secrets are kept in the keyring under
the address without it, on the keyring's line (never on the GUI thread); once the keyring has kept them all, the
settings say the address without the query (``team/push_query``: one is kept) and the old entries go. A keyring
that is missing, or refuses one of them, leaves the settings as they were (the entries it took go again).

The trace query service's address (``team/query_url``, File › Open trace by id… and Settings) likewise: its query
is kept in the keyring's entry for it, and the settings say the address without it (``team/query_secret``).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Qt, Signal

from inspector.mcp.address_query import address_query, without_query
from inspector.store.keyring_entries import QUERY_ACCOUNT
from inspector.store.keyring_words import TRACE_QUERY_KEY
from inspector.store.secrets import SecretKeeper

from .team_settings import TeamSettings, keyring_key
from .workbench.keyring_line import KeyringLine


class _Crossing(QObject):
    done = Signal(bool)


class QueryMove(QObject):
    """Moves the query of the collector's address (:meth:`start`) and of the trace query service's
    (:meth:`start_service`) to the keyring, once a session each."""

    def __init__(self, team: TeamSettings, keeper: SecretKeeper, line: KeyringLine,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._team = team
        self._keeper = keeper
        self._line = line
        self._tried: set[str] = set()

    def start(self, then: Callable[[], None]) -> bool:
        """Move the query of the collector's address, if it has one and no move was tried yet: ``then`` is called
        on the GUI thread once it is moved, or not. False: nothing to move (``then`` is not called)."""
        endpoint = self._team.push_endpoint
        query = address_query(endpoint)
        if "push" in self._tried or query is None:
            return False
        self._tried.add("push")
        bare = without_query(endpoint)
        old, new = keyring_key(endpoint), keyring_key(bare)
        accounts = sorted(self._team.secret_names() - {QUERY_ACCOUNT})
        keeper = self._keeper

        def kept() -> None:
            if self._team.push_endpoint == endpoint:  # not changed in Settings meanwhile
                self._team.qsettings.setValue("team/push_endpoint", bare)
                self._team.qsettings.setValue("team/push_query", True)
                self._line.send(lambda: [keeper.delete(old, account) for account in accounts])

        self._move(old, new, query, accounts, kept, then)
        return True

    def start_service(self) -> bool:
        """Move the query of the trace query service's address (File › Open trace by id…, Settings), if it has one
        and no move was tried yet: an earlier version kept it in clear in the settings file until one of them was
        accepted. False: nothing to move."""
        url = self._team.query_url
        query = address_query(url)
        if "service" in self._tried or query is None:
            return False
        self._tried.add("service")

        def kept() -> None:
            if self._team.query_url == url:  # not changed in Settings meanwhile
                self._team.qsettings.setValue("team/query_url", without_query(url))
                self._team.qsettings.setValue("team/query_secret", True)

        self._move(TRACE_QUERY_KEY, TRACE_QUERY_KEY, query, [], kept, lambda: None)
        return True

    def _move(self, old: str, new: str, query: str, accounts: list[str], kept: Callable[[], None],
              then: Callable[[], None]) -> None:
        """On the keyring's line, the query and the secrets of ``accounts`` under ``old`` kept under ``new``;
        back on the GUI thread ``kept`` (the settings say so) once they all are, then ``then``."""
        keeper, crossing = self._keeper, _Crossing(self)

        def moved(done: bool) -> None:
            crossing.done.disconnect(moved)
            if done:
                kept()
                self._team.qsettings.sync()
            then()

        def move() -> None:
            done = _kept_anew(keeper, old, new, query, accounts)
            try:
                crossing.done.emit(done)
            except RuntimeError:  # the window went while the keyring answered
                pass

        crossing.done.connect(moved, Qt.ConnectionType.QueuedConnection)
        self._line.send(move)


def _kept_anew(keeper: SecretKeeper, old: str, new: str, query: str, accounts: list[str]) -> bool:
    """On the keyring's line: the query and the secrets of ``accounts`` kept under ``old`` kept under ``new`` too;
    False (and nothing kept under ``new``) when the keyring is missing or refused one."""
    if not keeper.available:
        return False
    values = {QUERY_ACCOUNT: query}
    for account in accounts:
        value = keeper.load(old, account)
        if getattr(keeper, "problem", None) is not None:
            return False
        if value is not None:
            values[account] = value
    kept: list[str] = []
    for account, value in values.items():
        if not keeper.save(new, account, value):
            for written in kept:
                keeper.delete(new, written)
            return False
        kept.append(account)
    return True


__all__ = ["QueryMove"]
