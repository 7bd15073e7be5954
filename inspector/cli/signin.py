"""Signing in from the command line: the sign-in options, the sign-in an operation asks for
(then the operation again, afresh), and the ``signin`` / ``signout`` commands.

The browser is opened through Python's :mod:`webbrowser` (``BROWSER`` replaces it); its address is
printed as well, for a machine without one. Tokens go to the keyring when one is usable.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import os
import sys
from collections.abc import Awaitable, Callable
from datetime import datetime, timezone
from typing import Any

from inspector.i18n import N_, _
from inspector.i18n.entry_names import shown_label
from inspector.i18n.messages import Message, translate
from inspector.i18n.os_reasons import os_reason
from inspector.mcp import CancelSignal, McpClient, NullObserver, ServerEndpoint
from inspector.mcp.errors import ERROR_CODES, ErrorKind, McpTransportError
from inspector.mcp.signin.discovery import canonical_resource
from inspector.mcp.signin.flow import STEP_WORDS, SignInStep
from inspector.mcp.signin.model import SignInSettings, SignInVault

from .common import EXIT_CANCELLED, EXIT_FAILED, EXIT_OK, UsageError
from .ending import emit_json
from .safe_text import one_line
from .stopping import Terminated, sigterm_as_ctrl_c, work_done

#: How many times one command signs in (a server that keeps asking for a larger scope is stopped).
MAX_SIGNINS = 3
#: The most of a key file read (a PEM key is a few kilobytes).
MAX_KEY_BYTES = 64 * 1024


def settings_from_args(args: argparse.Namespace) -> SignInSettings | None:
    """The sign-in settings the options give (``None`` when they give none)."""
    client_id = getattr(args, "client_id", None)
    secret_variable = getattr(args, "client_secret_env", None)
    metadata_url = getattr(args, "client_metadata_url", None)
    key_file = getattr(args, "client_key", None)
    grant = getattr(args, "grant", None)
    assertion_file = getattr(args, "assertion_file", None) or getattr(args, "id_token_file", None)
    idp_endpoint, idp_client = getattr(args, "idp_token_endpoint", None), getattr(args, "idp_client_id", None)
    if not any((client_id, secret_variable, metadata_url, key_file, grant, assertion_file, idp_endpoint,
                getattr(args, "auth_method", None), getattr(args, "scope", None))):
        return None
    secret = None
    if secret_variable:
        secret = os.environ.get(secret_variable)
        if not secret:
            raise UsageError(Message(N_("The environment variable {name} named by --client-secret-env is not set or "
                                        "empty."), {"name": secret_variable}))
    key = None
    if key_file:
        from inspector.store.signin_settings import ClientKeyError, read_client_key

        try:
            key = read_client_key(key_file)
        except ClientKeyError as exc:
            raise UsageError(exc.sentence) from None
    assertion = _token_file(assertion_file) if assertion_file else None
    if grant in ("jwt-bearer", "enterprise") and assertion is None:
        option = "--assertion-file" if grant == "jwt-bearer" else "--id-token-file"
        raise UsageError(Message(N_("--grant {grant} needs the token to present: give it with {option}."),
                                 {"grant": grant, "option": option}))
    return SignInSettings(client_id=client_id, client_secret=secret, client_metadata_url=metadata_url,
                          grant=grant or "authorization-code", client_key_pem=key, assertion=assertion,
                          idp_token_endpoint=idp_endpoint, idp_client_id=idp_client,
                          auth_method=getattr(args, "auth_method", None), scope=getattr(args, "scope", None))


def _token_file(path: str) -> str:
    """A token kept in a file (a JWT: one line of visible ASCII), read without ever showing it."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_KEY_BYTES + 1)
    except OSError as exc:
        raise UsageError(Message(N_("The token file {path} cannot be read: {reason}."),
                                 {"path": path, "reason": os_reason(exc)})) from None
    token = data.strip()
    if not token or len(data) > MAX_KEY_BYTES or any(byte < 0x21 or byte > 0x7E for byte in token):
        raise UsageError(Message(N_("The token file {path} holds no token (one line of visible characters)."),
                                 {"path": path}))
    return token.decode("ascii")


