"""The Resources and Prompts tabs beside Tools: what the selected server offers besides tools.

Each button starts an operation (``OperationsEngine.offer``: a budget bar in the operations list,
cancellable, stored as a run, its legs in the Wire tab); its result shows in the result pane (a
resource's text, its picture drawn; a prompt's messages). Nothing is asked of a server before the
user presses a button. Every server text is plain (list items, labels).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from inspector.i18n import _
from inspector.mcp.offerings import Completion, Listing

from ..language import translated
from ..widgets.plain_text import cell_text
from .engine import OperationTask

#: ``submit(operation, params, title)``: the operation started for the selected server (``None``: no server).
Submit = Callable[[str, dict[str, Any], str], OperationTask | None]
_ITEM = Qt.ItemDataRole.UserRole


def _when_done(task: OperationTask | None, then: Callable[[Any], None]) -> None:
    """Call ``then(result)`` once ``task`` has ended with a result."""
    if task is None:
        return

    def finished(_outcome: object = None) -> None:
        record = task.outcome.record if task.outcome is not None else None
        if record is not None and record.result is not None:
            then(record.result)

    if task.outcome is not None:
        finished()
    else:
        task.finished.connect(finished)


def _button(text: Callable[[], str], name: Callable[[], str]) -> QPushButton:
    button = translated(QPushButton(), "setText", text)
    translated(button, "setAccessibleName", name)
    return button


class ResourcesPanel(QWidget):
    """The server's resources and templates; Read reads the URI in the field (a template's filled in)."""

    def __init__(self, submit: Submit, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._submit = submit
        self.items = QListWidget()
        translated(self.items, "setAccessibleName", lambda: _("Resources and resource templates"))
        self.uri = QLineEdit()
        translated(self.uri, "setPlaceholderText", lambda: _("URI to read (a template's variables filled in)"))
        translated(self.uri, "setAccessibleName", lambda: _("URI to read"))
        self.list_button = _button(lambda: _("List"), lambda: _("List the server's resources and templates"))
        self.read_button = _button(lambda: _("Read"), lambda: _("Read the resource at the URI"))
        self.list_button.clicked.connect(self.list_resources)
        self.read_button.clicked.connect(self.read)
        self.uri.returnPressed.connect(self.read)
        self.items.currentItemChanged.connect(self._chosen)
        row = QHBoxLayout()
        row.addWidget(self.uri, 1)
        row.addWidget(self.read_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.items, 1)
        layout.addLayout(row)
        layout.addWidget(self.list_button, 0, Qt.AlignmentFlag.AlignRight)

    def list_resources(self) -> None:
        self.items.clear()
        _when_done(self._submit("resources/list", {}, _("resources/list")), lambda found: self._add(found, "uri"))
        _when_done(self._submit("resources/templates/list", {}, _("resources/templates/list")),
                   lambda found: self._add(found, "uriTemplate"))

    def _add(self, listing: Listing, key: str) -> None:
        for entry in listing.items:
            address = str(entry.get(key, ""))
            title = entry.get("title") or entry.get("name")
            words = [address] + ([str(title)] if title and title != address else [])
            if key == "uriTemplate":
                words.insert(0, _("template:"))
            item = QListWidgetItem(cell_text(" · ".join(words), 200))
            item.setData(_ITEM, address)
            item.setToolTip(cell_text(str(entry.get("description") or address), 500))
            self.items.addItem(item)

    def _chosen(self, item: QListWidgetItem | None, _previous: object = None) -> None:
        if item is not None:
            self.uri.setText(str(item.data(_ITEM) or ""))

    def read(self) -> OperationTask | None:
        uri = self.uri.text().strip()
        if not uri:
            return None
        return self._submit("resources/read", {"uri": uri}, _("resources/read {uri}").format(uri=cell_text(uri, 80)))


class PromptsPanel(QWidget):
    """The server's prompts; a chosen prompt's arguments as fields (Suggest asks the server to
    complete one), and Get fills the prompt in."""

    def __init__(self, submit: Submit, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._submit = submit
        self.items = QListWidget()
        translated(self.items, "setAccessibleName", lambda: _("Prompts"))
        self.form_box = QWidget()
        self.form = QFormLayout(self.form_box)
        self.form.setContentsMargins(0, 0, 0, 0)
        self.fields: dict[str, QComboBox] = {}
        self.list_button = _button(lambda: _("List"), lambda: _("List the server's prompts"))
        self.get_button = _button(lambda: _("Get"), lambda: _("Get the prompt filled in with these arguments"))
        self.list_button.clicked.connect(self.list_prompts)
        self.get_button.clicked.connect(self.get)
        self.items.currentItemChanged.connect(self._chosen)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.get_button)
        buttons.addWidget(self.list_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.items, 1)
        layout.addWidget(self.form_box)
        layout.addLayout(buttons)
        self._chosen(None)

    def list_prompts(self) -> None:
        self.items.clear()
        _when_done(self._submit("prompts/list", {}, _("prompts/list")), self._add)

    def _add(self, listing: Listing) -> None:
        for entry in listing.items:
            name = str(entry.get("name", ""))
            item = QListWidgetItem(cell_text(name, 120))
            item.setData(_ITEM, entry)
            item.setToolTip(cell_text(str(entry.get("description") or name), 500))
            self.items.addItem(item)

    def current_prompt(self) -> dict[str, Any] | None:
        item = self.items.currentItem()
        entry = item.data(_ITEM) if item is not None else None
        return entry if isinstance(entry, dict) else None

    def _chosen(self, item: QListWidgetItem | None, _previous: object = None) -> None:
        while self.form.rowCount():
            self.form.removeRow(0)
        self.fields = {}
        prompt = self.current_prompt()
        listed = prompt.get("arguments") if prompt is not None else None
        for argument in listed if isinstance(listed, list) else ():
            if not isinstance(argument, dict) or not isinstance(argument.get("name"), str):
                continue
            name = argument["name"]
            field = QComboBox()
            field.setEditable(True)
            field.setAccessibleName(name)
            field.setToolTip(cell_text(str(argument.get("description") or ""), 500))
            suggest = _button(lambda: _("Suggest"),
                              lambda: _("Ask the server to complete this argument: its values go to the field's list"))
            suggest.clicked.connect(lambda _checked=False, name=name: self.suggest(name))
            row = QHBoxLayout()
            row.addWidget(field, 1)
            row.addWidget(suggest)
            label = QLabel(cell_text(name + (" *" if argument.get("required") else ""), 60))
            label.setTextFormat(Qt.TextFormat.PlainText)
            self.form.addRow(label, row)
            self.fields[name] = field
        self.get_button.setEnabled(prompt is not None)

    def arguments(self) -> dict[str, str]:
        return {name: field.currentText() for name, field in self.fields.items() if field.currentText()}

    def get(self) -> OperationTask | None:
        prompt = self.current_prompt()
        if prompt is None:
            return None
        name = str(prompt.get("name", ""))
        return self._submit("prompts/get", {"name": name, "arguments": self.arguments()},
                            _("prompts/get {name}").format(name=cell_text(name, 80)))

    def suggest(self, argument: str) -> OperationTask | None:
        prompt, field = self.current_prompt(), self.fields.get(argument)
        if prompt is None or field is None:
            return None
        typed = field.currentText()
        others = {name: value for name, value in self.arguments().items() if name != argument}
        task = self._submit("completion/complete", {"ref": {"type": "ref/prompt", "name": str(prompt.get("name"))},
                                                     "argument": argument, "value": typed, "context": others},
                            _("completion/complete {argument}").format(argument=cell_text(argument, 60)))

        def offer(found: Completion) -> None:
            if self.fields.get(argument) is field:
                field.clear()
                field.addItems([cell_text(value, 200) for value in found.values])
                field.setEditText(typed)  # the values wait in the field's list (its arrow)

        _when_done(task, offer)
        return task


__all__ = ["PromptsPanel", "ResourcesPanel"]
