"""Configured servers and their health: last contact, last latency, and counts per outcome.

Four outcomes are counted apart: ok; a tool error (the tool's own ``isError``: the server
answered, so it is a contact, but the tool failed); failed (the server or the transport failed,
including a budget the server used up); cancelled (the user's decision, never the server's
fault). Failed and cancelled operations record no contact; ok and tool errors do.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime

from inspector.i18n.entry_names import DEMO_ENTRY_NAME, demo_entry_names, is_demo_entry
from inspector.runs.times import from_stored_time, to_stored_time, utc_now

from .database import Database
from .keyring_entries import QUERY_ACCOUNT
from .secrets import NoSecretKeeper, SecretKeeper, is_secret_header
from .transactions import rollback

OPERATION_OUTCOMES = ("ok", "tool_error", "failed", "cancelled")
#: The eras a server may be configured for (as ``inspector.mcp.eras.ERAS``): ``auto`` probes.
SERVER_ERAS = ("auto", "handshake", "stateless")
#: Outcomes in which the server answered.
_CONTACT_OUTCOMES = ("ok", "tool_error")


@dataclass(frozen=True)
class HeaderSetting:
    name: str
    secret: bool
    #: The value, for a header that is not secret; ``None`` for a secret one.
    value: str | None


@dataclass(frozen=True)
class EnvSetting:
    """A variable of a command server's environment; a secret one's value lives in the keyring."""

    name: str
    secret: bool
    #: The value, for a variable that is not secret (given, or loaded from the keyring, on the way in and out).
    value: str | None


@dataclass(frozen=True)
class CommandSetting:
    """A command server's program, arguments, folder and environment."""

    program: str
    args: tuple[str, ...] = ()
    cwd: str | None = None
    env: tuple[EnvSetting, ...] = ()

    def to_dict(self) -> dict[str, object]:
        """As stored and listed: a secret variable by its name only."""
        return {"program": self.program, "args": list(self.args), "cwd": self.cwd,
                "env": [{"name": e.name, "secret": True} if e.secret else {"name": e.name, "secret": False,
                                                                           "value": e.value} for e in self.env]}

    @classmethod
    def from_dict(cls, stored: object) -> CommandSetting | None:
        if not isinstance(stored, dict) or not isinstance(stored.get("program"), str):
            return None
        args = stored.get("args")
        cwd = stored.get("cwd")
        env = stored.get("env")
        return cls(stored["program"], tuple(a for a in args if isinstance(a, str)) if isinstance(args, list) else (),
                   cwd if isinstance(cwd, str) else None,
                   tuple(EnvSetting(e["name"], bool(e.get("secret")), e.get("value") if not e.get("secret") else None)
                         for e in env if isinstance(e, dict) and isinstance(e.get("name"), str))
                   if isinstance(env, list) else ())


def is_secret_variable(name: str, marked: Iterable[str] = ()) -> bool:
    """A variable whose value is a credential: by its name (API_KEY, GITHUB_TOKEN, ...) or marked so."""
    return is_secret_header(name) or name.lower() in {item.lower() for item in marked}


@dataclass(frozen=True)
class ServerSettings:
    """What `servers set` configured for a server."""

    url: str
    name: str | None
    budget_s: float | None
    headers: tuple[HeaderSetting, ...]
    #: The roots (``file://`` URIs) the client offers this server; empty: none.
    roots: tuple[str, ...] = ()
    #: ``http`` (Streamable HTTP), ``sse`` (the older HTTP+SSE transport) or ``stdio`` (a command).
    transport: str = "http"
    command: CommandSetting | None = None
    #: Which era of MCP to speak: ``auto`` (probe, the default), ``handshake`` or ``stateless``.
    era: str = "auto"
    #: The address's query is kept as a secret (in the keyring, under :data:`QUERY_ACCOUNT`).
    secret_query: bool = False


