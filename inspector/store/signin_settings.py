"""How each configured server is set up for signing in, kept with the server (schema 7).

The database holds what is not secret: a pre-registered client's id and how it authenticates, a
client metadata document's address, the grant, the scope, and the PATH of a signed-JWT client's
key file. A pre-registered client's secret goes to the vault (the keyring:
``signin client-secret <server url>``); the database only says that one is kept there.
"""

from __future__ import annotations

import os
import sqlite3
import stat
from dataclasses import dataclass, replace
from ipaddress import ip_address
from pathlib import Path
from urllib.parse import urlsplit

from inspector.i18n import N_
from inspector.i18n.messages import Message
from inspector.i18n.os_reasons import os_reason
from inspector.mcp.signin.model import AUTH_METHODS, SignInSettings

from .errors import StoreError
from .signin_vault import ProcessVault, SignInKeeper
from .transactions import rollback

#: The grants a server can be set up for (schema 7's CHECK): the others (``jwt-bearer``,
#: ``enterprise``) present an assertion given to the process, never kept with the server.
STORED_GRANTS = ("authorization-code", "client-credentials")
#: The largest key file read (a PEM private key is a few kilobytes).
MAX_KEY_FILE_BYTES = 64 * 1024
_TEXT_FIELDS = ("client_id", "auth_method", "client_metadata_url", "grant", "scope", "client_key_file")
_COLUMNS = ("signin_client_id", "signin_auth_method", "signin_metadata_url", "signin_grant", "signin_scope",
            "signin_key_file", "signin_secret_kept")


class ClientKeyError(StoreError):
    """A client key file cannot be used; the sentence names the file and why (never its contents)."""


@dataclass(frozen=True)
class SignInSetup:
    """A server's sign-in settings as kept: nothing secret. ``None``: not set (discovery decides;
    the grant is then ``authorization-code``). ``client_secret_kept``: a secret for ``client_id``
    is kept in the keyring."""

    client_id: str | None = None
    auth_method: str | None = None
    client_metadata_url: str | None = None
    grant: str | None = None
    scope: str | None = None
    client_key_file: str | None = None
    client_secret_kept: bool = False

    def __post_init__(self) -> None:
        if self.grant and self.grant not in STORED_GRANTS:  # "" clears it (StoredSignIn.save)
            raise ValueError(f"grant must be one of {STORED_GRANTS}")
        if self.auth_method and self.auth_method not in AUTH_METHODS:
            raise ValueError(f"auth_method must be one of {AUTH_METHODS}")

    @property
    def configured(self) -> bool:
        return any((self.client_id, self.auth_method, self.client_metadata_url, self.grant, self.scope,
                    self.client_key_file, self.client_secret_kept))

    def updated_by(self, new: SignInSetup) -> SignInSetup:
        """``new`` over these settings: a field ``None`` in ``new`` keeps this one's, an empty text clears it."""
        values = {name: getattr(self, name) if getattr(new, name) is None else getattr(new, name) or None
                  for name in _TEXT_FIELDS}
        return replace(self, **values)

    def to_dict(self) -> dict[str, object]:
        """As listed (``servers --json``): the secret by whether it is kept, never its value."""
        return {"client_id": self.client_id, "auth_method": self.auth_method,
                "client_metadata_url": self.client_metadata_url, "grant": self.grant, "scope": self.scope,
                "client_key_file": self.client_key_file, "client_secret_kept": self.client_secret_kept}


