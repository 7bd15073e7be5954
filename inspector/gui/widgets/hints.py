"""Hint text that can be read: grey, but with at least the contrast WCAG AA asks of normal text (4.5:1).

A hint used to be a disabled label (light grey, about 1.6:1 on the window, and announced as
"unavailable" by screen readers) and a placeholder Qt draws at half opacity (about 4:1). Here a hint
label stays enabled and gets a grey mixed from the palette's own text and background colours, as
light as the contrast allows, so a dark palette gets a readable grey too; placeholders likewise.
"""

from __future__ import annotations

from functools import lru_cache

from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QLabel, QLineEdit, QPlainTextEdit, QWidget

#: The contrast a hint must reach (WCAG 2.x AA for normal text), with a little room for rounding.
MINIMUM_CONTRAST = 4.5
TARGET_CONTRAST = 4.6

#: The property that marks a label as a hint (tests and styles find hints by it).
HINT_PROPERTY = "hint"

#: The colour of a problem said next to what was typed (a field's error, a form's refusal): every form the same.
PROBLEM_STYLE = "color: #B84A00;"


def _channel(value: float) -> float:
    value /= 255.0
    return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4


def relative_luminance(colour: QColor) -> float:
    """WCAG's relative luminance of an opaque colour."""
    return 0.2126 * _channel(colour.red()) + 0.7152 * _channel(colour.green()) + 0.0722 * _channel(colour.blue())


def over(foreground: QColor, background: QColor) -> QColor:
    """``foreground`` as it shows over ``background`` (its alpha blended away)."""
    alpha = foreground.alphaF()
    return QColor(round(foreground.red() * alpha + background.red() * (1 - alpha)),
                  round(foreground.green() * alpha + background.green() * (1 - alpha)),
                  round(foreground.blue() * alpha + background.blue() * (1 - alpha)))


def contrast_ratio(foreground: QColor, background: QColor) -> float:
    """WCAG's contrast ratio (1 to 21) of text in ``foreground`` on ``background``."""
    lighter, darker = sorted((relative_luminance(over(foreground, background)), relative_luminance(background)),
                             reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def readable_grey(text: QColor, background: QColor, target: float = TARGET_CONTRAST) -> QColor:
    """The colour between ``text`` and ``background`` nearest the background that still reaches ``target``
    (``text`` itself if even it does not)."""
    return QColor.fromRgba(_readable_grey(text.rgba(), background.rgba(), target))


@lru_cache(maxsize=256)
def _readable_grey(text_rgba: int, background_rgba: int, target: float) -> int:
    # Remembered by the two colours: every hint and placeholder of a form asks the same (a tool's
    # form built anew when a tool is chosen asked 14 times, 646 contrast ratios: 40 ms).
    text, background = QColor.fromRgba(text_rgba), QColor.fromRgba(background_rgba)
    best = QColor(text)
    best.setAlpha(255)
    for step in range(1, 101):
        share = step / 100  # how much of the background is mixed in
        mixed = QColor(round(text.red() * (1 - share) + background.red() * share),
                       round(text.green() * (1 - share) + background.green() * share),
                       round(text.blue() * (1 - share) + background.blue() * share))
        if contrast_ratio(mixed, background) < target:
            break
        best = mixed
    return best.rgba()


def mark_hint(label: QLabel) -> QLabel:
    """Show ``label`` as a hint: a readable grey on the window's background, and not disabled."""
    label.setEnabled(True)
    label.setProperty(HINT_PROPERTY, True)
    palette = label.palette()
    grey = readable_grey(palette.color(QPalette.ColorRole.WindowText), palette.color(QPalette.ColorRole.Window))
    for group in (QPalette.ColorGroup.Active, QPalette.ColorGroup.Inactive):
        palette.setColor(group, QPalette.ColorRole.WindowText, grey)
    label.setPalette(palette)
    return label


def readable_placeholder(edit: QLineEdit | QPlainTextEdit) -> QLineEdit | QPlainTextEdit:
    """Give ``edit``'s placeholder a grey that reaches the contrast on the field's background."""
    palette = edit.palette()
    for group in (QPalette.ColorGroup.Active, QPalette.ColorGroup.Inactive):
        base = palette.color(group, QPalette.ColorRole.Base)
        palette.setColor(group, QPalette.ColorRole.PlaceholderText,
                         readable_grey(palette.color(group, QPalette.ColorRole.Text), base))
    edit.setPalette(palette)
    return edit


def readable_placeholders(root: QWidget) -> None:
    """:func:`readable_placeholder` for every line edit and text box in ``root``."""
    for edit in root.findChildren(QLineEdit) + root.findChildren(QPlainTextEdit):
        readable_placeholder(edit)


__all__ = ["HINT_PROPERTY", "MINIMUM_CONTRAST", "contrast_ratio", "mark_hint", "readable_grey",
           "readable_placeholder", "readable_placeholders"]
