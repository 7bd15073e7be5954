"""The outcome vocabulary's colours, in one place: every bar, mark and word of an outcome takes its colour here.

The hues are Okabe–Ito's, safe for colour-blind readers: bluish green for ok, vermillion for failed,
blue for cancelled, sky blue for running. Hue alone is lost on a greyscale screen or print (ok and
failed have nearly the same lightness there), so the fills of bars also differ in **lightness**: ok
is the light one (a neighbouring ok leg lighter still), failed a deep vermillion, a time-out deeper
still, and cancelled is told by its **hatching**. The Grayscale8 levels (Qt's conversion) are
ok 139 / 168, failed 95, timed out 73, cancelled 109 under white stripes.

Words and the outcome icons take a shade of their hue that reaches WCAG's 4.5:1 on the background
they are drawn on: darker on a light background, lighter on a dark palette (:func:`text_colour`).
A label drawn on a fill is white or near black, whichever reads better on it (:func:`label_colour`).
"""

from __future__ import annotations

from functools import lru_cache

from PySide6.QtGui import QColor, QGuiApplication, QPalette

from .hints import contrast_ratio

#: Okabe–Ito: what each outcome is named by (gui.md's table).
OK_HUE = QColor("#009E73")
FAILED_HUE = QColor("#D55E00")
CANCELLED_HUE = QColor("#0072B2")
RUNNING_HUE = QColor("#56B4E9")
INTERRUPTED_HUE = QColor("#999999")
#: A step with no outcome recorded.
NEUTRAL = QColor("#8A8A8A")

#: Fills of bars: one lightness each (see the module's docstring).
OK_FILL = OK_HUE
#: A neighbouring ok (or running) leg: lighter, never toward failed's darkness.
OK_FILL_SHADE = QColor("#4DBB96")
FAILED_FILL = QColor("#9C4500")
TIMED_OUT_FILL = QColor("#7A3500")
CANCELLED_FILL = CANCELLED_HUE
#: A ``server/discover`` probe whose refusal or silence found the handshake era: neither ok nor failed.
#: A light neutral grey (Grayscale8 214: 46 levels above ok's lighter shade, far from failed) inside
#: a dark grey outline, which keeps it apart from the track (240) in greyscale too.
ERA_FOUND_FILL = QColor("#D6D6D6")
ERA_FOUND_EDGE = QColor("#5A5A5A")

HUES = {"ok": OK_HUE, "failed": FAILED_HUE, "cancelled": CANCELLED_HUE, "running": RUNNING_HUE,
        "interrupted": INTERRUPTED_HUE}
FILLS = {"ok": OK_FILL, "failed": FAILED_FILL, "timed_out": TIMED_OUT_FILL, "cancelled": CANCELLED_FILL,
         "running": RUNNING_HUE, "interrupted": INTERRUPTED_HUE}

#: What a word reaches on its background: WCAG 2.x AA asks 4.5:1 for normal text; the room above it is for
#: antialiasing, which draws thin strokes a little lighter than their colour (4.6 showed as 4.3 in a table).
TEXT_CONTRAST = 5.0
LABEL_DARK = QColor("#1A1A1A")
LABEL_LIGHT = QColor("#FFFFFF")


def fill_colour(outcome: str | None) -> QColor | None:
    """The fill of an outcome's bar (``timed_out`` too), or ``None`` for no outcome."""
    return FILLS.get(outcome or "")


def text_colour(outcome: str | None, background: QColor | None = None) -> QColor | None:
    """The outcome's word (and icon) colour on ``background`` (the application's base colour if none
    is given): its hue, darkened or lightened until it reaches :data:`TEXT_CONTRAST`. A time-out,
    a refusal and a tool error are failed. ``None`` for no outcome."""
    hue = HUES.get("failed" if outcome in ("timed_out", "refused", "tool_error") else outcome or "")
    return None if hue is None else readable_shade(hue, background)


def readable_shade(colour: QColor, background: QColor | None = None) -> QColor:
    """``colour`` darkened (on a light ``background``) or lightened (on a dark one) until text in it
    reaches :data:`TEXT_CONTRAST`'s contrast; ``background`` defaults to the application's base colour."""
    if background is None:
        background = _base()
    return QColor.fromRgba(_readable(colour.rgba(), background.rgba()))


def label_colour(fill: QColor) -> QColor:
    """White or near black, whichever reads better on ``fill``."""
    return max((LABEL_LIGHT, LABEL_DARK), key=lambda colour: contrast_ratio(colour, fill))


def is_dark(colour: QColor) -> bool:
    return colour.lightnessF() < 0.5


def _base() -> QColor:
    app = QGuiApplication.instance()
    if app is None:
        return QColor("white")
    return QGuiApplication.palette().color(QPalette.ColorRole.Base)


@lru_cache(maxsize=256)
def _readable(hue_rgba: int, background_rgba: int) -> int:
    hue, background = QColor.fromRgba(hue_rgba), QColor.fromRgba(background_rgba)
    toward = 255 if is_dark(background) else 0  # lighter on a dark background, darker on a light one
    shade = QColor(hue)
    for step in range(1, 101):
        if contrast_ratio(shade, background) >= TEXT_CONTRAST:
            break
        share = step / 100
        shade = QColor(round(hue.red() * (1 - share) + toward * share),
                       round(hue.green() * (1 - share) + toward * share),
                       round(hue.blue() * (1 - share) + toward * share))
    return shade.rgba()


__all__ = ["CANCELLED_FILL", "CANCELLED_HUE", "ERA_FOUND_EDGE", "ERA_FOUND_FILL", "FAILED_FILL", "FAILED_HUE",
           "FILLS", "HUES", "NEUTRAL",
           "OK_FILL", "OK_FILL_SHADE", "OK_HUE", "RUNNING_HUE", "TEXT_CONTRAST", "TIMED_OUT_FILL",
           "fill_colour", "label_colour", "readable_shade", "text_colour"]
