"""The command line: every headless feature of Run Inspector is reachable from here."""

from __future__ import annotations

import sys

from inspector.mcp.server import InvalidServerError

from . import operations, runs
from .common import EXIT_OK, Parser, UsageError, fail


def build_parser() -> Parser:
    parser = Parser(prog="run-inspector",
                    description="Make, cancel, store and inspect MCP tool calls. Without a subcommand "
                                "the window opens (once the desktop interface is built).")
    commands = parser.add_subparsers(dest="command", parser_class=Parser)
    operations.add_parsers(commands)
    runs.add_parsers(commands, Parser)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    try:
        args = build_parser().parse_args(argv)
        if args.command is None:
            build_parser().print_help()
            return EXIT_OK
        if args.command in operations.OPERATIONS:
            return operations.run(args)
        return runs.run(args)
    except (UsageError, InvalidServerError) as exc:
        return fail(str(exc))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
