"""Who is asking, in a server's dialog: a header band the server's text cannot imitate.

A question or sampling dialog opens because a server asked; the server chooses every word of
its message, and could write "Server: bank — https://bank.example" in it. So the dialog names
the asker in a part the window draws from its own record of the operation (an
:class:`~inspector.gui.workbench.asking.Asker`): a framed band with an icon and a coloured edge,
with fixed-format lines (server, address, operation). The server's words go below, in a box of
their own labelled "The server says:", always as plain text with controls made visible.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import (
    QDialog,
    QFrame,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QStyle,
    QVBoxLayout,
    QWidget,
)

from inspector.i18n import _
from inspector.i18n.formatting import format_time
from inspector.i18n.messages import translate

from ..language import on_language_changed, translated
from ..widgets.plain_text import cell_text
from ..workbench.asking import Asker

#: The most characters of one header value (a server's name, an address, a tool's name).
HEADER_VALUE_CHARS = 120
#: Drawn by us: the window's palette, a strong left edge, a frame; no server text can draw this.
HEADER_STYLE = ("QFrame#askerHeader { background: palette(alternate-base); border: 1px solid palette(mid);"
                " border-left: 6px solid palette(highlight); border-radius: 3px; }")


def _value(text: str) -> QLabel:
    label = QLabel(text)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    label.setWordWrap(True)
    return label


def asker_server(asker: Asker | None, fallback: str = "") -> str:
    """How a dialog's title names the server: its name, else its address (one line, controls visible)."""
    if asker is None:
        return cell_text(fallback or _("(unnamed)"), HEADER_VALUE_CHARS)
    # A name of ours (the fresh demo server's) in the reader's language; a configured one as it is.
    return cell_text(translate(asker.server_name) or asker.server_url, HEADER_VALUE_CHARS)


def operation_text(asker: Asker | None) -> str:
    """The operation as the header names it: title, run number (as the Server log and the Runs tab
    show it) and the time it started."""
    if asker is None:
        return _("none known (not tied to an operation of this window)")
    title = cell_text(asker.title, HEADER_VALUE_CHARS)
    started = format_time(asker.started)
    if asker.run_id is None:
        return _("{title} · started {time}").format(title=title, time=started)
    return _("{title} · run\u00a0{run_id} · started {time}").format(title=title, run_id=asker.run_id, time=started)


class AskerHeader(QFrame):
    """The band at the top of a server's dialog naming the server, its address and the operation."""

    def __init__(self, asker: Asker | None, server: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.asker = asker
        self._server = server
        self.setObjectName("askerHeader")
        self.setStyleSheet(HEADER_STYLE)
        layout = QGridLayout(self)
        layout.setContentsMargins(14, 8, 10, 8)
        icon = QLabel()
        size = self.style().pixelMetric(QStyle.PixelMetric.PM_MessageBoxIconSize)
        icon.setPixmap(self.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxQuestion).pixmap(size, size))
        icon.setAlignment(Qt.AlignmentFlag.AlignTop)
        layout.addWidget(icon, 0, 0, 4, 1)
        self.caption = translated(_value(""), "setText", lambda: _("Who is asking (named by Run Inspector)"))
        bold = self.caption.font()
        bold.setBold(True)
        self.caption.setFont(bold)
        layout.addWidget(self.caption, 0, 1, 1, 2)
        self.server_label, self.server = _value(""), _value("")
        self.address_label, self.address = _value(""), _value("")
        self.operation_label, self.operation = _value(""), _value("")
        for row, (name, value) in enumerate(((self.server_label, self.server), (self.address_label, self.address),
                                             (self.operation_label, self.operation)), start=1):
            name.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop)
            layout.addWidget(name, row, 1)
            layout.addWidget(value, row, 2)
        layout.setColumnStretch(2, 1)
        self.retranslate()
        on_language_changed(self, self.retranslate)

    def retranslate(self) -> None:
        asker = self.asker
        self.server_label.setText(_("Server:"))
        self.address_label.setText(_("Address:"))
        self.operation_label.setText(_("Operation:"))
        if asker is None:
            self.server.setText(cell_text(self._server or _("(unnamed)"), HEADER_VALUE_CHARS))
            self.address.setText(_("not known"))
        else:
            self.server.setText(cell_text(translate(asker.server_name) or _("(unnamed)"), HEADER_VALUE_CHARS))
            self.address.setText(cell_text(asker.server_url, HEADER_VALUE_CHARS))
        self.operation.setText(operation_text(asker))
        self.setAccessibleName(_("Who is asking: server {server}, address {address}, operation {operation}").format(
            server=self.server.text(), address=self.address.text(), operation=self.operation.text()))


def server_says(content: QWidget, *more: QWidget) -> QGroupBox:
    """The framed box for what the server wrote, labelled as the server's (never our header)."""
    box = translated(QGroupBox(), "setTitle", lambda: _("The server says:"))
    layout = QVBoxLayout(box)
    for widget in (content, *more):
        layout.addWidget(widget)
    return box


def stop_asking_button(asker: Asker | None) -> QPushButton:
    """"Stop asking for this operation": this request is declined, and every later one without a dialog."""
    button = translated(QPushButton(), "setText", lambda: _("Stop asking for this operation"))
    translated(button, "setToolTip", lambda: _(
        "Decline this request, and every later request of this operation without asking you "
        "(each is noted in the Server log)."))
    button.setEnabled(asker is not None)
    return button


def button_row(stop: QPushButton, buttons: QWidget) -> QHBoxLayout:
    """The dialog's buttons, with "Stop asking" set apart on the left (it says more than no)."""
    row = QHBoxLayout()
    row.addWidget(stop)
    row.addStretch(1)
    row.addWidget(buttons)
    return row


def close_with_operation(dialog: QDialog, asker: Asker | None) -> None:
    """Close ``dialog`` (as its Esc does: cancelled or refused) when the operation ends or is cancelled."""
    if asker is None:
        return

    def over(*_args: object) -> None:
        if dialog.isVisible():
            dialog.reject()

    # Connected through a child of the dialog: the connection ends with the dialog.
    relay = _Relay(dialog, over)
    for ending in asker.ends():
        ending.connect(relay.fire)


class _Relay(QObject):
    """A child of the dialog whose slot closes it; deleted (and disconnected) with the dialog."""

    def __init__(self, dialog: QDialog, slot: Callable[[], None]) -> None:
        super().__init__(dialog)
        self._slot = slot

    def fire(self, *_args: object) -> None:
        self._slot()
