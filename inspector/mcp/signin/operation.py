"""Signing in as an operation of its own, and what other operations need of a sign-in: the
credentials their requests carry, a refresh as one of their legs, and one more try after a refresh
when the server refuses the token.

A sign-in waits on a person, so it has its own deadline (:data:`SIGNIN_BUDGET_S` unless the
caller gives one), its own legs, its own Cancel; the operation that needed it is started afresh
afterwards with its whole budget.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, TypeVar

import httpx

from .. import refusal_words
from ..cancel import CancelSignal, claim_cancel
from ..clock import Clock
from ..deadline import OperationDeadline
from ..errors import ErrorKind, McpTransportError
from ..legs import LegFrame, LegWire
from ..reports import NullObserver, OperationFinished, OperationObserver, OperationStarted
from ..secrets import Secrets
from ..server import ServerEndpoint
from .browser import open_in_browser
from .challenge import Challenge
from .discovery import canonical_resource
from .documents import SignInProblem, find_authorization_server, own_origin
from .flow import STEP_REFRESH, SignedIn, SignInFlow, SignInStep
from .model import REFRESH_AHEAD_S, SignInSettings, SignInVault, TokenSet
from .registration import given_client

if TYPE_CHECKING:
    from ..operation import _Operation

T = TypeVar("T")

SIGNIN_OPERATION = "sign-in"
#: How long a sign-in may take when the caller names no budget: a person signs in, in a browser.
SIGNIN_BUDGET_S = 300.0


def settings_of(server: ServerEndpoint) -> SignInSettings:
    return server.signin if server.signin is not None else SignInSettings()


async def sign_in(server: ServerEndpoint, *, vault: SignInVault, http: httpx.AsyncClient, clock: Clock,
                  challenge: Challenge | None = None, previous_scope: str | None = None,
                  budget_s: object = None, cancel: CancelSignal | None = None,
                  observer: OperationObserver | None = None,
                  browser: Callable[[str], Awaitable[bool]] | None = None) -> SignedIn:
    """Sign in to ``server`` (an address) as one operation; the tokens go to ``vault``. A server
    started as a command takes its credentials from its environment: it is never signed in to."""
    if server.is_command:
        raise ValueError("a server started as a command is not signed in to (its environment has its credentials)")
    observer = observer or NullObserver()
    deadline = OperationDeadline(SIGNIN_BUDGET_S if budget_s is None else budget_s, clock)
    observer.operation_started(OperationStarted(SIGNIN_OPERATION, server.label, deadline.budget_s))
    frame = LegFrame(server.label, deadline=deadline, observer=observer, clock=clock, cancel=cancel)
    settings = settings_of(server)
    hear = getattr(observer, "signin_step", None)
    flow = SignInFlow(http, frame, server.url, vault=vault, settings=settings,
                      browser=browser or open_in_browser, on_step=hear if callable(hear) else (lambda step: None))
    outcome, error = "failed", None
    try:
        with cancel.bind_current_task() if cancel is not None else contextlib.nullcontext():
            try:
                signed = await flow.run(challenge, previous_scope)
            except asyncio.CancelledError:
                if not claim_cancel(cancel):
                    raise
                raise McpTransportError.cancelled(server.label, SIGNIN_OPERATION, in_flight=False) from None
        outcome = "ok"
        return signed
    except McpTransportError as exc:
        exc.scrub(Secrets(settings.secrets))
        error = exc
        outcome = "cancelled" if exc.is_cancellation else "failed"
        raise
    finally:
        observer.operation_finished(OperationFinished(SIGNIN_OPERATION, server.label, deadline.budget_s,
                                                      deadline.elapsed_s() * 1000, outcome, error, None,
                                                      server.transport))


def credentials_for(server: ServerEndpoint, vault: SignInVault | None) -> TokenSet | None:
    """The tokens kept for ``server`` (an address), if any."""
    if vault is None or server.is_command:
        return None
    return vault.tokens(canonical_resource(server.url))


def with_tokens(server: ServerEndpoint, tokens: TokenSet | None) -> ServerEndpoint:
    """``server`` with its own copy of the headers, carrying ``tokens`` (the copy's headers are
    updated in place after a refresh, so the operation's legs send the new token)."""
    copy = dataclasses.replace(server, headers=dict(server.headers))
    if tokens is not None:
        adopt_tokens(copy, tokens)
    return copy


def adopt_tokens(server: ServerEndpoint, tokens: TokenSet) -> None:
    """Put ``tokens`` into ``server`` (an operation's own copy, see :func:`with_tokens`), in place:
    the legs still to come carry them."""
    server.headers["Authorization"] = f"{tokens.token_type} {tokens.access_token}"
    dpop = None
    if tokens.token_type == "DPoP" and tokens.dpop_key_pem:
        from .proofs import DpopKey

        dpop = DpopKey.from_pem(tokens.dpop_key_pem)
    # The copy is this operation's alone: its frozen fields may change with its tokens.
    object.__setattr__(server, "signed_in", True)
    object.__setattr__(server, "dpop", dpop)


def needs_refresh(tokens: TokenSet | None) -> bool:
    return tokens is not None and tokens.refresh_token is not None and tokens.expires_within(REFRESH_AHEAD_S)


async def refresh_leg(frame: LegFrame, http: httpx.AsyncClient, server: ServerEndpoint, vault: SignInVault,
                      tokens: TokenSet) -> TokenSet | None:
    """Refresh ``tokens`` as a leg of the running operation; the new ones are kept and put into
    ``server``'s headers. ``None`` (and the old tokens forgotten) when the authorization server
    refuses the refresh token: the caller signs in again."""
    from .tokens import TokenRequestError, refresh

    async def exchange(wire: LegWire) -> TokenSet | None:
        try:
            # Found as the sign-in found it: the server's own origin may be a 2025-03-26 authorization
            # server without metadata, at the default endpoints.
            authority = await find_authorization_server(http, tokens.issuer, server.url,
                                                        legacy=tokens.issuer == own_origin(server.url))
            client = given_client(authority, settings_of(server)) or vault.client(tokens.issuer)
            if client is None:
                return None
            return tokens.renewed(await refresh(http, authority, client, tokens))
        except TokenRequestError as refused:
            if refused.error == "invalid_client" and vault.client(tokens.issuer) is not None:
                vault.forget_client(tokens.issuer)  # the authorization server no longer knows it: register anew
                return None
            if refused.sign_in_again or refused.error == "invalid_grant":
                return None
            raise _kept_after(McpTransportError.signin_failed(server.label, STEP_REFRESH, refused.sentence,
                                                              whole=True)) from None
        except SignInProblem as problem:
            raise _kept_after(McpTransportError.signin_failed(server.label, STEP_REFRESH, problem.reason)) from None

    try:
        renewed = await frame.run(None, STEP_REFRESH, exchange)
    except McpTransportError as ended:
        if ended.kind is not ErrorKind.TIMED_OUT or ended.granted_s is None:
            raise
        # The grant ran out while the authorization server was asked, not the server itself.
        raise McpTransportError.refresh_timed_out(server.label, STEP_REFRESH, tokens.issuer,
                                                  frame.deadline.budget_s, ended.granted_s) from None
    if renewed is None:
        vault.forget(tokens.resource)
        return None
    vault.keep_tokens(renewed)
    server.headers["Authorization"] = f"{renewed.token_type} {renewed.access_token}"
    return renewed


def _kept_after(failed: McpTransportError) -> McpTransportError:
    """A refresh that failed for another reason than a refused refresh token keeps the sign-in (the next
    operation tries again): said, with the way on when it keeps failing."""
    failed.add_sentence(refusal_words.refresh_kept(failed.server))
    return failed


async def signed_work(op: _Operation, server: ServerEndpoint, http: httpx.AsyncClient | None,
                      tokens: TokenSet | None, vault_now: Callable[[], SignInVault | None],
                      attempt: Callable[[], Awaitable[T]]) -> T:
    """Open ``op`` and work (``attempt``); with a token near its end refreshed first, and once more
    from the start after a refresh when the server refuses the token (both refreshes are legs of
    ``op``). ``vault_now`` gives the client's vault as it stands (a sign-in may make one meanwhile)."""
    vault = vault_now()
    if tokens is not None and http is not None and vault is not None and needs_refresh(tokens):
        kept = tokens
        try:
            tokens = await refresh_leg(op.transport.frame, http, server, vault, tokens)
        except McpTransportError as failed:
            if failed.kind is not ErrorKind.SIGNIN_FAILED or kept.expires_within(0):
                raise
            tokens = kept  # refreshed ahead of its end, and not refused: the token still serves
        if tokens is None and kept.expires_within(0):
            server.headers.pop("Authorization", None)  # refused, and of no use any more: ask for a sign-in
        op.transport.secrets = server.secrets()  # the new token is cut out of what the server says too
    try:
        return await attempt()
    except McpTransportError as refused:
        vault = vault_now()
        if refused.kind is not ErrorKind.SIGNIN_REQUIRED or refused.http_status != 401 or http is None \
                or vault is None:
            raise
        if tokens is None:
            # Not looked up before (the vault was not open): a sign-in kept from before serves now.
            kept = credentials_for(server, vault) if not server.signed_in else None
            if kept is None or "Authorization" in server.headers:
                raise
            adopt_tokens(server, kept)
            if needs_refresh(kept) and await refresh_leg(op.transport.frame, http, server, vault,
                                                         kept) is None and kept.expires_within(0):
                raise
        elif tokens.refresh_token is None:
            raise
        elif await refresh_leg(op.transport.frame, http, server, vault, tokens) is None:
            raise
        op.transport.secrets = server.secrets()
    op.speak_handshake()
    return await attempt()


__all__ = ["SIGNIN_BUDGET_S", "SIGNIN_OPERATION", "SignInStep", "adopt_tokens", "credentials_for", "needs_refresh",
           "refresh_leg",
           "sign_in", "signed_work", "with_tokens"]
