"""What each configured server is called with: its endpoint, with its headers (stored values, the
keyring, or this session's secrets) or its command with its secret variables (:mod:`.server_commands`),
and its sign-in settings. Built once and kept until the server is saved or removed: Run must not
wait on the store or the keyring.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from inspector.i18n.entry_names import endpoint_name
from inspector.i18n.messages import translate
from inspector.mcp import InvalidServerError, ServerEndpoint, bounded_budget
from inspector.mcp.address_query import with_query
from inspector.mcp.server_command import InvalidCommandError
from inspector.mcp.signin.model import SignInVault
from inspector.store import RunStore, ServerRecord, ServerRegistry
from inspector.store.secrets import SecretKeeper

from ..settings import AppSettings
from .server_commands import command_endpoint
from .signin_engine import configured_signin
from .window_secrets import SecretsPending


@dataclass(eq=False)
class ServerEndpoints:
    """The configured servers' endpoints, and the secret values kept for this session only."""

    store: RunStore
    registry: ServerRegistry
    secrets: SecretKeeper
    settings: AppSettings
    #: Where the sign-ins' client secrets are kept (an endpoint carries its sign-in settings).
    vault: SignInVault
    #: Says a sentence to the user (an endpoint that cannot be built).
    say: Callable[[str], None]
    #: Secret header values the keyring could not keep: for this session only, never written.
    session_secrets: dict[tuple[str, str], str] = field(default_factory=dict)
    _endpoints: dict[str, ServerEndpoint] = field(default_factory=dict)

    def endpoint_for(self, record: ServerRecord) -> ServerEndpoint:
        """The server with its headers and its address's secret query: stored values, the keyring, or
        this session's secrets.

        Kept until the server is saved or removed: Run must not wait on the store or the keyring."""
        endpoint = self._endpoints.get(record.url)
        stale = endpoint is None or endpoint.name != record.name or endpoint.era != record.era
        if stale and record.transport == "stdio":
            endpoint = self._endpoints[record.url] = command_endpoint(self, record)
        elif stale:
            headers = self.registry.headers_for(record.url, ask=lambda header: self.session_secrets.get(
                (record.url, header)))
            marked = frozenset(setting.name for setting in record.headers if setting.secret)
            unkept = frozenset(name for name in marked if name not in headers)  # no keyring kept them
            query = self.registry.query_for(record.url, ask=lambda account: self.session_secrets.get(
                (record.url, account)))
            endpoint = self._endpoints[record.url] = ServerEndpoint(
                with_query(record.url, query), headers=headers, name=endpoint_name(record.name, record.url),
                secret_headers=marked, transport="sse" if record.transport == "sse" else "http", era=record.era,
                signin=configured_signin(self.store, record.url, self.vault), secret_query=query is not None,
                unkept_headers=unkept)
        return endpoint

    def endpoint_or_say(self, record: ServerRecord,
                        told: Callable[[Callable[[], str]], None] | None = None) -> ServerEndpoint | None:
        """The endpoint, or ``None`` when it cannot be built: why is said, and handed to ``told`` (as a
        function of no arguments: said again in a new language). Secrets read for a short while yet
        (:class:`SecretsPending`) are not said in the status line: ``told`` that the server is being
        connected to, as before any keyring (a read that does not end soon is said then)."""
        try:
            return self.endpoint_for(record)
        except SecretsPending as exc:
            pending = exc
            if told is None:  # asked by the user (Run, Sign in): what it waits for
                self.say(translate(pending.reading))
            else:
                told(lambda: translate(pending))
            return None
        except InvalidServerError as exc:
            why = exc
        except InvalidCommandError as exc:
            why = exc.sentence
        self.say(translate(why))
        if told is not None:
            told(lambda: translate(why))
        return None

    def forget(self, url: str) -> None:
        """The server's settings changed (or it went): the next operation builds its endpoint anew."""
        self._endpoints.pop(url, None)

    def budget_for(self, record: ServerRecord) -> float:
        """The server's budget, else the settings' default (as well for one that cannot be used: a database of an
        older version may keep 1e308 s, which overflowed the countdown)."""
        usable = bool(record.budget_s) and bounded_budget(record.budget_s) is not None
        # As kept: one under a second is raised by the operation, which says so (the header too).
        return record.budget_s if usable else self.settings.default_budget_s


__all__ = ["ServerEndpoints"]
