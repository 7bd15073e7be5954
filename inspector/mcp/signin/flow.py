"""The sign-in operation: discovery, registration, the browser, the token exchange, each a leg on
the sign-in's own budget (a person takes their time; the tool call that needed the sign-in starts
afresh afterwards with its whole budget).

Each step is reported as a leg (``sign-in: …``) with its grant, and, once done, as a
:class:`SignInStep` that says in words what it found (for the window's sign-in view and the
command line): which authorization server, which client, where the browser was sent, which token
came back (never the token itself).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

import httpx

from ..errors import ErrorKind, McpTransportError
from ..leg_names import (
    SIGNIN_BROWSER,
    SIGNIN_CLIENT,
    SIGNIN_IDENTITY,
    SIGNIN_REFRESH,
    SIGNIN_RESOURCE,
    SIGNIN_SERVER,
    SIGNIN_TOKEN,
)
from ..legs import LegFrame, LegWire
from ..messages import N_, Message, Number
from .challenge import Challenge
from .discovery import canonical_resource, iss_acceptable
from .documents import ResourceMetadata, SignInProblem, find_authorization_server, find_resource_metadata, shown
from .model import (
    PRE_REGISTERED,
    REGISTERED,
    AuthorizationServer,
    ClientIdentity,
    SignInSettings,
    SignInVault,
    TokenSet,
)
from .pkce import AuthorizationAttempt
from .redirect import LoopbackRedirect
from .registration import given_client, kept_client, register

if TYPE_CHECKING:
    from .proofs import DpopKey

T = TypeVar("T")

#: The legs' names (kept in English with the legs, said in the reader's language by :func:`..leg_names.leg_name`).
STEP_RESOURCE = SIGNIN_RESOURCE
STEP_SERVER = SIGNIN_SERVER
STEP_CLIENT = SIGNIN_CLIENT
STEP_BROWSER = SIGNIN_BROWSER
STEP_TOKEN = SIGNIN_TOKEN
STEP_IDENTITY = SIGNIN_IDENTITY
STEP_REFRESH = SIGNIN_REFRESH
#: Every step of a sign-in, in order (a refresh is a leg of the operation that needed it).
STEPS = (STEP_RESOURCE, STEP_SERVER, STEP_CLIENT, STEP_BROWSER, STEP_TOKEN)
#: Each step in words, marked for translation (the window's sign-in view and the command line say them).
STEP_WORDS = {
    STEP_RESOURCE: N_("Finding the server's sign-in metadata"),
    STEP_SERVER: N_("Finding the authorization server"),
    STEP_CLIENT: N_("Registering the client"),
    STEP_BROWSER: N_("Signing in in the browser"),
    STEP_TOKEN: N_("Getting the token"),
    STEP_IDENTITY: N_("Asking the identity provider"),
    STEP_REFRESH: N_("Refreshing the token"),
}


@dataclass(frozen=True)
class SignInStep:
    """One step done: ``step`` is its leg's name, ``detail`` says what it found; ``address`` is
    where the browser was sent (the browser step), so a person can open it by hand."""

    step: str
    detail: Message
    address: str | None = None


@dataclass(frozen=True)
class SignedIn:
    """A sign-in that stood: the tokens (kept in the vault), the client and authorization server."""

    tokens: TokenSet
    client: ClientIdentity
    server: AuthorizationServer


def wanted_scope(challenge: Challenge | None, resource: ResourceMetadata | None, server: AuthorizationServer | None,
                 previous: str | None = None, settings: SignInSettings | None = None) -> str | None:
    """The scope to ask for: the user's, else the challenge's, else what the resource metadata
    lists; with what was granted before (a step-up asks for both); ``offline_access`` when the
    authorization server offers it (a refresh token)."""
    names: list[str] = []
    source = (settings.scope if settings is not None else None) or (challenge.scope if challenge else None)
    if source:
        names.extend(source.split())
    elif resource is not None and resource.scopes_supported:
        names.extend(resource.scopes_supported)
    if previous:
        names = previous.split() + names
    if names and server is not None and "offline_access" in server.scopes_supported:
        names.append("offline_access")
    unique = list(dict.fromkeys(name for name in names if name))
    return " ".join(unique) or None


class SignInFlow:
    """Signs in to one server as one operation's legs (``frame``); keeps the outcome in ``vault``.

    ``browser(address)`` opens the system browser (see :mod:`.browser`): a future that says
    whether a browser could be started; ``on_step`` hears each :class:`SignInStep`."""

    def __init__(self, http: httpx.AsyncClient, frame: LegFrame, server_url: str, *, vault: SignInVault,
                 settings: SignInSettings, browser: Callable[[str], Awaitable[bool]],
                 on_step: Callable[[SignInStep], None]) -> None:
        self.http = http
        self.frame = frame
        self.server_url = server_url
        #: The server's own key in the vault (its canonical address).
        self.resource = canonical_resource(server_url)
        #: What tokens are asked for (``resource``, RFC 8707): the resource metadata's own words, else the key.
        self.audience = self.resource
        self.vault = vault
        self.settings = settings
        self.browser = browser
        self.on_step = on_step

    async def run(self, challenge: Challenge | None, previous_scope: str | None = None) -> SignedIn:
        metadata = await self._step(STEP_RESOURCE, lambda: find_resource_metadata(
            self.http, self.server_url, challenge.resource_metadata if challenge else None), self._said_resource)
        self.audience = metadata.resource or self.resource
        server = await self._step(STEP_SERVER, lambda: self._authorization_server(metadata),
                                  lambda found: Message(N_("Authorization server {issuer}."),
                                                        {"issuer": shown(found.issuer)}))
        kept = self.vault.tokens(self.resource)
        if kept is not None and kept.issuer != server.issuer:
            self.vault.forget(self.resource)  # tokens of another authorization server are never reused
            previous_scope = None
        scope = wanted_scope(challenge, metadata, server, previous_scope, self.settings)
        if self.settings.by_machine:
            return await self._machine_sign_in(server, scope)
        attempt = AuthorizationAttempt()
        stored = self.vault.client(server.issuer)
        port = _port_of(stored.redirect_uris[0]) if stored is not None and stored.redirect_uris else 0
        redirect = LoopbackRedirect(attempt.state, port)
        try:
            await redirect.start()
        except OSError:
            redirect = LoopbackRedirect(attempt.state)  # the port of before is taken: a free one
            await redirect.start()
        redirect_uri = redirect.redirect_uri
        try:
            client = await self._step(STEP_CLIENT, lambda: self._client(server, redirect_uri, scope),
                                      _said_client)
            answer = await self._step(STEP_BROWSER, lambda: self._browse(server, client, attempt, redirect, scope),
                                      lambda _: Message(N_("The browser came back with a code.")))
        finally:
            await redirect.close()
        from .tokens import exchange_code

        tokens = await self._step(STEP_TOKEN, lambda: self._tokens(exchange_code(
            self.http, server, client, code=answer["code"], redirect_uri=redirect_uri,
            code_verifier=attempt.verifier, resource=self.audience, dpop=_dpop_key(server)), client), _said_tokens)
        self.vault.keep_tokens(tokens)
        return SignedIn(tokens, client, server)

    async def _authorization_server(self, metadata: ResourceMetadata) -> AuthorizationServer:
        server = await find_authorization_server(self.http, metadata.authorization_servers[0], self.server_url,
                                                 legacy=metadata.legacy)
        if not self.settings.by_machine and "S256" not in server.code_challenge_methods:
            raise SignInProblem(Message(N_("the authorization server {issuer} does not say it supports PKCE with "
                                           "S256, which signing in requires"), {"issuer": shown(server.issuer)}))
        return server

    async def _machine_sign_in(self, server: AuthorizationServer, scope: str | None) -> SignedIn:
        from . import tokens as grants

        client = await self._step(STEP_CLIENT, lambda: self._client(server, None, scope), _said_client)
        grant = self.settings.grant
        if grant == "client-credentials":
            request = grants.client_credentials(self.http, server, client, resource=self.audience, scope=scope,
                                                dpop=_dpop_key(server))
        else:
            assertion = self.settings.assertion
            if not assertion:
                raise self._failed(STEP_CLIENT, Message(N_("the {grant} sign-in needs a token to present, and none "
                                                           "was given"), {"grant": grant}))
            if grant == "enterprise":
                assertion = await self._step(STEP_IDENTITY, lambda: self._identity_assertion(server, assertion),
                                             lambda _: Message(N_("The identity provider issued an identity "
                                                                  "assertion for this server.")))
            request = grants.jwt_bearer(self.http, server, client, assertion=assertion, resource=self.audience,
                                        scope=scope)
        tokens = await self._step(STEP_TOKEN, lambda: self._tokens(request, client), _said_tokens)
        self.vault.keep_tokens(tokens)
        return SignedIn(tokens, client, server)

    async def _identity_assertion(self, server: AuthorizationServer, id_token: str) -> str:
        """Enterprise-managed authorization: the person's ID token exchanged at their identity
        provider for an identity assertion grant (ID-JAG) for ``server`` and this resource."""
        from .documents import may_fetch
        from .tokens import TokenRequestError, request_id_jag

        endpoint = self.settings.idp_token_endpoint
        if not endpoint or not may_fetch(endpoint, self.server_url):
            raise SignInProblem(Message(N_("the identity provider's token endpoint is not given, or neither https "
                                           "nor on this machine")))
        idp = AuthorizationServer(endpoint, {"token_endpoint": endpoint})
        idp_client = ClientIdentity(self.settings.idp_client_id or self.settings.client_id or "", endpoint,
                                    PRE_REGISTERED)
        try:
            return await request_id_jag(self.http, idp, idp_client, id_token=id_token, audience=server.issuer,
                                        resource=self.audience)
        except TokenRequestError as refused:
            raise SignInProblem(refused.sentence) from None

    async def _client(self, server: AuthorizationServer, redirect_uri: str | None, scope: str | None) -> ClientIdentity:
        client = given_client(server, self.settings) or kept_client(self.vault, server, redirect_uri)
        if client is None:
            client = await register(self.http, server, redirect_uri, grant=self.settings.grant, scope=scope)
            self.vault.keep_client(client)
        return client

    async def _browse(self, server: AuthorizationServer, client: ClientIdentity, attempt: AuthorizationAttempt,
                      redirect: LoopbackRedirect, scope: str | None) -> dict[str, str]:
        endpoint = server.authorization_endpoint
        if endpoint is None:
            raise SignInProblem(Message(N_("the authorization server {issuer} names no authorization endpoint"),
                                        {"issuer": shown(server.issuer)}))
        params = {"response_type": "code", "client_id": client.client_id, "redirect_uri": redirect.redirect_uri,
                  "code_challenge": attempt.challenge, "code_challenge_method": "S256", "state": attempt.state,
                  "resource": self.audience}
        if scope:
            params["scope"] = scope
        address = str(httpx.URL(endpoint).copy_merge_params(params))
        self.on_step(SignInStep(STEP_BROWSER, Message(N_("Opening the browser at the authorization server.")),
                                address))
        await self.browser(address)
        answer = await redirect.wait()
        if not iss_acceptable(server.iss_parameter, answer.get("iss"), server.issuer):
            if "iss" in answer:
                raise SignInProblem(Message(N_("the answer came from {named}, not from the authorization server "
                                               "{issuer}, so it is not used"),
                                            {"named": shown(answer["iss"]), "issuer": shown(server.issuer)}))
            raise SignInProblem(Message(N_("the answer does not name its authorization server (iss), which "
                                           "{issuer} promised to do, so it is not used"),
                                        {"issuer": shown(server.issuer)}))
        if "error" in answer:
            said = answer.get("error_description") or answer["error"]
            raise SignInProblem(Message(N_("the authorization server said no: {said}"), {"said": shown(said)}))
        if not answer.get("code"):
            raise SignInProblem(Message(N_("the browser came back without a code")))
        return answer

    async def _tokens(self, request: Awaitable[TokenSet], client: ClientIdentity | None = None) -> TokenSet:
        from .tokens import TokenRequestError

        try:
            return dataclasses.replace(await request, resource=self.resource)  # kept under the server's key
        except TokenRequestError as refused:
            if refused.error == "invalid_client" and client is not None and client.how == REGISTERED:
                self.vault.forget_client(client.issuer)  # unknown there now: registered anew next time
            raise SignInProblem(refused.sentence, whole=True) from None

    async def _step(self, step: str, work: Callable[[], Awaitable[T]], said: Callable[[T], Message]) -> T:
        async def exchange(wire: LegWire) -> T:
            try:
                return await work()
            except SignInProblem as problem:
                raise McpTransportError.signin_failed(self.frame.label, step, problem.reason,
                                                      whole=problem.whole) from None

        try:
            found = await self.frame.run(None, step, exchange)
        except McpTransportError as ended:
            if ended.kind not in (ErrorKind.TIMED_OUT, ErrorKind.EXHAUSTED_BUDGET):
                raise
            # The sign-in's own budget ran out (a person who did not finish, a slow server): said as such.
            budget = Number(self.frame.deadline.budget_s, f"{self.frame.deadline.budget_s:g}", "s")
            raise self._failed(step, Message(N_("it did not finish within the sign-in's budget of {budget} s"),
                                             {"budget": budget})) from None
        self.on_step(SignInStep(step, said(found)))
        return found

    def _failed(self, step: str, reason: Message) -> McpTransportError:
        return McpTransportError.signin_failed(self.frame.label, step, reason)

    def _said_resource(self, found: ResourceMetadata) -> Message:
        if found.legacy:
            return Message(N_("The server publishes no sign-in metadata; its own address is taken as its "
                              "authorization server."))
        return Message(N_("The server's metadata at {address} names {issuer}."),
                       {"address": shown(found.found_at or ""), "issuer": shown(found.authorization_servers[0])})


def _said_client(client: ClientIdentity) -> Message:
    how = {"pre-registered": N_("Client {client} (given by you)."),
           "metadata-document": N_("Client {client} (its metadata document)."),
           "registered": N_("Client {client} (registered now, or before with this authorization server).")}
    return Message(how.get(client.how, N_("Client {client}.")), {"client": shown(client.client_id)})


def _said_tokens(tokens: TokenSet) -> Message:
    if tokens.scope:
        return Message(N_("Signed in; the token grants {scope}."), {"scope": shown(tokens.scope)})
    return Message(N_("Signed in."))


def _dpop_key(server: AuthorizationServer) -> DpopKey | None:
    """A new DPoP key when the authorization server binds tokens with an algorithm signed here."""
    from .proofs import DpopKey, dpop_supported

    return DpopKey.generate() if dpop_supported(server) else None


def _port_of(uri: str) -> int:
    try:
        return httpx.URL(uri).port or 0
    except Exception:  # noqa: BLE001 - an odd stored address: any free port
        return 0


__all__ = ["STEPS", "SignInFlow", "SignInStep", "SignedIn", "wanted_scope"]