class StoredSignIn:
    """Sign-in settings per server in the run database (``db``: a ``Database`` or
    ``RunStore``), the client secrets in ``vault`` (default: one that keeps them for this process)."""

    def __init__(self, db: object, vault: SignInKeeper | None = None) -> None:
        inner = getattr(db, "db", db)  # a RunStore holds its Database as .db
        self._conn: sqlite3.Connection = getattr(inner, "conn", inner)  # type: ignore[assignment]
        self.vault: SignInKeeper = vault if vault is not None else ProcessVault()

    def save(self, url: str, setup: SignInSetup, *, client_secret: str | None = None,
             replace_all: bool = False) -> bool:
        """Keep ``setup`` for the server ``url`` (added if it is not configured yet).

        Without ``replace_all`` (``servers set``) a field left ``None`` keeps its stored value and an
        empty text clears it; with it (an edit in the window) the server has exactly ``setup``. A
        ``client_secret`` goes to the vault and replaces a kept one; with ``replace_all`` and none
        given, a kept one stays only if ``setup.client_secret_kept`` says so. Returns False when a
        secret was given and will not outlive this process (no usable keyring)."""
        kept = bool(self.vault.keep_client_secret(url, client_secret)) if client_secret else True
        own = not self._conn.in_transaction
        if own:
            self._conn.execute("BEGIN IMMEDIATE")
        try:
            old = self.setup(url) or SignInSetup()
            merged = SignInSetup().updated_by(setup) if replace_all else old.updated_by(setup)
            if client_secret:
                flag = kept
            else:
                flag = setup.client_secret_kept if replace_all else old.client_secret_kept
            merged = replace(merged, client_secret_kept=flag)
            self._conn.execute(
                f"INSERT INTO servers (url, {', '.join(_COLUMNS)}) VALUES ({', '.join('?' * (len(_COLUMNS) + 1))})"
                f" ON CONFLICT(url) DO UPDATE SET {', '.join(f'{c} = excluded.{c}' for c in _COLUMNS)}",
                (url, merged.client_id, merged.auth_method, merged.client_metadata_url, merged.grant, merged.scope,
                 merged.client_key_file, int(merged.client_secret_kept)))
        except BaseException:
            if own:
                rollback(self._conn)
            raise
        if own:
            self._conn.execute("COMMIT")
        if replace_all and not client_secret and not setup.client_secret_kept:
            self.vault.forget_client_secret(url)
        return kept

    def setup(self, url: str) -> SignInSetup | None:
        """The settings kept for ``url``; ``None`` when the server is not configured, or the
        database is older than schema 7 (read without upgrading: ``--no-store``)."""
        try:
            row = self._conn.execute(f"SELECT {', '.join(_COLUMNS)} FROM servers WHERE url = ?", (url,)).fetchone()
        except sqlite3.OperationalError:
            return None
        return _setup(row) if row is not None else None

    def all(self) -> dict[str, SignInSetup]:
        """Every configured server's settings that say anything, by server url."""
        try:
            rows = self._conn.execute(f"SELECT url, {', '.join(_COLUMNS)} FROM servers ORDER BY url").fetchall()
        except sqlite3.OperationalError:
            return {}
        found = {row[0]: _setup(row[1:]) for row in rows}
        return {url: setup for url, setup in found.items() if setup.configured}

    def settings_for(self, url: str) -> SignInSettings | None:
        """What the sign-in uses for ``url``: the kept settings with the client secret from the vault
        and the key file read. ``None`` when nothing is set. Raises :class:`ClientKeyError` when
        the key file cannot be read."""
        setup = self.setup(url)
        if setup is None or not setup.configured:
            return None
        # Asked of the vault even when the database says none is kept: without a keyring, the
        # window's session keeps one given in it.
        secret = self.vault.client_secret(url) if setup.client_id else None
        key = read_client_key(setup.client_key_file) if setup.client_key_file else None
        return SignInSettings(setup.client_id, secret, setup.auth_method, setup.client_metadata_url,
                              setup.grant or "authorization-code", key, setup.scope)

    def forget(self, url: str) -> None:
        """The server's sign-in settings go, and its client secret with them (``servers remove``)."""
        self.vault.forget_client_secret(url)
        try:
            self._write(f"UPDATE servers SET {', '.join(f'{c} = NULL' for c in _COLUMNS[:-1])},"
                        " signin_secret_kept = 0 WHERE url = ?", (url,))
        except sqlite3.OperationalError:  # older than schema 7: nothing was kept
            pass

    def _write(self, sql: str, params: tuple[object, ...]) -> None:
        own = not self._conn.in_transaction
        if own:
            self._conn.execute("BEGIN IMMEDIATE")
        try:
            self._conn.execute(sql, params)
        except BaseException:
            if own:
                rollback(self._conn)
            raise
        if own:
            self._conn.execute("COMMIT")