@dataclass(frozen=True)
class ServerRecord:
    url: str
    name: str | None
    budget_s: float | None
    headers: tuple[HeaderSetting, ...]
    last_contact_at: datetime | None
    last_latency_ms: float | None
    ok_count: int
    failed_count: int
    cancelled_count: int
    tool_error_count: int = 0
    #: The roots (``file://`` URIs) the client offers this server; empty: none.
    roots: tuple[str, ...] = ()
    transport: str = "http"
    command: CommandSetting | None = None
    #: The era configured (``auto``, ``handshake``, ``stateless``), and the one ``auto`` last found
    #: the server to speak (``handshake`` or ``stateless``), with when (``None``: not known).
    era: str = "auto"
    found_era: str | None = None
    found_era_at: datetime | None = None
    #: The address's query is kept as a secret (never its value: that is in the keyring).
    secret_query: bool = False

    def to_dict(self) -> dict[str, object]:
        return {
            "url": self.url,
            "name": self.name,
            "transport": self.transport,
            "era": self.era,
            "found_era": self.found_era,
            "found_era_at": to_stored_time(self.found_era_at) or None,
            "command": self.command.to_dict() if self.command is not None else None,
            "budget_s": self.budget_s,
            "headers": [{"name": h.name, "secret": h.secret} for h in self.headers],
            "secret_query": self.secret_query,
            "roots": list(self.roots),
            "last_contact_at": to_stored_time(self.last_contact_at) or None,
            "last_latency_ms": self.last_latency_ms,
            "ok": self.ok_count,
            "tool_errors": self.tool_error_count,
            "failed": self.failed_count,
            "cancelled": self.cancelled_count,
        }


