"""The sign-in options (OAuth client settings) of ``servers set``, and the same ones for any command
that signs in. Grammar only: nothing of the network or the store is imported here."""

from __future__ import annotations

import argparse

from inspector.i18n import _

#: As inspector.mcp.signin.model's (the grammar imports no network code; a test keeps them equal).
AUTH_METHODS = ("none", "client_secret_basic", "client_secret_post", "private_key_jwt")
GRANTS = ("authorization-code", "client-credentials")


def add_client_options(sub: argparse.ArgumentParser, *, scope: bool = True) -> None:
    """``--client-id``, ``--client-secret-env``, ``--client-metadata-url``, ``--grant``,
    ``--client-key``, ``--auth-method`` (and ``--scope``): each defaults to ``None``."""
    group = sub.add_argument_group(_("signing in (OAuth)"))
    group.add_argument("--client-id", metavar="ID",
                       help=_("the client id registered for you with the server's authorization server"))
    group.add_argument("--client-secret-env", metavar="VARIABLE",
                       help=_("the environment variable that holds that client's secret (the value is never "
                              "given on the command line, where other users could see it)"))
    group.add_argument("--client-metadata-url", metavar="URL",
                       help=_("the address of a client metadata document to sign in as (used as the client id)"))
    group.add_argument("--grant", choices=GRANTS,
                       help=_("authorization-code (a person signs in with the browser, the default) or "
                              "client-credentials (a machine signs in with its own secret or key)"))
    group.add_argument("--client-key", metavar="FILE",
                       help=_("a PEM private key file to sign in with a signed JWT (private_key_jwt)"))
    group.add_argument("--auth-method", choices=AUTH_METHODS,
                       help=_("how the client proves itself at the token endpoint (default: what the "
                              "authorization server supports)"))
    if scope:
        group.add_argument("--scope", metavar="SCOPES",
                           help=_("the scopes to ask for, separated by spaces (default: what the server asks for)"))


def given_client_options(args: argparse.Namespace) -> bool:
    """Whether any sign-in option was given."""
    return any(getattr(args, name, None) is not None for name in (
        "client_id", "client_secret_env", "client_metadata_url", "grant", "client_key", "auth_method", "scope"))