def signin_vault() -> SignInVault:
    """The keyring's vault when one is usable, else one for this command only; opened when first
    used (a command on a server that never asks for a sign-in never looks for the keyring)."""
    from inspector.store.signin_vault import LazyVault

    return LazyVault()  # type: ignore[return-value]


class _DoneOnceKept:
    """The vault of ``signin``: once the new tokens are kept the command's work is done (:func:`work_done`).
    A Ctrl-C as the sign-in shut down after that (its HTTP client closed, its event loop ended) said "the
    sign-in ... was stopped before it ended" of tokens kept, which the next command used."""

    def __init__(self, vault: SignInVault) -> None:
        self._vault = vault

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self._vault, name)

    def keep_tokens(self, tokens: Any) -> None:
        self._vault.keep_tokens(tokens)
        work_done()


def _step_words(step: str) -> str:
    """A sign-in step in words, as the window's sign-in view says it (its leg's name otherwise)."""
    words = STEP_WORDS.get(step)
    return _(words) if words else step


class SignInPrinter(NullObserver):
    """Says each step of a sign-in on stderr as it happens (the browser's address too)."""

    def __init__(self, stream: Any = None) -> None:
        self.stream = stream or sys.stderr

    def signin_step(self, step: SignInStep) -> None:
        print(_("run-inspector: {step}: {detail}").format(step=_step_words(step.step), detail=translate(step.detail)),
              file=self.stream, flush=True)
        if step.address:
            print(_("run-inspector: if no browser opens, open this address to sign in:\n  {address}").format(
                address=step.address), file=self.stream, flush=True)


async def with_signin(client: McpClient, server: ServerEndpoint, cancel: CancelSignal,
                      attempt: Callable[[], Awaitable[Any]]) -> tuple[Any, list[Any]]:
    """Run ``attempt`` (an operation's record); when the server asks for a sign-in, sign in (an
    operation of its own, recorded as a step) and run it again afresh, at most
    :data:`MAX_SIGNINS` times. The record of the last attempt, and those of the sign-ins."""
    from inspector.agent.operations import sign_in_step

    record = await attempt()
    signins: list[Any] = []
    while _asks_signin(record.error) and len(signins) < MAX_SIGNINS and not cancel.fired:
        error = record.error
        kept = client.signed_in(server)
        previous = kept.scope if kept is not None and error.http_status == 403 else None
        print(_asked(error, server), file=sys.stderr)
        signed = await sign_in_step(client, server, challenge=error.challenge, previous_scope=previous,
                                    cancel=cancel, observer=SignInPrinter())
        signins.append(signed)
        if signed.error is not None:
            # Its health with its status: a sign-in cancelled by Ctrl-C is a cancel, not the server's fault.
            return dataclasses.replace(record, error=signed.error, status=signed.status,
                                       health=signed.health), signins
        record = await attempt()
    return record, signins


def _asked(error: McpTransportError, server: ServerEndpoint) -> str:
    scope = getattr(error.challenge, "scope", None)
    if error.http_status == 403 and scope:
        return _("run-inspector: {server} asks for a larger scope ({scope}); signing in again.").format(
            server=shown_label(server), scope=one_line(scope))
    return _("run-inspector: {server} asks for a sign-in ({method}, HTTP status {status}); signing in.").format(
        server=shown_label(server), method=error.method, status=error.http_status)


def _asks_signin(error: object) -> bool:
    return isinstance(error, McpTransportError) and error.kind is ErrorKind.SIGNIN_REQUIRED