class ServerRegistry:
    """Servers and their health, in the run database."""

    def __init__(self, db: Database, secrets: SecretKeeper | None = None) -> None:
        self._conn = db.conn
        self._secrets = secrets or NoSecretKeeper()

    @property
    def secrets(self) -> SecretKeeper:
        """Where the servers' secret values are kept."""
        return self._secrets

    def save_server(self, url: str, *, name: str | None = None, budget_s: float | None = None,
                    headers: Mapping[str, str] | None = None, secret: Iterable[str] = (),
                    replace: bool = False, roots: Iterable[str] | None = None,
                    transport: str | None = None, command: CommandSetting | None = None,
                    era: str | None = None, query: str | None = None) -> None:
        """Add or update a server. Secret header values go to the keyring, never to the file.

        A header is secret when its name says so (``Authorization``, ``X-Api-Key``, ...) or
        when it is named in ``secret``. An update keeps what is not given, unless ``replace``
        (an edit in the window): then the server has exactly these settings. ``roots`` are
        ``file://`` URIs; ``None`` keeps the stored ones (none with ``replace``), ``()`` clears them.
        ``transport`` ``None`` keeps the stored one (``http`` for a new server); a ``command`` (for
        ``stdio``) replaces the stored one, its secret variables' values going to the keyring.
        ``era`` (one of :data:`SERVER_ERAS`) ``None`` keeps the stored one (``auto`` for a new server
        or with ``replace``). ``query``, the address's query, is kept as a secret (as a secret header
        is); ``None`` keeps the one kept (none with ``replace``: the one kept is removed).
        """
        if era is not None and era not in SERVER_ERAS:
            raise ValueError(f"era must be one of {SERVER_ERAS}, got {era!r}")
        before = self.settings(url)
        if command is not None:
            transport = "stdio"
            kept = []
            for variable in command.env:
                if variable.secret:
                    if variable.value is not None:
                        self._secrets.save(url, env_account(variable.name), variable.value)
                    kept.append(EnvSetting(variable.name, True, None))
                else:
                    kept.append(variable)
            command_text: str | None = json.dumps(CommandSetting(command.program, command.args, command.cwd,
                                                                 tuple(kept)).to_dict())
        else:
            command_text = None
        marked = {header.lower() for header in secret}
        settings = []
        for header, value in (headers or {}).items():
            if is_secret_header(header) or header.lower() in marked:
                self._secrets.save(url, header, value)
                settings.append({"name": header, "secret": True})
            else:
                settings.append({"name": header, "secret": False, "value": value})
        settings += self._query_marker(url, before, query, replace, bool(settings), settings)
        given_roots = None if roots is None else json.dumps(list(roots))
        if replace:
            self._write(
                "INSERT INTO servers (url, name, budget_s, headers, roots, transport, command, era)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT(url) DO UPDATE SET name = excluded.name, budget_s = excluded.budget_s,"
                " headers = excluded.headers, roots = excluded.roots, transport = excluded.transport,"
                " command = excluded.command, era = excluded.era",
                (url, name, budget_s, json.dumps(settings), given_roots or "[]", transport or "http", command_text,
                 era or "auto"))
            self._forget_dropped(url, before)
            return
        self._write(
            "INSERT INTO servers (url, name, budget_s, headers, roots, transport, command, era)"
            " VALUES (?, ?, ?, ?, COALESCE(?, '[]'), COALESCE(?, 'http'), ?, COALESCE(?, 'auto'))"
            " ON CONFLICT(url) DO UPDATE SET name = COALESCE(excluded.name, servers.name),"
            " budget_s = COALESCE(excluded.budget_s, servers.budget_s),"
            " headers = CASE WHEN excluded.headers = '[]' THEN servers.headers ELSE excluded.headers END,"
            " roots = CASE WHEN ? IS NULL THEN servers.roots ELSE excluded.roots END,"
            " transport = CASE WHEN ? IS NULL THEN servers.transport ELSE excluded.transport END,"
            " command = COALESCE(excluded.command, servers.command),"
            " era = CASE WHEN ? IS NULL THEN servers.era ELSE excluded.era END",
            (url, name, budget_s, json.dumps(settings), given_roots, transport, command_text, era, given_roots,
             transport, era))
        self._forget_dropped(url, before)

    def _query_marker(self, url: str, stored: ServerSettings | None, query: str | None, replace: bool,
                      headers_given: bool, settings: list[dict[str, object]]) -> list[dict[str, object]]:
        """What the headers column is to hold of the address's secret query (its value goes to the
        keyring): :data:`QUERY_MARK`, or nothing. Without headers given, an update that keeps the
        stored headers writes them again beside a new query."""
        kept = stored is not None and stored.secret_query
        if query is not None:
            self._secrets.save(url, QUERY_ACCOUNT, query)
            if not headers_given and not replace and stored is not None:
                settings.extend(_header_entries(stored.headers))
            return [QUERY_MARK]
        if replace:
            return []  # the one kept leaves the keyring with the other dropped secrets (_forget_dropped)
        return [QUERY_MARK] if kept and headers_given else []

    def query_for(self, url: str, ask: Callable[[str], str | None] | None = None) -> str | None:
        """The secret query of the configured server ``url``: from the keyring, or ``ask(QUERY_ACCOUNT)``;
        ``None`` when none is kept for it (or none could be had)."""
        record = self.settings(url)
        if record is None or not record.secret_query:
            return None
        value = self._secrets.load(url, QUERY_ACCOUNT)
        if value is None and ask is not None:
            value = ask(QUERY_ACCOUNT)
        return value or None

    def settings(self, url: str) -> ServerSettings | None:
        """A configured server's name, budget and headers (``None`` if it was never configured).

        Reads the ``servers`` table only, so it also serves a database opened read-only that an
        upgrade has not touched (``--no-store``): one older than the roots column has no roots.
        """
        row = None
        for columns in ("roots, transport, command, era", "roots, transport, command, 'auto'",
                        "roots, 'http', NULL, 'auto'", "'[]', 'http', NULL, 'auto'"):
            try:  # a database from before schema version 6 (5, 4): no eras (no transports, no roots) yet
                row = self._conn.execute(f"SELECT url, name, budget_s, headers, {columns} FROM servers WHERE url = ?",
                                         (url,)).fetchone()
                break
            except sqlite3.OperationalError:
                continue
        if row is None:
            return None
        return ServerSettings(row[0], row[1], row[2], _headers(row[3]), _roots(row[4]), row[5], _command(row[6]),
                              row[7], _query_kept(row[3]))

    def command_for(self, url: str, ask: Callable[[str], str | None] | None = None) -> CommandSetting | None:
        """A command server's command with every value: secret ones from the keyring or ``ask(name)``;
        a secret variable with no value is left out."""
        record = self.settings(url)
        if record is None or record.command is None:
            return None
        env = []
        for variable in record.command.env:
            value = variable.value
            if variable.secret:
                value = self._secrets.load(url, env_account(variable.name))
                if value is None and ask is not None:
                    value = ask(variable.name)
            if value is not None:
                env.append(EnvSetting(variable.name, variable.secret, value))
        return CommandSetting(record.command.program, record.command.args, record.command.cwd, tuple(env))

    def find(self, name_or_key: str) -> ServerSettings | None:
        """A configured server by its key (URL) or, failing that, by its display name (the first, by key); the
        window's demo entry by its name in any language too (as ``servers`` lists it here or on a machine in
        another language), unless a server of the user's has that name."""
        found = self.settings(name_or_key)
        if found is not None:
            return found
        row = self._conn.execute("SELECT url FROM servers WHERE name = ? ORDER BY url LIMIT 1",
                                 (name_or_key,)).fetchone()
        if row is None and name_or_key in demo_entry_names():  # the demo entry by a name it is shown by
            rows = self._conn.execute("SELECT url FROM servers WHERE name = ? ORDER BY url", (DEMO_ENTRY_NAME,))
            row = next((row for row in rows if is_demo_entry(DEMO_ENTRY_NAME, row[0])), None)
        return self.settings(row[0]) if row is not None else None

    def remove_server(self, url: str) -> None:
        """Forget a server and its health (its runs stay stored), and every secret the keyring keeps
        for it: its secret headers' and variables' values and its address's query."""
        stored = self.settings(url)
        own = not self._conn.in_transaction  # else the caller's transaction carries it (cli/server_saving.py)
        if own:
            self._conn.execute("BEGIN IMMEDIATE")
        try:
            self._conn.execute("DELETE FROM servers WHERE url = ?", (url,))
            self._conn.execute("DELETE FROM server_health WHERE url = ?", (url,))
        except BaseException:
            if own:
                self._conn.execute("ROLLBACK")
            raise
        if own:
            self._conn.execute("COMMIT")
        self._forget_dropped(url, stored)

    def _forget_dropped(self, url: str, before: ServerSettings | None) -> None:
        """Remove from the keyring what ``url`` kept ``before`` a change and keeps no more (a secret
        header dropped or renamed, a variable of a replaced command, the query of an address given
        without one; everything, when the server is gone)."""
        now = self.settings(url)
        for account in sorted(kept_accounts(before) - kept_accounts(now)):
            self._secrets.delete(url, account)

    def add_secret_header(self, url: str, name: str, value: str) -> bool:
        """Keep one more secret header for the configured server ``url`` (after its others; one of the
        same name is replaced); True when the keyring kept the value (else it is asked for when used)."""
        record = self.settings(url)
        kept = _header_entries(h for h in (record.headers if record else ()) if h.name.lower() != name.lower())
        saved = self._secrets.save(url, name, value)
        query = [QUERY_MARK] if record is not None and record.secret_query else []
        self._write("UPDATE servers SET headers = ? WHERE url = ?",
                    (json.dumps([*kept, {"name": name, "secret": True}, *query]), url))
        self._forget_dropped(url, record)  # the one it replaces, written otherwise (authorization)
        return saved

    def headers_for(self, url: str, ask: Callable[[str], str | None] | None = None) -> dict[str, str]:
        """The headers to send: stored values, secrets from the keyring or from ``ask(name)``."""
        record = self.settings(url)
        if record is None:
            return {}
        headers: dict[str, str] = {}
        for setting in record.headers:
            value = setting.value if not setting.secret else self._secrets.load(url, setting.name)
            if value is None and setting.secret and ask is not None:
                value = ask(setting.name)
            if value is not None:
                headers[setting.name] = value
        return headers

    def record_operation(self, url: str, outcome: str, latency_ms: float | None,
                         at: datetime | None = None) -> None:
        """Count one finished operation against its server: ok, tool_error, failed or cancelled."""
        self._write(*_health_update(url, outcome, latency_ms, at))

    def count_operation(self, url: str, outcome: str, latency_ms: float | None) -> None:
        """:meth:`record_operation` inside the caller's open transaction (with the run it belongs to)."""
        self._conn.execute(*_health_update(url, outcome, latency_ms, None))

    def get(self, url: str) -> ServerRecord | None:
        rows = self._select("WHERE u.url = ?", (url,))
        return rows[0] if rows else None

    def any_configured(self) -> bool:
        """Whether a server is configured (saved), not only seen through its health (the command line's)."""
        return self._conn.execute("SELECT 1 FROM servers LIMIT 1").fetchone() is not None

    def configured_urls(self) -> list[str]:
        """The keys of the configured (saved) servers, not those seen only through their health."""
        return [row[0] for row in self._conn.execute("SELECT url FROM servers ORDER BY url")]

    def all(self) -> list[ServerRecord]:
        return self._select("", ())

    def _select(self, where: str, params: tuple[object, ...]) -> list[ServerRecord]:
        # Servers seen only through health (never saved) are listed too.
        sql = f"""
            WITH u(url) AS (SELECT url FROM servers UNION SELECT url FROM server_health)
            SELECT u.url, s.name, s.budget_s, COALESCE(s.headers, '[]'), h.last_contact_at,
                   h.last_latency_ms, COALESCE(h.ok_count, 0), COALESCE(h.failed_count, 0),
                   COALESCE(h.cancelled_count, 0), COALESCE(h.tool_error_count, 0), COALESCE(s.roots, '[]'),
                   COALESCE(s.transport, CASE WHEN u.url LIKE 'stdio:%' THEN 'stdio' ELSE 'http' END), s.command,
                   COALESCE(s.era, 'auto'), h.found_era, h.found_era_at
            FROM u LEFT JOIN servers s ON s.url = u.url LEFT JOIN server_health h ON h.url = u.url
            {where} ORDER BY u.url"""
        records = []
        for row in self._conn.execute(sql, params):
            records.append(ServerRecord(row[0], row[1], row[2], _headers(row[3]), from_stored_time(row[4]), row[5],
                                        row[6], row[7], row[8], row[9], _roots(row[10]), row[11],
                                        _command(row[12]), row[13], row[14], from_stored_time(row[15]),
                                        _query_kept(row[3])))
        return records

    def _write(self, sql: str, params: tuple[object, ...]) -> None:
        if self._conn.in_transaction:  # the caller's transaction carries it (cli/server_saving.py)
            self._conn.execute(sql, params)
            return
        self._conn.execute("BEGIN IMMEDIATE")
        try:
            self._conn.execute(sql, params)
        except BaseException:
            rollback(self._conn)
            raise
        self._conn.execute("COMMIT")


