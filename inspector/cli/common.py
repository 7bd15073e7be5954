"""What every command shares: usage errors, exit statuses, opening the store, safe printing."""

from __future__ import annotations

import argparse
import sys
from typing import NoReturn

from .safe_text import block

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from inspector.store import RunStore

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_CANCELLED = 130


class UsageError(Exception):
    """Bad input on the command line: reported in one line, exit status 2."""


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line and our exit status."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def open_store(option: str | None) -> RunStore:
    """Open the run database, or raise :class:`UsageError` saying why it cannot be used."""
    from inspector.store import RunStore, StoreError, resolve_db_path

    try:
        return RunStore.open(resolve_db_path(option))
    except StoreError as exc:
        raise UsageError(str(exc)) from None


def safe(text: str) -> str:
    """Server or file text on a terminal: no escape sequences, other control characters or
    bidirectional controls (see :mod:`.safe_text`; one-line fields use ``one_line``)."""
    return block(text)


def fail(message: str) -> int:
    print(f"run-inspector: {message}", file=sys.stderr)
    return EXIT_USAGE
