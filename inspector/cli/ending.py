"""How a command ends: one line on stderr, and with ``--json`` exactly one JSON object on stdout.

Light on purpose (standard library only): it must work when a Ctrl-C stopped the rest of the
command line from loading.
"""

from __future__ import annotations

import codecs
import json
import os
import sys
from typing import Any

from .reader_gone import said_whatever_the_reader
from .safe_text import one_line

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_CANCELLED = 130

#: Has this process printed its one JSON object yet? (Set by :func:`emit_json`.)
_json_emitted = False


def wants_json(argv: list[str]) -> bool:
    """``--json`` among the options, before the arguments are parsed (or when they cannot be)."""
    for item in argv:
        if item == "--":
            return False
        if item == "--json":
            return True
    return False


def fit_output() -> None:
    """Standard output and standard error never fail on a character they cannot say.

    Under ``LANG=C`` (without Python's UTF-8 coercion) or a Latin-1 locale, standard output cannot
    encode an emoji in a tool's name, nor any output a lone surrogate: such a character is written
    as its backslash escape (``\\U0001f680``) instead of ending the command with a traceback.
    JSON never needs that (:func:`json_text` escapes what the output cannot say)."""
    if sys.stdout is None:  # started with standard output closed (`>&-`): no one reads it
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 (it lasts as long as the process)
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w")  # noqa: SIM115
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.reconfigure(errors="backslashreplace")  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):  # not a text file of ours (a test's StringIO), or closed
            pass


def json_text(value: Any) -> str:
    """``value`` as JSON text for standard output: as it is on a UTF-8 output, with every non-ASCII
    character as a ``\\u`` escape on one that is not (a Latin-1 or ASCII locale), so that the JSON
    stays whole and means the same to its reader. A NaN or an infinity (a server's answer read leniently:
    ``"ratio": NaN``) is written as its protobuf JSON text (``"NaN"``), as stored runs and exports spell it:
    JSON has no such number, and a script's reader would refuse the whole answer."""
    try:
        return json.dumps(value, ensure_ascii=not _unicode_output(), allow_nan=False)
    except ValueError:
        from inspector.runs.finite import finite_json

        return json.dumps(finite_json(value), ensure_ascii=not _unicode_output())


def _unicode_output() -> bool:
    try:
        return codecs.lookup(getattr(sys.stdout, "encoding", None) or "ascii").name.startswith("utf")
    except LookupError:
        return False


def emit_json(document: dict[str, Any]) -> None:
    """Print the one JSON object of this run of the command."""
    global _json_emitted
    _json_emitted = True
    sys.stdout.write(json_text(document) + "\n")
    sys.stdout.flush()


def begin_command() -> None:
    """A command begins: it owes its own JSON object (a process may run several, as tests do)."""
    global _json_emitted
    _json_emitted = False


def mark_json_emitted() -> None:
    """For output written piece by piece: the object has begun, no other may follow."""
    global _json_emitted
    _json_emitted = True


def json_emitted() -> bool:
    return _json_emitted


def end_with_error(kind: str, message: str, status: int, as_json: bool, shown: str | None = None) -> int:
    """Say what went wrong in one line (and as the JSON object, if one is owed); return ``status``.

    ``message`` is the English sentence of the JSON object; ``shown`` the same in the language of
    the readable output (defaults to ``message``), shown as one line: a file's name or a server's words
    inside it cannot colour the terminal, forge a line or turn text around."""
    print(f"run-inspector: {one_line(message if shown is None else shown)}", file=sys.stderr)
    if as_json and not _json_emitted:
        said_whatever_the_reader(emit_json, {"error": {"kind": kind, "message": message}})
    return status


def end_cancelled(argv: list[str], as_json: bool | None = None) -> int:
    """A Ctrl-C outside an operation (while loading, parsing, or reading the database)."""
    as_json = wants_json(argv) if as_json is None else as_json
    if as_json and not _json_emitted:
        cancelled = "Cancelled (Ctrl-C) before the command had done its work."
        said_whatever_the_reader(emit_json, {"error": {"kind": "cancelled", "message": cancelled}})
    return EXIT_CANCELLED
