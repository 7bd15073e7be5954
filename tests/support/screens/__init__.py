"""Screens of a known size for Qt's offscreen platform (its own screen is 800×800).

``offscreen:configfile=FILE`` gives the platform the screens a JSON file names; the window's first
size depends on the screen, so tests say which one they mean."""

from __future__ import annotations

from collections.abc import MutableMapping
from pathlib import Path

FOLDER = Path(__file__).resolve().parent


def offscreen_platform(size: str) -> str:
    """The QT_QPA_PLATFORM value for an offscreen screen of ``size`` ("1920x1080", "1024x600")."""
    return f"offscreen:configfile={FOLDER / f'{size}.json'}"


def use_offscreen_screen(env: MutableMapping[str, str], size: str) -> None:
    """Make plain ``offscreen`` (what `make test` sets) a screen of ``size``; any other platform stays."""
    if env.get("QT_QPA_PLATFORM", "").strip() == "offscreen":
        env["QT_QPA_PLATFORM"] = offscreen_platform(size)