#: What the headers column holds for a secret query: an entry without a name, which versions that
#: know no secret query skip (they read only entries with a name), so the column keeps its format.
QUERY_MARK: dict[str, object] = {"query": "secret"}


def _header_entries(headers: Iterable[HeaderSetting]) -> list[dict[str, object]]:
    """Headers as the column holds them: a secret one by its name only."""
    return [{"name": h.name, "secret": True} if h.secret else {"name": h.name, "secret": False, "value": h.value}
            for h in headers]


def kept_accounts(settings: ServerSettings | None) -> set[str]:
    """The keyring entries (accounts beside the server's URL) that ``settings`` say are kept: its secret
    headers, its command's secret variables and its address's query."""
    if settings is None:
        return set()
    accounts = {h.name for h in settings.headers if h.secret}
    if settings.command is not None:
        accounts |= {env_account(e.name) for e in settings.command.env if e.secret}
    if settings.secret_query:
        accounts.add(QUERY_ACCOUNT)
    return accounts


def stored_accounts(headers: str | None, command: str | None) -> set[str]:
    """The keyring entries a ``servers`` row's headers and command columns say are kept (:func:`kept_accounts`)."""
    return kept_accounts(ServerSettings("", None, None, _headers(headers), command=_command(command),
                                        secret_query=_query_kept(headers)))


