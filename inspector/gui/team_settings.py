"""The team's OpenTelemetry backend in the settings: where finished runs are pushed (a collector's
OTLP/HTTP address and its headers), and where a trace is pulled from by id (a Jaeger or Tempo
query address).

Header values marked secret, and a query in the collector's address (``?api_key=…``), go to the
system keyring (or, without one, stay in memory until the window closes), never into the settings
file, as a server's secret headers and query do.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime

from PySide6.QtCore import QSettings

from inspector.mcp.address_query import with_query, without_query
from inspector.runs.times import from_stored_time, to_stored_time, utc_now
from inspector.store.keyring_entries import QUERY_ACCOUNT
from inspector.store.keyring_words import TRACE_QUERY_KEY
from inspector.store.secrets import SecretKeeper

#: The keyring entry of a push header is named by this and the collector's address.
KEYRING_PREFIX = "otlp-push"
BACKENDS = ("jaeger", "tempo")

#: Secret values no keyring could keep (by keyring key and account): for this session only.
_session_secrets: dict[tuple[str, str], str] = {}


@dataclass(frozen=True)
class PushSetting:
    """What the push worker needs: on or off, where to (with the secret query kept for the address), with
    which headers, for runs since when."""

    enabled: bool
    endpoint: str
    headers: dict[str, str]
    since: datetime | None


class TeamSettings:
    """Typed access to the team backend's settings (the window's QSettings and the keyring)."""

    def __init__(self, qsettings: QSettings, secrets: SecretKeeper) -> None:
        self.qsettings = qsettings
        self.secrets = secrets

    # -- push ------------------------------------------------------------------------------------

    @property
    def push_enabled(self) -> bool:
        return self._flag("team/push")

    @property
    def push_endpoint(self) -> str:
        return str(self.qsettings.value("team/push_endpoint", "") or "")

    @property
    def push_address(self) -> str:
        """The collector's address as sentences name it: without a query an earlier version saved in it."""
        return without_query(self.push_endpoint)

    @property
    def push_key(self) -> str:
        """The keyring entries' name of the push headers' secrets (beside each header's name)."""
        return keyring_key(self.push_endpoint)

    @property
    def push_query_kept(self) -> bool:
        """A query of the collector's address is kept as a secret (its value is not in the settings file)."""
        return self._flag("team/push_query")

    def secret_names(self) -> set[str]:
        """The names of the push headers whose values are secrets (and :data:`QUERY_ACCOUNT` when the
        address's query is kept)."""
        names = {name for name, _value, secret in _stored_rows(self.qsettings.value("team/push_headers", "[]"))
                 if secret}
        return names | {QUERY_ACCOUNT} if self.push_query_kept else names

    def header_rows(self) -> list[tuple[str, str | None, bool]]:
        """The headers as the dialog shows them: (name, value, secret); a secret's value from the keyring
        (``None``: the window's keeper has not read it, or the keyring would not give it)."""
        rows: list[tuple[str, str | None, bool]] = []
        for name, value, secret in _stored_rows(self.qsettings.value("team/push_headers", "[]")):
            rows.append((name, self._secret(self.push_key, name) if secret else value, secret))
        return rows

    def push_query(self) -> str | None:
        """The secret query of the collector's address: ``None`` when none is kept, or the keyring has not
        given it (see :attr:`push_query_kept`); ``""`` when nothing holds its value any more."""
        return self._secret(self.push_key, QUERY_ACCOUNT) if self.push_query_kept else None

    def _secret(self, key: str, account: str) -> str | None:
        """A secret's value from the keyring, else this session's (``None``: not read from the keyring)."""
        from inspector.mcp import InvalidServerError

        try:
            kept = self.secrets.load(key, account)
        except InvalidServerError:  # being read on the keyring's line, or refused
            return _session_secrets.get((key, account))
        return kept or _session_secrets.get((key, account), "")

    def save_push(self, enabled: bool, endpoint: str, rows: list[tuple[str, str | None, bool]],
                  query: str | None = None) -> None:
        """Store the push setting; secret values to the keyring (else this session), never to the file.
        A secret whose value is ``None`` (not read from the keyring) is left in the keyring as it is.
        ``query``: the address's secret query (``""``: the one kept, not read, left as it is)."""
        stored = []
        for name, value, secret in rows:
            if secret:
                self._keep(keyring_key(endpoint), name, value)
                stored.append([name, "", True])
            else:
                stored.append([name, value or "", False])
        self._keep_query("team/push_query", self.push_key, keyring_key(endpoint), query)
        if enabled and (not self.push_enabled or endpoint != self.push_endpoint):
            # Runs that finish from now on are pushed: turning it on does not send the whole history.
            self.qsettings.setValue("team/push_since", to_stored_time(utc_now()))
        self.qsettings.setValue("team/push", bool(enabled))
        self.qsettings.setValue("team/push_endpoint", endpoint)
        self.qsettings.setValue("team/push_headers", json.dumps(stored))

    def push_setting(self) -> PushSetting:
        since = from_stored_time(str(self.qsettings.value("team/push_since", "") or ""))
        headers = {name: value for name, value, _secret in self.header_rows() if name and value is not None}
        endpoint = with_query(self.push_endpoint, self.push_query())
        return PushSetting(self.push_enabled and bool(self.push_endpoint), endpoint, headers, since)

    # -- pull ------------------------------------------------------------------------------------

    @property
    def query_backend(self) -> str:
        value = str(self.qsettings.value("team/query_backend", "jaeger") or "jaeger")
        return value if value in BACKENDS else "jaeger"

    @property
    def query_url(self) -> str:
        return str(self.qsettings.value("team/query_url", "") or "")

    @property
    def query_secret_kept(self) -> bool:
        """A query of the trace query service's address is kept as a secret (not in the settings file)."""
        return self._flag("team/query_secret")

    def service_query(self) -> str | None:
        """The secret query of the trace query service's address: ``None`` when none is kept, or the keyring
        has not given it; ``""`` when nothing holds its value any more."""
        return self._secret(TRACE_QUERY_KEY, QUERY_ACCOUNT) if self.query_secret_kept else None

    def save_query(self, backend: str, url: str, query: str | None = None) -> None:
        """Store the query service; ``query``: its address's secret query (``""``: the one kept, not read,
        left as it is), to the keyring (else this session), never to the file."""
        self._keep_query("team/query_secret", TRACE_QUERY_KEY, TRACE_QUERY_KEY, query)
        self.qsettings.setValue("team/query_backend", backend if backend in BACKENDS else "jaeger")
        self.qsettings.setValue("team/query_url", url)

    # -- the secrets -----------------------------------------------------------------------------

    def _flag(self, name: str) -> bool:
        return str(self.qsettings.value(name, "false")).lower() in ("1", "true")

    def _keep(self, key: str, account: str, value: str | None) -> None:
        """A secret to the keyring, else to this session (``None``: not read, left as it is)."""
        if value is not None and not self.secrets.save(key, account, value):
            _session_secrets[(key, account)] = value

    def _keep_query(self, flag: str, before: str, key: str, query: str | None) -> None:
        """An address's secret query kept under ``key`` (``None``: none, and the one kept under ``before``
        leaves the keyring; ``""``: the one kept, not read, left as it is); ``flag`` says whether one is."""
        if query:
            self._keep(key, QUERY_ACCOUNT, query)
        elif query is None and self._flag(flag):
            self.secrets.delete(before, QUERY_ACCOUNT)
            _session_secrets.pop((before, QUERY_ACCOUNT), None)
        self.qsettings.setValue(flag, query is not None)


def keyring_key(endpoint: str) -> str:
    return f"{KEYRING_PREFIX} {endpoint}"


def _stored_rows(raw: object) -> list[tuple[str, str, bool]]:
    try:
        value = json.loads(str(raw or "[]"))
    except ValueError:
        return []
    rows = []
    for item in value if isinstance(value, list) else []:
        if isinstance(item, list) and len(item) == 3 and isinstance(item[0], str) and isinstance(item[1], str):
            rows.append((item[0], item[1], bool(item[2])))
    return rows


__all__ = ["BACKENDS", "PushSetting", "TeamSettings", "keyring_key"]
