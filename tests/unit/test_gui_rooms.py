"""The window's rooms (../shared/design.md, issue 17) as a checked contract: the Runs tab and the
Workbench do not reach into each other, shared widgets belong to no room, and no class of the
window grows past about 300 lines (MainWindow, which only lays the rooms out, past about 250)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.unit.test_architecture import _imports

GUI = Path(__file__).resolve().parents[2] / "inspector" / "gui"
MODULES = sorted(GUI.rglob("*.py"))
#: What each room may import of the other parts of gui/ (the top-level modules are shared ground:
#: language, settings).
ROOMS = {
    "workbench": {"workbench", "widgets", "dialogs"},
    "runs": {"runs", "widgets", "dialogs"},
    "widgets": {"widgets"},
    "dialogs": {"dialogs", "widgets", "workbench"},
    # The Play tab starts a fresh demo server as the workbench's demo service does (its process).
    "play": {"play", "widgets", "dialogs", "workbench"},
}
CLASS_LIMIT = 320
MAIN_WINDOW_LIMIT = 260


def _room(path: Path) -> str | None:
    parts = path.relative_to(GUI).parts
    return parts[0] if len(parts) > 1 else None


def test_the_rooms_exist() -> None:
    assert {_room(path) for path in MODULES} >= set(ROOMS)


@pytest.mark.parametrize("path", [p for p in MODULES if _room(p)], ids=lambda p: str(p.relative_to(GUI)))
def test_a_room_imports_only_itself_the_shared_widgets_and_the_dialogs(path: Path) -> None:
    room = _room(path)
    reached = set()
    for name in _imports(path):
        parts = name.split(".")
        if parts[:2] == ["inspector", "gui"] and len(parts) > 3:
            reached.add(parts[2])
    assert reached <= ROOMS[room], f"{path.relative_to(GUI)} reaches into {sorted(reached - ROOMS[room])}"


def _class_lengths(path: Path) -> list[tuple[str, int]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [(node.name, node.end_lineno - node.lineno + 1) for node in ast.walk(tree)
            if isinstance(node, ast.ClassDef)]


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(GUI)))
def test_no_class_of_the_window_is_two_classes(path: Path) -> None:
    for name, length in _class_lengths(path):
        limit = MAIN_WINDOW_LIMIT if name == "MainWindow" else CLASS_LIMIT
        assert length <= limit, f"{name} in {path.relative_to(GUI)} has {length} lines (at most {limit})"


def test_the_contract_would_catch_a_long_class(tmp_path: Path) -> None:
    long_class = tmp_path / "long.py"
    long_class.write_text("class Big:\n" + "    x = 1\n" * 400)
    assert _class_lengths(long_class) == [("Big", 401)]
