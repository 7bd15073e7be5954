"""The sign-in settings an imported entry gives (``servers --json`` lists them), as a server keeps them.

Its client secret comes with them where ``--with-secrets`` listed it; a listing that leaves it out keeps the one the
server configured here keeps for the same client (as a secret header left out keeps its configured value), else none
is kept: the import says so. An entry whose settings the Servers dialog and ``servers set`` refuse (a listing edited
by hand) is skipped, saying why (:func:`with_usable_signin`).
"""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass
from pathlib import Path

from inspector.mcp.address_query import typed_to_quote
from inspector.mcp.listed_signin import ListedSignIn
from inspector.mcp.messages import N_, Message
from inspector.mcp.server_configs import ServerConfig, SkippedServer
from inspector.store.signin_settings import (
    GRANT_NEEDS_CLIENT_ID,
    KEY_METHOD_NEEDS_KEY,
    ClientKeyError,
    SignInSetup,
    metadata_url_acceptable,
    read_client_key,
    setup_problems,
)

__all__ = ["ImportedSignIn", "imported_signin", "with_usable_signin"]


@dataclass(frozen=True)
class ImportedSignIn:
    """The settings to keep (``client_secret_kept``: the configured secret stays), the secret to keep with them
    (``None``: none given), and whether the listing left out a secret that is not kept then."""

    setup: SignInSetup
    secret: str | None
    left_out: bool


def imported_signin(listed: ListedSignIn, configured: SignInSetup | None) -> ImportedSignIn:
    """``listed`` as the server keeps it, where it is ``configured`` so now (``None``: not configured)."""
    keeps = (listed.secret_left_out and configured is not None and configured.client_secret_kept
             and configured.client_id == listed.client_id)
    setup = SignInSetup(**listed.settings, client_secret_kept=keeps)
    return ImportedSignIn(setup, listed.client_secret, listed.secret_left_out and not keeps)


def with_usable_signin(config: ServerConfig, folder: Path) -> ServerConfig:
    """``config`` with each entry whose sign-in settings ``servers set`` refuses among the skipped, saying why; a
    client key file kept by its absolute path (one given relative: to ``folder``, the file's)."""
    kept, skipped = [], list(config.skipped)
    for entry in config.servers:
        refusal = None if entry.signin is None else _refusal(entry.signin, folder)
        if isinstance(refusal, Message):
            skipped.append(SkippedServer(entry.name, refusal))
        else:
            kept.append(entry if refusal is None else dataclasses.replace(entry, signin=refusal))
    return dataclasses.replace(config, servers=tuple(kept), skipped=tuple(skipped))


def _refusal(listed: ListedSignIn, folder: Path) -> Message | ListedSignIn:
    """Why ``servers set`` would refuse ``listed``; else ``listed``, its key file by its absolute path."""
    settings = dict(listed.settings)
    address = settings.get("client_metadata_url")
    if address is not None and not metadata_url_acceptable(address):
        return Message(N_("the client metadata document's address of its sign-in is not an https address with a path "
                          "(http only on this machine): {address}"), {"address": typed_to_quote(address)})
    if (key_file := settings.get("client_key_file")) is not None:
        path = os.path.abspath(folder / os.path.expanduser(key_file))
        try:
            read_client_key(path)
        except ClientKeyError as error:
            return Message(N_("the client key of its sign-in cannot be used: {reason}"), {"reason": error.sentence})
        settings["client_key_file"] = path
    problems = setup_problems(SignInSetup(**settings))
    if GRANT_NEEDS_CLIENT_ID in problems:
        return Message(N_("its sign-in's client-credentials grant needs the client's id, which it does not give"))
    if KEY_METHOD_NEEDS_KEY in problems:
        return Message(N_("its sign-in's private_key_jwt needs the client's key file, which it does not give"))
    return dataclasses.replace(listed, settings=settings)
