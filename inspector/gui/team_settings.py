"""The team's OpenTelemetry backend in the settings: where finished runs are pushed (a collector's
OTLP/HTTP address and its headers), and where a trace is pulled from by id (a Jaeger or Tempo
query address).

Header values marked secret go to the system keyring (or, without one, stay in memory until the
window closes), never into the settings file, as a server's secret headers do.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime

from PySide6.QtCore import QSettings

from inspector.runs.times import from_stored_time, to_stored_time, utc_now
from inspector.store.secrets import SecretKeeper

#: The keyring entry of a push header is named by this and the collector's address.
KEYRING_PREFIX = "otlp-push"
BACKENDS = ("jaeger", "tempo")

#: Secret header values no keyring could keep: for this session only.
_session_secrets: dict[tuple[str, str], str] = {}


@dataclass(frozen=True)
class PushSetting:
    """What the push worker needs: on or off, where to, with which headers, for runs since when."""

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
        return str(self.qsettings.value("team/push", "false")).lower() in ("1", "true")

    @property
    def push_endpoint(self) -> str:
        return str(self.qsettings.value("team/push_endpoint", "") or "")

    @property
    def push_key(self) -> str:
        """The keyring entries' name of the push headers' secrets (beside each header's name)."""
        return keyring_key(self.push_endpoint)

    def secret_names(self) -> set[str]:
        """The names of the push headers whose values are secrets."""
        return {name for name, _value, secret in _stored_rows(self.qsettings.value("team/push_headers", "[]"))
                if secret}

    def header_rows(self) -> list[tuple[str, str | None, bool]]:
        """The headers as the dialog shows them: (name, value, secret); a secret's value from the keyring
        (``None``: the window's keeper has not read it, or the keyring would not give it)."""
        from inspector.mcp import InvalidServerError

        endpoint = self.push_endpoint
        rows: list[tuple[str, str | None, bool]] = []
        for name, value, secret in _stored_rows(self.qsettings.value("team/push_headers", "[]")):
            if secret:
                try:
                    kept = self.secrets.load(keyring_key(endpoint), name)
                except InvalidServerError:  # being read on the keyring's line, or refused
                    rows.append((name, _session_secrets.get((endpoint, name)), secret))
                    continue
                value = kept or _session_secrets.get((endpoint, name), "")
            rows.append((name, value, secret))
        return rows

    def save_push(self, enabled: bool, endpoint: str, rows: list[tuple[str, str | None, bool]]) -> None:
        """Store the push setting; secret values to the keyring (else this session), never to the file.
        A secret whose value is ``None`` (not read from the keyring) is left in the keyring as it is."""
        stored = []
        for name, value, secret in rows:
            if secret:
                if value is not None and not self.secrets.save(keyring_key(endpoint), name, value):
                    _session_secrets[(endpoint, name)] = value
                stored.append([name, "", True])
            else:
                stored.append([name, value or "", False])
        if enabled and (not self.push_enabled or endpoint != self.push_endpoint):
            # Runs that finish from now on are pushed: turning it on does not send the whole history.
            self.qsettings.setValue("team/push_since", to_stored_time(utc_now()))
        self.qsettings.setValue("team/push", bool(enabled))
        self.qsettings.setValue("team/push_endpoint", endpoint)
        self.qsettings.setValue("team/push_headers", json.dumps(stored))

    def push_setting(self) -> PushSetting:
        since = from_stored_time(str(self.qsettings.value("team/push_since", "") or ""))
        headers = {name: value for name, value, _secret in self.header_rows() if name and value is not None}
        return PushSetting(self.push_enabled and bool(self.push_endpoint), self.push_endpoint, headers, since)

    # -- pull ------------------------------------------------------------------------------------

    @property
    def query_backend(self) -> str:
        value = str(self.qsettings.value("team/query_backend", "jaeger") or "jaeger")
        return value if value in BACKENDS else "jaeger"

    @property
    def query_url(self) -> str:
        return str(self.qsettings.value("team/query_url", "") or "")

    def save_query(self, backend: str, url: str) -> None:
        self.qsettings.setValue("team/query_backend", backend if backend in BACKENDS else "jaeger")
        self.qsettings.setValue("team/query_url", url)


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
