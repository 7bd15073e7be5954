"""``--version``: print the program's name and version (with ``--json``, as one JSON object), then stop
(the version is read when asked)."""

from __future__ import annotations

import argparse
from typing import Any


class VersionAction(argparse.Action):
    """Like argparse's "version" action, but the version is looked up only when the option is given:
    every other command builds the parser too, and must not pay for reading package metadata."""

    def __init__(self, option_strings: list[str], dest: str = argparse.SUPPRESS, help: str | None = None,
                 **_ignored: Any) -> None:
        super().__init__(option_strings, dest=dest, default=argparse.SUPPRESS, nargs=0, help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        print_version(bool(getattr(parser, "json_wanted", False)))
        parser.exit()  # (print_version flushed: a reader gone is found before)


def print_version(as_json: bool) -> None:
    """The version line, or with ``--json`` the object ``{"name": ..., "version": ...}`` (docs/cli-json.md)."""
    from inspector.version import version_fields, version_line

    if as_json:
        from .ending import emit_json

        emit_json(version_fields())
    else:
        print(version_line(), flush=True)  # a reader gone is found here, as the only output's
