"""The sign-in options (OAuth client settings) of ``servers set``, and the same ones for any command
that signs in. Grammar only: nothing of the network or the store is imported here."""

from __future__ import annotations

import argparse

from inspector.i18n import _

#: As inspector.mcp.signin.model's (the grammar imports no network code; a test keeps them equal).
AUTH_METHODS = ("none", "client_secret_basic", "client_secret_post", "private_key_jwt")
GRANTS = ("authorization-code", "client-credentials")
#: What one command may sign in with besides: a workload's token, a person's enterprise ID token
#: (given per command, from files: never kept with the server).
COMMAND_GRANTS = (*GRANTS, "jwt-bearer", "enterprise")


def add_client_options(sub: argparse.ArgumentParser, *, scope: bool = True, for_command: bool = False) -> None:
    """``--client-id``, ``--client-secret-env``, ``--client-metadata-url``, ``--grant``,
    ``--client-key``, ``--auth-method`` (and ``--scope``): each defaults to ``None``. ``for_command``:
    the options of one command that signs in (``call``, ``tools``, ``ping``, ``signin``), with the
    grants and token files that are never kept with a server."""
    group = sub.add_argument_group(_("signing in (OAuth)"))
    group.add_argument("--client-id", metavar="ID",
                       help=_("the client id registered for you with the server's authorization server"))
    group.add_argument("--client-secret-env", metavar="VARIABLE",
                       help=_("the environment variable that holds that client's secret (the value is never "
                              "given on the command line, where other users could see it)"))
    group.add_argument("--client-metadata-url", metavar="URL",
                       help=_("the address of a client metadata document to sign in as (used as the client id)"))
    if for_command:
        group.add_argument("--grant", choices=COMMAND_GRANTS,
                           help=_("how to sign in: authorization-code (a person, in the browser; the default), "
                                  "client-credentials (a machine client with its own secret or key), jwt-bearer (a "
                                  "workload presenting the identity token of --assertion-file) or enterprise (the "
                                  "person's ID token of --id-token-file, exchanged at --idp-token-endpoint)"))
        group.add_argument("--assertion-file", metavar=_("FILE"),
                           help=_("the identity token (a JWT) a workload presents, for --grant jwt-bearer"))
        group.add_argument("--id-token-file", metavar=_("FILE"),
                           help=_("the person's ID token from their enterprise identity provider, for --grant "
                                  "enterprise"))
        group.add_argument("--idp-token-endpoint", metavar="URL",
                           help=_("the enterprise identity provider's token endpoint, for --grant enterprise"))
        group.add_argument("--idp-client-id", metavar="ID",
                           help=_("this client's id at the enterprise identity provider, for --grant enterprise"))
    else:
        group.add_argument("--grant", choices=GRANTS,
                           help=_("authorization-code (a person signs in with the browser, the default) or "
                                  "client-credentials (a machine signs in with its own secret or key)"))
    group.add_argument("--client-key", metavar=_("FILE"),
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
