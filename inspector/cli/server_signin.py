"""``servers set``'s sign-in options: kept with the server, the client secret in the keyring only.

The secret is read from the environment variable ``--client-secret-env`` names (a value on the
command line would be in the process list for everyone to read); it is never printed, listed or
written to the database: the listing says "kept in the keyring".
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys

from inspector.i18n import N_, _
from inspector.i18n.messages import Message
from inspector.mcp.address_query import typed_to_quote
from inspector.store import RunStore
from inspector.store.signin_settings import (
    GRANT_NEEDS_CLIENT_ID,
    KEY_METHOD_NEEDS_KEY,
    ClientKeyError,
    SignInSetup,
    StoredSignIn,
    metadata_url_acceptable,
    read_client_key,
    setup_problems,
)
from inspector.store.signin_vault import SignInKeeper

from .common import UsageError
from .safe_text import one_line
from .signin_options import given_client_options


def save_signin_options(store: RunStore, url: str, args: argparse.Namespace,
                        vault: SignInKeeper | None = None) -> bool:
    """Keep the sign-in options given to ``servers set`` for the server ``url`` (nothing when none were), the
    client secret in ``vault`` (by default the keyring's). False: a client secret was given and will not outlive
    this process (no usable keyring)."""
    if not given_client_options(args):
        return True
    from inspector.store.signin_vault import open_signin_vault

    secret = _secret(args.client_secret_env)
    new = SignInSetup(args.client_id, args.auth_method, _metadata_url(args.client_metadata_url), args.grant,
                      args.scope, _key_file(args.client_key))
    stored = StoredSignIn(store.db, vault if vault is not None else open_signin_vault())
    merged = (stored.setup(url) or SignInSetup()).updated_by(new)
    problems = setup_problems(merged)
    if GRANT_NEEDS_CLIENT_ID in problems:
        raise UsageError(Message(N_("--grant client-credentials needs the client's id: give --client-id.")))
    if KEY_METHOD_NEEDS_KEY in problems:
        raise UsageError(Message(N_("--auth-method private_key_jwt needs the client's key: give --client-key FILE.")))
    return stored.save(url, new, client_secret=secret)


def client_secret_not_kept() -> None:
    """Said once, when the server is saved; the lead's `call` takes --client-secret-env each time instead."""
    print(_("run-inspector: no system keyring is available, so the client secret was not kept. Give it with "
            "--client-secret-env on each call."), file=sys.stderr)


def reject_signin_options(args: argparse.Namespace) -> None:
    """A command server gets its credentials from its environment: no sign-in options."""
    if given_client_options(args):
        raise UsageError(Message(N_("Signing in is for a server at an address; a command's process gets its "
                                    "credentials with --env NAME=VALUE.")))


def signin_line(setup: SignInSetup) -> str:
    """The settings as the options that give them (the secret only as whether it is kept)."""
    words: list[str] = []
    for option, value in (("--client-id", setup.client_id), ("--auth-method", setup.auth_method),
                          ("--client-metadata-url", setup.client_metadata_url), ("--grant", setup.grant),
                          ("--client-key", setup.client_key_file), ("--scope", setup.scope)):
        if value is not None:
            words += [option, value]
    options = shlex.join(words)
    if setup.client_secret_kept:
        return one_line(_("sign-in: {options} (the client secret is kept in the keyring)").format(options=options))
    return one_line(_("sign-in: {options}").format(options=options))


def _secret(variable: str | None) -> str | None:
    if variable is None:
        return None
    value = os.environ.get(variable)
    if not value:
        raise UsageError(Message(N_("The environment variable {name} is not set or empty: --client-secret-env names "
                                    "the variable that holds the client secret."), {"name": one_line(variable)}))
    return value


def _metadata_url(given: str | None) -> str | None:
    if not given:
        return given
    if not metadata_url_acceptable(given):
        raise UsageError(Message(N_("--client-metadata-url needs an address such as "
                                    "https://example.com/client.json, not {given}."),
                                 {"given": one_line(typed_to_quote(given))}))  # no password or query (a key in either)
    return given


def _key_file(given: str | None) -> str | None:
    """The key file's absolute path, once it is known to hold a private key (its contents stay out)."""
    if not given:
        return given
    try:
        read_client_key(given)
    except ClientKeyError as error:
        raise UsageError(error.sentence) from None
    return os.path.abspath(given)