def _query_kept(stored: str | None) -> bool:
    """True when the headers column says the address's query is kept as a secret."""
    try:
        value = json.loads(stored or "[]")
    except ValueError:
        return False
    return isinstance(value, list) and QUERY_MARK in value


def env_account(name: str) -> str:
    """The keyring entry of a secret variable, beside the server's secret headers."""
    return f"env:{name}"


def _command(stored: str | None) -> CommandSetting | None:
    try:
        return CommandSetting.from_dict(json.loads(stored)) if stored else None
    except ValueError:
        return None


def _headers(stored: str | None) -> tuple[HeaderSetting, ...]:
    """The stored headers; none when the column does not read back as them (edited by another tool):
    as with roots and a command, the entry still lists, and saving it with no headers keeps the column."""
    try:
        value = json.loads(stored or "[]")
    except ValueError:
        return ()
    if not isinstance(value, list):
        return ()
    return tuple(HeaderSetting(h["name"], bool(h.get("secret")), h.get("value")) for h in value
                 if isinstance(h, dict) and isinstance(h.get("name"), str))


def _roots(stored: str | None) -> tuple[str, ...]:
    try:
        value = json.loads(stored or "[]")
    except ValueError:
        return ()
    return tuple(uri for uri in value if isinstance(uri, str)) if isinstance(value, list) else ()


def _health_update(url: str, outcome: str, latency_ms: float | None,
                   at: datetime | None) -> tuple[str, tuple[object, ...]]:
    """The statement that counts one finished operation against its server."""
    if outcome not in OPERATION_OUTCOMES:
        raise ValueError(f"unknown operation outcome {outcome!r}")
    column = f"{outcome}_count"
    contact = outcome in _CONTACT_OUTCOMES
    return (f"INSERT INTO server_health (url, last_contact_at, last_latency_ms, {column}) VALUES (?, ?, ?, 1)"
            f" ON CONFLICT(url) DO UPDATE SET {column} = {column} + 1"
            + (", last_contact_at = excluded.last_contact_at, last_latency_ms = excluded.last_latency_ms"
               if contact else ""),
            (url, to_stored_time(at or utc_now()) if contact else None, latency_ms if contact else None))
