"""The command line: every headless feature of Run Inspector is reachable from here."""

from __future__ import annotations

import os
import sys

from .common import EXIT_CANCELLED, EXIT_OK, UsageError, fail
from .parser import DEMOS, OPERATIONS, build_parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    try:
        args = build_parser().parse_args(argv)
        if args.command is None:
            from inspector.gui.app import run_window

            return run_window(args.window_db)
        # Imported on demand: `runs show` should not pay for the network stack, nor `call` for more.
        if args.command in OPERATIONS:
            from . import operations

            return operations.run(args)
        if args.command in DEMOS:
            from . import demos

            return demos.run(args)
        if args.command in ("export", "import"):
            from . import traces

            return traces.run(args)
        from . import runs

        return runs.run(args)
    except UsageError as exc:
        return fail(str(exc))
    except KeyboardInterrupt:  # outside an operation (e.g. a long `runs show`): just stop
        return EXIT_CANCELLED
    except BrokenPipeError:  # `runs show ... | head`: the reader has what it wanted
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
