"""The window's layout across launches: its geometry and the state of each named splitter."""

from __future__ import annotations

from PySide6.QtWidgets import QSplitter, QWidget

from .settings import AppSettings


def restore_layout(window: QWidget, splitters: dict[str, QSplitter], settings: AppSettings) -> None:
    """Give the window and its splitters what the settings remember (what they do not, stays)."""
    geometry = settings.restore_bytes("geometry")
    if geometry is not None:
        window.restoreGeometry(geometry)
    for name, splitter in splitters.items():
        state = settings.restore_bytes(f"splitter-{name}")
        if state is not None:
            splitter.restoreState(state)


def save_layout(window: QWidget, splitters: dict[str, QSplitter], settings: AppSettings) -> None:
    """Remember the window's geometry and its splitters' states."""
    settings.save_bytes("geometry", window.saveGeometry())
    for name, splitter in splitters.items():
        settings.save_bytes(f"splitter-{name}", splitter.saveState())
    settings.sync()


__all__ = ["restore_layout", "save_layout"]
