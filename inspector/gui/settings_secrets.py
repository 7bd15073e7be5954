"""The secrets the window's settings keep in the system keyring, asked on the keyring's line as the
servers' are (:class:`~.workbench.window_secrets.WindowSecrets`): the team push headers' values
(File › Settings…) and the Play tab's model API keys. Nothing here waits on the keyring on the GUI
thread; what it refuses is said in the window's keyring box, in the reader's language.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QSettings

from inspector.mcp.address_query import without_query
from inspector.store.keyring_entries import QUERY_ACCOUNT
from inspector.store.keyring_words import TRACE_QUERY_KEY, model_key_refusal, push_header_refusal
from inspector.store.secrets import MODEL_KEY_ACCOUNT, SecretKeeper

from .team_settings import TeamSettings
from .workbench.keyring_line import KeyringLine
from .workbench.window_secrets import WindowSecrets


class SettingsSecrets(QObject):
    """``push``: the team push headers' keeper (a key per collector address, and one for the trace query
    service's query); ``model``: the model
    keys' (a key per completions address, the account ``api-key``)."""

    def __init__(self, keeper: SecretKeeper, line: KeyringLine, qsettings: QSettings, say: Callable[[str], None],
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._team = TeamSettings(qsettings, keeper)
        self.push = WindowSecrets(keeper, line, self._push_accounts, self, refusal=push_header_refusal)
        self.model = WindowSecrets(keeper, line, lambda place: (place, {MODEL_KEY_ACCOUNT}), self,
                                   refusal=model_key_refusal)
        for kept in (self.push, self.model):
            kept.refused.connect(say)

    def _push_accounts(self, key: str) -> tuple[str, set[str]]:
        """The collector's address and the push headers kept as secrets (those the settings name now); or
        the trace query service's address and its query, when one is kept."""
        if key == TRACE_QUERY_KEY:
            return self._team.query_url or key, {QUERY_ACCOUNT} if self._team.query_secret_kept else set()
        # Named without a query an earlier version saved in the address (its entries' key has it until it moves).
        return without_query(key.split(" ", 1)[-1]), self._team.secret_names()

    def keepers(self) -> list[WindowSecrets]:
        return [self.push, self.model]


__all__ = ["SettingsSecrets"]