def _setup(row: tuple[object, ...]) -> SignInSetup:
    texts = [value if isinstance(value, str) and value else None for value in row[:6]]
    # A value the CHECK constraints refuse (written by hand before them, or by another program) is not set.
    method = texts[1] if texts[1] in AUTH_METHODS else None
    grant = texts[3] if texts[3] in STORED_GRANTS else None
    return SignInSetup(texts[0], method, texts[2], grant, texts[4], texts[5], row[6] == 1)


def overridden(stored: SignInSettings | None, given: SignInSettings | None, *,
               grant_given: bool) -> SignInSettings | None:
    """A configured server's settings (``stored``, from :meth:`StoredSignIn.settings_for`) with what
    the command line gave (``given``) winning field by field; ``grant_given`` says whether the command
    line named the grant (``SignInSettings`` always has one)."""
    if stored is None or given is None:
        return given if stored is None else stored
    values = {name: getattr(given, name) for name in ("client_id", "client_secret", "auth_method",
                                                      "client_metadata_url", "client_key_pem", "scope",
                                                      "assertion", "idp_token_endpoint", "idp_client_id")
              if getattr(given, name) is not None}
    if grant_given:
        values["grant"] = given.grant
    if given.client_id is not None and given.client_id != stored.client_id and given.client_secret is None:
        values["client_secret"] = None  # the kept secret is another client's
    return replace(stored, **values)


#: What a set of sign-in settings lacks (:func:`setup_problems`); each user interface says it in its own words.
GRANT_NEEDS_CLIENT_ID = "grant-needs-client-id"
KEY_METHOD_NEEDS_KEY = "key-method-needs-key"


def setup_problems(setup: SignInSetup) -> list[str]:
    """What keeps ``setup`` (as it would be kept: merged) from signing in: :data:`GRANT_NEEDS_CLIENT_ID`
    (a machine client signs in as a client it was given), :data:`KEY_METHOD_NEEDS_KEY`
    (``private_key_jwt`` signs with a key file). Empty: usable."""
    problems = []
    if setup.grant == "client-credentials" and not setup.client_id:
        problems.append(GRANT_NEEDS_CLIENT_ID)
    if setup.auth_method == "private_key_jwt" and not setup.client_key_file:
        problems.append(KEY_METHOD_NEEDS_KEY)
    return problems


def metadata_url_acceptable(url: str) -> bool:
    """Whether ``url`` can be a client metadata document's address (and so the client id): an https
    address with a host and a path; http only on this machine (a loopback address, for testing)."""
    try:
        parts = urlsplit(url)
        host = parts.hostname
    except ValueError:
        return False
    if not host or parts.path in ("", "/") or any(char.isspace() for char in url):
        return False
    if parts.scheme == "https":
        return True
    return parts.scheme == "http" and _loopback(host)


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ip_address(host).is_loopback
    except ValueError:
        return False


def read_client_key(path: str | os.PathLike[str]) -> str:
    """The PEM private key in the file at ``path`` (``--client-key FILE``), read bounded.

    Raises :class:`ClientKeyError` naming the file when it cannot be read or holds no PEM private key."""
    path = Path(path)
    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):
            raise ClientKeyError(Message(N_("The client key {path} is not a regular file."), {"path": path}))
        with open(path, "rb") as handle:
            data = handle.read(MAX_KEY_FILE_BYTES + 1)
    except OSError as error:
        raise ClientKeyError(Message(N_("The client key {path} cannot be read: {reason}."),
                                     {"path": path, "reason": os_reason(error)})) from None
    text = data.decode("ascii", errors="replace")
    if len(data) > MAX_KEY_FILE_BYTES or "-----BEGIN" not in text or "PRIVATE KEY-----" not in text:
        raise ClientKeyError(Message(N_("The client key {path} holds no PEM private key (-----BEGIN ... PRIVATE "
                                        "KEY-----)."), {"path": path}))
    return text


__all__ = ["GRANT_NEEDS_CLIENT_ID", "KEY_METHOD_NEEDS_KEY", "MAX_KEY_FILE_BYTES", "STORED_GRANTS", "ClientKeyError",
           "SignInSetup", "StoredSignIn", "metadata_url_acceptable", "overridden", "read_client_key", "setup_problems"]
