"""Following the resource links a tool's answer carried: under the result, the links it holds, and
Read, which reads the chosen one from the same server (``resources/read``, an operation of its own).
Nothing is read before the user asks; every URI is shown as plain text."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QPushButton, QWidget

from inspector.i18n import _

from ..language import translated
from ..widgets.block_text import MAX_NAMED_BLOCKS
from ..widgets.plain_text import cell_text
from .operation_task import OperationTask


def resource_links(task: OperationTask | None) -> list[str]:
    """The URIs of the ``resource_link`` blocks of a finished tool call, in order, each once: of the
    blocks the result names (the first :data:`~..widgets.block_text.MAX_NAMED_BLOCKS`), so that
    thousands of links do not fill the list."""
    record = task.outcome.record if task is not None and task.outcome is not None else None
    blocks = getattr(getattr(record, "result", None), "blocks", ()) if task is not None and task.kind == "call" else ()
    links: list[str] = []
    for block in blocks[:MAX_NAMED_BLOCKS]:
        uri = block.get("uri") if isinstance(block, dict) and block.get("type") == "resource_link" else None
        if isinstance(uri, str) and uri and uri not in links:
            links.append(uri)
    return links


class LinkFollower(QWidget):
    """"Linked resources: [uri ▾] Read" — shown only for an answer with resource links."""

    #: Read was pressed: the server of the call the link came from, and the URI.
    read = Signal(object, str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.label = translated(QLabel(), "setText", lambda: _("Linked resources:"))
        self.links = QComboBox()
        translated(self.links, "setAccessibleName", lambda: _("Resource links in the answer"))
        self.read_button = translated(QPushButton(), "setText", lambda: _("Read"))
        translated(self.read_button, "setAccessibleName", lambda: _("Read the chosen linked resource"))
        self.read_button.clicked.connect(self._read)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 2, 0, 0)
        layout.addWidget(self.label)
        layout.addWidget(self.links, 1)
        layout.addWidget(self.read_button)
        self._task: OperationTask | None = None
        self._uris: list[str] = []
        self.show_task(None)

    def show_task(self, task: OperationTask | None) -> None:
        self._task = task
        self._uris = resource_links(task)
        self.links.clear()
        self.links.addItems([cell_text(uri, 200) for uri in self._uris])
        self.setVisible(bool(self._uris))

    def _read(self) -> None:
        index = self.links.currentIndex()
        if self._task is not None and 0 <= index < len(self._uris):
            self.read.emit(self._task.server, self._uris[index])

    def uris(self) -> list[str]:
        return list(self._uris)


__all__ = ["LinkFollower", "resource_links"]