def run(args: argparse.Namespace) -> int:
    """``signin SERVER`` / ``signout SERVER``."""
    from inspector.store.signin_settings import overridden

    from .operations import _chosen, parse_budget_option

    given = settings_from_args(args)
    # Read as every command reads it, before anything is opened: "5m", 0 or "nan" are refused (they
    # were taken for the 20 s default of an operation, not the sign-in's 300 s).
    reading = parse_budget_option(args.budget) if args.command == "signin" else None
    server = _chosen(None, args, None, {}).server
    if server.is_command:
        raise UsageError(Message(N_("A server started as a command takes its credentials from its environment; "
                                    "only a server at an address is signed in to.")))
    server = dataclasses.replace(server, signin=overridden(server.signin, given,
                                                           grant_given=getattr(args, "grant", None) is not None))
    vault = signin_vault()
    resource = canonical_resource(server.url)
    if args.command == "signout":
        had = vault.tokens(resource) is not None
        vault.forget(resource)
        said = {"server": shown_label(server)}
        sentence = (Message(N_("Signed out of {server}: its tokens are forgotten."), said) if had
                    else Message(N_("No sign-in to {server} was kept here: there was nothing to forget."), said))
        _say(args, {"server": server.label, "signed_in": False}, sentence)
        return EXIT_OK
    client = McpClient(signin_vault=_DoneOnceKept(vault))  # type: ignore[arg-type]
    cancel = CancelSignal()
    try:
        with sigterm_as_ctrl_c():  # SIGTERM killed it while it waited for the browser (status -15)
            signed = asyncio.run(client.sign_in(server, budget_s=reading.seconds if reading else None,
                                                cancel=cancel, observer=SignInPrinter()))
    except KeyboardInterrupt as stop:  # the loopback listener is closed as the sign-in's task is cancelled
        cancel.fire()
        # Said like a sign-in that failed: one sentence, or with --json its one object (it printed none).
        stopped = Message(N_("Ended by a signal (SIGTERM): the sign-in to {server} was stopped before it ended.")
                          if isinstance(stop, Terminated) else
                          N_("Cancelled (Ctrl-C): the sign-in to {server} was stopped before it ended."),
                          {"server": server.label if args.json else shown_label(server)})  # --json: as stored
        if args.json:
            emit_json({"error": {"kind": "cancelled", "code": ERROR_CODES[ErrorKind.CANCELLED],
                                 "message": str(stopped)}, "step": None})
        else:
            print(_("run-inspector: {sentence}").format(sentence=translate(stopped)), file=sys.stderr)
        return EXIT_CANCELLED
    except McpTransportError as failed:
        if args.json:
            emit_json({"error": failed.to_dict(), "step": failed.signin_step})
        else:
            print(_("run-inspector: {sentence}").format(sentence=translate(failed)), file=sys.stderr)
        return EXIT_CANCELLED if failed.is_cancellation else EXIT_FAILED
    work_done()  # signed in, the tokens kept: a Ctrl-C or SIGTERM now changes nothing
    tokens = signed.tokens
    # Written with "Z" as every other time of --json is (jq's fromdateiso8601 refuses "+00:00").
    until = (datetime.fromtimestamp(tokens.expires_at, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
             if tokens.expires_at is not None else None)
    report = {"server": server.label, "signed_in": True, "issuer": tokens.issuer, "client_id": signed.client.client_id,
              "scope": tokens.scope or None, "subject": tokens.subject, "expires_at": until, "kept": vault.persistent}
    sentence = Message(N_("Signed in to {server} with {issuer}."), {"server": shown_label(server),
                                                                    "issuer": tokens.issuer})
    _say(args, report, sentence)
    if not vault.persistent and not args.json:
        print(_("run-inspector: no keyring is usable here, so the sign-in lasts for this command only."),
              file=sys.stderr)
    return EXIT_OK


def _say(args: argparse.Namespace, report: dict[str, Any], sentence: Message) -> None:
    if args.json:
        emit_json(report)
    else:
        print(translate(sentence))


__all__ = ["MAX_SIGNINS", "SignInPrinter", "run", "settings_from_args", "signin_vault",
           "with_signin"]
