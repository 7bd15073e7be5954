"""The layers of ../shared/design.md as a checked contract: read every import of every module."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "inspector"

# What each layer may import from our own code. Anything not listed here may import nothing
# of ours except what is named.
ALLOWED = {
    "mcp": {"mcp"},
    "runs": {"runs"},
    "i18n": {"i18n", "runs"},
    "store": {"store", "runs", "i18n"},
    "traces": {"traces", "runs", "i18n"},
    "transfer": {"transfer", "traces", "store", "runs", "i18n"},
    "agent": {"agent", "runs", "mcp", "store"},
    # Runs beyond this machine's database: the outbox pushed to a collector, traces pulled by id.
    # The receiver and the recording proxy too (it forwards with httpx and records as the client does).
    "capture": {"capture", "transfer", "traces", "store", "runs", "i18n", "agent", "mcp"},
    "demo": {"demo", "i18n"},
    "gui": {"gui", "agent", "capture", "store", "traces", "transfer", "i18n", "runs", "mcp", "demo", "appinfo",
            "version", "logfile"},
    "cli": {"cli", "capture", "mcp", "runs", "store", "traces", "transfer", "agent", "i18n", "demo", "gui", "appinfo",
            "version", "logfile"},
    # The application id, name, version and icon files (read from `resources`, package data only).
    "appinfo": {"version"},
    "resources": set(),
    # The version (package metadata) and the error log file: leaves that `--version` and the error paths
    # load without the rest.
    "version": set(),
    "logfile": {"store", "traces"},
    "__main__": {"cli"},
    "__init__": set(),
}
# Single modules a layer may use beyond ALLOWED: the store keeps the sign-in model's values (tokens,
# clients, settings) between processes, and reads nothing else of the protocol layer. The traces layer
# describes a content list another tool wrote into a span as a live step's answer is described, and
# reads the JSON text a span's attribute holds with lone surrogates replaced as a server's answer is, and hides an
# address's password in an export where every other use reads it. The importer keeps the server a stranger's file
# names as a run made here keeps its own (no password, no query). The export removes the credential an option names
# (--token T) as a command server's name leaves it out (mcp.secret_names: one rule of such names). A step's details
# in the user's language cut after the sentence of ours a tool's error is stored behind, which the protocol layer
# writes (mcp.results). The schema step that gives the steps imported before a plumbing rule the marks a fresh
# import gives asks the importer's own rule (traces.plumbing_mark), loaded for that upgrade alone. The export reads
# a list of a command's arguments in a span as a command server's name reads its command line (mcp.command_line);
# a command server's name leaves out a credential known by its shape (sk-…) as the export does (traces.token_shapes:
# one rule, loaded when a word holds such a prefix), and a credential inside a word of several ('host=db password=P',
# sh -c 'srv --token T') as the export's text rule finds it (traces.redact, loaded when a command server is named).
# The schema steps that name a command server's older runs
# (and a configured one's key) without its credentials ask the rule an import keeps a server's key by
# (mcp.address_query), loaded for that upgrade alone.
ALLOWED_MODULES = {"store": {"inspector.mcp.signin.model", "inspector.traces.plumbing_mark",
                             "inspector.mcp.address_query"},
                   "i18n": {"inspector.mcp.results"},
                   "traces": {"inspector.mcp.results", "inspector.mcp.text", "inspector.mcp.user_info",
                              "inspector.mcp.secret_names", "inspector.mcp.command_line"},
                   "transfer": {"inspector.mcp.address_query"},
                   "mcp": {"inspector.traces.token_shapes", "inspector.traces.redact"}}
QT_MODULES = ("PySide6", "shiboken6", "PyQt5", "PyQt6")


def _layer(path: Path) -> str:
    relative = path.relative_to(PACKAGE)
    return relative.parts[0].removesuffix(".py")


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package_parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package_parts[: len(package_parts) - node.level]
                module = ".".join(base + ((node.module,) if node.module else ()))
            else:
                module = node.module or ""
            names.append(module)
    return names


MODULES = sorted(PACKAGE.rglob("*.py"))


def test_there_are_modules_to_check() -> None:
    assert len(MODULES) > 10


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_only_gui_imports_qt(path: Path) -> None:
    if _layer(path) == "gui":
        return
    offending = [name for name in _imports(path) if name.split(".")[0] in QT_MODULES]
    assert not offending, f"{path.relative_to(PACKAGE)} imports Qt ({offending}); only inspector/gui may"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_layers_point_one_way(path: Path) -> None:
    layer = _layer(path)
    allowed = ALLOWED.get(layer)
    assert allowed is not None, f"inspector/{layer} is not a layer of the design; add it to ALLOWED"
    ours = [name for name in _imports(path) if name == "inspector" or name.startswith("inspector.")]
    for name in ours:
        if name in ALLOWED_MODULES.get(layer, ()):
            continue
        parts = name.split(".")
        target = parts[1] if len(parts) > 1 else "__init__"
        assert target in allowed, (
            f"{path.relative_to(PACKAGE)} imports {name}: the {layer} layer may only use {sorted(allowed)}")


def test_the_checker_sees_relative_imports(tmp_path: Path) -> None:
    # Guard against a checker that silently sees nothing.
    imports = _imports(PACKAGE / "mcp" / "client.py")
    assert "inspector.mcp.cancel" in imports
    assert "httpx" in imports


# Third-party parts a layer must not use: it would be doing another layer's job.
FORBIDDEN = {
    "traces": ("sqlite3", "sqlite_utils", "httpx"),
    "runs": ("sqlite3", "sqlite_utils", "httpx"),
    "store": ("httpx",),
    "mcp": ("sqlite3", "sqlite_utils"),
}


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_layers_keep_to_their_job(path: Path) -> None:
    forbidden = FORBIDDEN.get(_layer(path), ())
    used = [name for name in _imports(path) if name.split(".")[0] in forbidden]
    assert not used, f"{path.relative_to(PACKAGE)} uses {used}, which is not the {_layer(path)} layer's job"
