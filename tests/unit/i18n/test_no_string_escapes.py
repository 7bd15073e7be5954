"""No sentence of the command line, the importer or the exporter reaches a person without the catalogue:
string literals (and f-strings with words) passed to print/write or to an error a user reads are wrapped."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[3] / "inspector"
SCANNED = sorted([*PACKAGE.joinpath("cli").glob("*.py"), *PACKAGE.joinpath("traces").glob("*.py"),
                  *PACKAGE.joinpath("transfer").glob("*.py")])
USER_ERRORS = {"UsageError", "BadInputError", "CommandError", "StoreError", "UnknownRunError",
               "TraceExportError", "TraceDestinationError"}
#: Deliberately English: ending.py must work before the catalogue can load (its stderr line is the
#: translated sentence it is given); numbers.py is argparse's type checker (argparse's own words stay English).
ALLOWED_FILES = {"ending.py", "numbers.py"}
WORDS = re.compile(r"[A-Za-z]{2,}")


def _literal_words(node: ast.AST) -> str:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return " ".join(part.value for part in node.values if isinstance(part, ast.Constant))
    if isinstance(node, ast.BinOp):
        return _literal_words(node.left) + " " + _literal_words(node.right)
    return ""


def _escapes(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        if name in ("print", "write") or name in USER_ERRORS:
            text = _literal_words(node.args[0])
            if text.lstrip().startswith(('{"', '"', ',')):  # JSON being written: machine-readable, never translated
                continue
            if WORDS.search(text):
                found.append(f"{path.name}:{node.lineno}: {text[:60]!r}")
    return found


@pytest.mark.parametrize("path", SCANNED, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_literal_sentence_escapes_the_catalogue(path: Path) -> None:
    if path.name in ALLOWED_FILES:
        return
    assert _escapes(path) == []


def test_the_scan_finds_an_unwrapped_sentence(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text('print(f"Saved {url}.")\nprint(_("Saved {url}.").format(url=1))\n'
                      'raise UsageError("give RUN_ID")\n', encoding="utf-8")
    assert len(_escapes(sample)) == 2
