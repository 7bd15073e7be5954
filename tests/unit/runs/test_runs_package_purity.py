"""inspector.runs depends on nothing of ours, no Qt and no I/O libraries."""

import ast
import subprocess
import sys
from pathlib import Path

import inspector.runs

PACKAGE_DIR = Path(inspector.runs.__file__).parent
# hashlib: the OpenTelemetry ids of a run are derived from its uid (trace_ids.py); ipaddress and urllib.parse:
# whether an address names this machine only (loopback.py), read from its text; json: a tool's structured
# content is bounded by the size of its JSON text (result.py); itertools and operator: a value's levels are
# walked in C (nesting.py). None of them does I/O.
ALLOWED_STDLIB = {"__future__", "collections", "dataclasses", "datetime", "enum", "hashlib", "ipaddress",
                  "itertools", "json", "math", "operator", "typing"}
#: Modules of a package whose other modules do I/O (urllib.request): allowed by their whole name.
ALLOWED_STDLIB_MODULES = {"urllib.parse"}


def _imports(path: Path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield 0, alias.name
        elif isinstance(node, ast.ImportFrom):
            yield node.level, node.module or ""


def test_modules_import_only_each_other_and_a_few_stdlib_modules():
    files = sorted(PACKAGE_DIR.glob("*.py"))
    assert len(files) >= 8
    for path in files:
        for level, module in _imports(path):
            if level:
                assert level == 1, f"{path.name} reaches outside the package: {'.' * level}{module}"
            else:
                assert module.split(".")[0] in ALLOWED_STDLIB or module in ALLOWED_STDLIB_MODULES, \
                    f"{path.name} imports {module}"


def test_importing_the_package_loads_no_other_inspector_package_or_qt():
    code = (
        "import sys, inspector.runs\n"
        "bad = sorted(m for m in sys.modules if (m.startswith('inspector.') and not m.startswith('inspector.runs'))"
        " or m.split('.')[0] in {'PySide6', 'httpx', 'sqlite3', 'sqlite_utils'})\n"
        "print(','.join(bad))\n"
    )
    output = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=PACKAGE_DIR.parent.parent
    )
    assert output.stdout.strip() == ""
