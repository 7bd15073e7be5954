"""``scenario`` and ``agent``: agent runs from the command line (being built)."""

from __future__ import annotations

import argparse

from .common import UsageError


def run(args: argparse.Namespace) -> int:
    raise UsageError(f"The {args.command} command is not available in this build yet.")
