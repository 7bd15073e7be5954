"""The pictures of a result, drawn: a row of tiles under the result's text, each scaled down to fit,
with a caption and a Full size button; a picture that cannot be drawn says why in plain text.

Used by the workbench's result pane and by a stored step's detail. Decoding and its bounds are
:mod:`inspector.gui.widgets.image_decode`'s; nothing here ever loads an address.
"""

from __future__ import annotations

from concurrent.futures import Future
from dataclasses import dataclass

from PySide6.QtCore import QRect, QSize, Qt, Signal
from PySide6.QtGui import QImage, QMouseEvent, QPainter, QPaintEvent, QPixmap
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from inspector.i18n import _, ngettext
from inspector.i18n.formatting import format_number, format_size

from ..language import on_language_changed, translated
from . import image_decode as images
from .plain_text import cell_text

#: The box a picture is scaled down into in the row of tiles.
PREVIEW = QSize(320, 200)


@dataclass(frozen=True)
class ShownImage:
    """A picture to show: where it came from (a URI or file name; may be empty), its MIME type as
    given, its base64 text (``None`` when it was not kept) and that text's length."""

    label: str
    mime_type: str
    data: str | None
    chars: int = 0


def problem_sentence(number: int, shown: ShownImage, decoded: images.Decoded) -> str:
    """Why picture ``number`` is not drawn, in a sentence."""
    problem, kind = decoded.problem, cell_text(shown.mime_type, 80) or _("(no type)")
    if problem == images.SVG:
        return _("Image {number} ({type}) is not drawn: an SVG image can load addresses and run scripts.").format(
            number=number, type=kind)
    if problem == images.UNKNOWN_TYPE:
        return _("Image {number} is not drawn: {type} is not a format this window draws (PNG, JPEG, GIF, "
                 "WebP).").format(number=number, type=kind)
    if problem == images.TOO_LARGE:
        return _("Image {number} is not drawn: its data ({size}) is larger than the {limit} this window "
                 "decodes.").format(number=number, size=format_size(shown.chars * 3 // 4),
                                    limit=format_size(images.MAX_BASE64_CHARS * 3 // 4))
    if problem == images.BAD_BASE64:
        return _("Image {number} is not drawn: its data is not valid base64.").format(number=number)
    if problem == images.NOT_AN_IMAGE:
        return _("Image {number} is not drawn: its data is not a PNG, JPEG, GIF or WebP image.").format(
            number=number)
    if problem == images.NO_READER:
        return _("Image {number} is not drawn: this installation cannot read {format} images.").format(
            number=number, format=images.FORMAT_NAMES.get(decoded.format or "", ""))
    if problem == images.TOO_MANY_PIXELS:
        return _("Image {number} is not drawn: it says it is {width} × {height} pixels, more than the "
                 "{limit} million pixels allowed.").format(
            number=number, width=format_number(decoded.width), height=format_number(decoded.height),
            limit=format_number(images.MAX_PIXELS // 1_000_000))
    return _("Image {number} is not drawn: its data is damaged or cut short.").format(number=number)


def caption(number: int, shown: ShownImage, decoded: images.Decoded | None) -> str:
    """The line under a picture: its number, size, format and where it came from."""
    source = cell_text(shown.label, 120)
    if decoded is None:
        text = _("Image {number}: decoding…").format(number=number)
    elif decoded.image is None:
        text = problem_sentence(number, shown, decoded)
    else:
        text = _("Image {number}: {width} × {height} pixels, {format}").format(
            number=number, width=format_number(decoded.width), height=format_number(decoded.height),
            format=images.FORMAT_NAMES.get(decoded.format or "", ""))
    if source:
        text = _("{caption} ({source})").format(caption=text, source=source)
    if decoded is not None and decoded.mismatch:
        text += "\n" + _("It says it is {type}, but its data is a {format} image.").format(
            type=cell_text(shown.mime_type, 80), format=images.FORMAT_NAMES.get(decoded.mismatch, ""))
    return text


class _Picture(QWidget):
    """A pixmap drawn scaled down to the widget's size (keeping its shape); a click asks for full size."""

    clicked = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.pixmap = QPixmap()
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)

    def set_image(self, image: QImage) -> None:
        self.pixmap = QPixmap.fromImage(image)
        self.setFixedSize(self.pixmap.size())
        self.update()

    def paintEvent(self, event: QPaintEvent) -> None:
        if not self.pixmap.isNull():
            QPainter(self).drawPixmap(QRect(0, 0, self.width(), self.height()), self.pixmap)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self.clicked.emit()


class ImageTile(QFrame):
    """One picture: decoded in a worker, drawn scaled down, captioned; Full size opens it whole."""

    #: The picture was decoded (or refused): the tile has its final size.
    settled = Signal()

    def __init__(self, number: int, shown: ShownImage, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.number, self.shown = number, shown
        self.decoded: images.Decoded | None = None
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.picture = _Picture()
        self.picture.hide()
        self.picture.clicked.connect(self.open_full_size)
        self.caption = QLabel()
        self.caption.setTextFormat(Qt.TextFormat.PlainText)
        self.caption.setWordWrap(True)
        self.caption.setMaximumWidth(PREVIEW.width())
        self.caption.setMinimumWidth(200)  # a tiny picture still gets a readable caption beside it
        self.caption.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.full_size = translated(QPushButton(), "setText", lambda: _("Full size"))
        self.full_size.clicked.connect(self.open_full_size)
        self.full_size.hide()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.picture, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(self.caption)
        layout.addWidget(self.full_size, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addStretch(1)
        self.pending: Future[images.Decoded] | None = images.request_decode(
            self, "_decoded", shown.data, shown.mime_type, shown.chars, PREVIEW)
        self.retranslate()
        on_language_changed(self, self.retranslate)

    def retranslate(self) -> None:
        text = caption(self.number, self.shown, self.decoded)
        self.caption.setText(text)
        self.picture.setAccessibleName(text.split("\n", 1)[0])
        self.full_size.setAccessibleName(_("Show image {number} at full size").format(number=self.number))

    def _decoded(self, decoded: images.Decoded) -> None:
        self.pending = None
        self.decoded = decoded
        if decoded.image is not None:
            self.picture.set_image(decoded.image)
            self.picture.show()
            self.full_size.show()
        self.retranslate()
        self.settled.emit()

    def cancel(self) -> None:
        """Let go of a decode not yet begun (the tile is being replaced)."""
        if self.pending is not None:
            self.pending.cancel()

    def open_full_size(self) -> None:
        if self.decoded is None or self.decoded.image is None:
            return
        dialog = FullSizeDialog(self.number, self.shown, self.window())
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.show()


class FullSizeDialog(QDialog):
    """One picture at its own size, scrollable; decoded again (the tile keeps only the small one)."""

    def __init__(self, number: int, shown: ShownImage, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.number, self.shown = number, shown
        self.setWindowTitle(_("Image {number}").format(number=number))
        self.label = QLabel(_("Image {number}: decoding…").format(number=number))
        self.label.setTextFormat(Qt.TextFormat.PlainText)
        self.label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.scroll = QScrollArea()
        self.scroll.setWidget(self.label)
        self.scroll.setWidgetResizable(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.scroll, 1)
        layout.addWidget(buttons)
        self.resize(800, 600)
        self.pending = images.request_decode(self, "_decoded", shown.data, shown.mime_type, shown.chars)

    def _decoded(self, decoded: images.Decoded) -> None:
        self.pending = None
        if decoded.image is None:
            self.label.setText(problem_sentence(self.number, self.shown, decoded))
            return
        self.label.setPixmap(QPixmap.fromImage(decoded.image))
        self.label.setAccessibleName(caption(self.number, self.shown, decoded).split("\n", 1)[0])
        self.scroll.setWidgetResizable(False)
        self.label.adjustSize()


class ImageStrip(QScrollArea):
    """The pictures of one result in a row (scrolling sideways when there are many); hidden when
    there are none. ``more`` counts pictures of the result that were not kept."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.tiles: list[ImageTile] = []
        self.more = 0
        self.source: object = None
        self.inner = QWidget()
        self.row = QHBoxLayout(self.inner)
        self.row.setContentsMargins(0, 0, 0, 0)
        self.note = QLabel()
        self.note.setTextFormat(Qt.TextFormat.PlainText)
        self.note.setWordWrap(True)
        self.note.setMinimumWidth(200)
        self.note.hide()
        self.row.addStretch(1)
        self.row.addWidget(self.note, 0, Qt.AlignmentFlag.AlignTop)
        self.setWidget(self.inner)
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        translated(self, "setAccessibleName", lambda: _("Images"))
        self.hide()
        on_language_changed(self, self._say_more)

    def show_images(self, shown: list[ShownImage], more: int = 0, source: object = None) -> None:
        """Show these pictures (in place of any before). ``source`` is what they came from: asked
        again for the same source (a repaint, a new language), the tiles stay as they are."""
        if source is not None and source is self.source:
            return
        self.source = source
        for tile in self.tiles:
            tile.cancel()
            self.row.removeWidget(tile)
            tile.deleteLater()
        self.tiles = [ImageTile(number, image) for number, image in enumerate(shown, start=1)]
        for position, tile in enumerate(self.tiles):
            self.row.insertWidget(position, tile, 0, Qt.AlignmentFlag.AlignTop)
            tile.settled.connect(self._fit)
        self.more = more
        self._say_more()
        self.setVisible(bool(self.tiles) or more > 0)
        self._fit()

    def _fit(self) -> None:
        """As tall as the tallest tile (and the sideways scroll bar): no more, so the text above
        keeps the room."""
        tallest = max([tile.sizeHint().height() for tile in self.tiles] + [self.note.sizeHint().height()])
        self.setFixedHeight(tallest + self.horizontalScrollBar().sizeHint().height() + 4)

    def _say_more(self) -> None:
        self.note.setText(ngettext("{count} more image is not shown.", "{count} more images are not shown.",
                                   self.more).format(count=self.more) if self.more else "")
        self.note.setVisible(self.more > 0)


__all__ = ["PREVIEW", "FullSizeDialog", "ImageStrip", "ImageTile", "ShownImage", "caption", "problem_sentence"]
