"""The Resources and Prompts tabs beside Tools: what the selected server offers besides tools.

Each button starts an operation (``OperationsEngine.offer``: a budget bar in the operations list,
cancellable, stored as a run, its legs in the Wire tab); its result shows in the result pane (a
resource's text, its picture drawn; a prompt's messages). Nothing is asked of a server before the
user presses a button. Every server text is plain (list items, labels). Subscribing to a resource
(where the server offers it) is :mod:`.subscribe_controls`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from inspector.i18n import _
from inspector.mcp.offerings import Listing

from ..language import on_language_changed, translated
from ..widgets.empty_hint import EmptyHint
from ..widgets.plain_text import cell_text
from .operation_task import OperationTask
from .subscribe_controls import BASE_TEXT, SubscribeControls
from .subscriptions import ResourceSubscriptions
from .suggesting_fields import (
    Submit,
    SuggestingFields,
    expand_template,
    problem_label,
    required_variables,
    template_variables,
    when_done,
)

_ITEM = Qt.ItemDataRole.UserRole


def _button(text: Callable[[], str], name: Callable[[], str]) -> QPushButton:
    button = translated(QPushButton(), "setText", text)
    translated(button, "setAccessibleName", name)
    return button


def _refused_again(problem: QWidget, refused: Callable[[], object]) -> None:
    """After a switch of language: a refusal shown is said again in the new language."""
    if not problem.isHidden():
        refused()


class ResourcesPanel(QWidget):
    """The server's resources and templates; Read reads the URI in the field (a template's filled in)."""

    def __init__(self, submit: Submit, subscriptions: ResourceSubscriptions | None = None,
                 parent: QWidget | None = None) -> None:
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
        # A template's variables, each with Suggest (completion/complete, ref/resource); they fill the URI.
        self.variables = SuggestingFields(submit)
        self.variables.changed.connect(self._fill_uri)
        self._template = ""
        #: Why Read sent nothing (a template's variable not filled in), under the address.
        self.problem = problem_label()
        self.uri.textChanged.connect(lambda _text: self.problem.hide())
        #: Which List press the rows shown answer (a later press or another server makes older answers stale).
        self._listing = 0
        row = QHBoxLayout()
        row.addWidget(self.uri, 1)
        row.addWidget(self.read_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.items, 1)
        layout.addWidget(self.variables)
        layout.addLayout(row)
        layout.addWidget(self.problem)
        #: Subscribe / Unsubscribe (where the window listens to the server), its updates.
        self.subscribe: SubscribeControls | None = None
        if subscriptions is not None:
            self.subscribe = SubscribeControls(submit, subscriptions, self.items, lambda: self.uri.text().strip())
            self.uri.textChanged.connect(self.subscribe.refresh)
            layout.addWidget(self.subscribe)
        layout.addWidget(self.list_button, 0, Qt.AlignmentFlag.AlignRight)
        self.variables.show_fields({}, [])
        on_language_changed(self, self._say_refusal_again)
        #: How many of the two listings answered since List was last pressed (None: never pressed).
        self._answered: int | None = None
        self.empty = EmptyHint(self.items, self._empty_words)

    def _empty_words(self) -> str:
        if self._answered is None:
            return _("Press List to ask the server for its resources and templates.")
        return _("The server listed no resources and no templates.") if self._answered == 2 else ""

    def forget(self, *_record: object) -> None:
        """Another server was chosen: what the last one listed (or lists still) is not this one's,
        nor the address it filled in."""
        self._answered = None
        self._listing += 1
        self.items.clear()
        self._template = ""
        self.variables.show_fields({}, [])
        self.uri.clear()
        self.empty.refresh()

    def list_resources(self) -> None:
        self._answered = 0
        self._listing += 1
        listing = self._listing
        self.items.clear()
        when_done(self._submit("resources/list", {}, _("resources/list")),
                  lambda found: self._add(found, "uri", listing))
        when_done(self._submit("resources/templates/list", {}, _("resources/templates/list")),
                  lambda found: self._add(found, "uriTemplate", listing))

    def _add(self, listing: Listing, key: str, asked: int) -> None:
        if asked != self._listing:
            return  # asked of the server chosen before, or before List was pressed again
        self._answered = (self._answered or 0) + 1
        for entry in listing.items:
            address = str(entry.get(key, ""))
            title = entry.get("title") or entry.get("name")
            words = [address] + ([str(title)] if title and title != address else [])
            if key == "uriTemplate":
                words[0] = _("template: {address}").format(address=address)
            item = QListWidgetItem(cell_text(" · ".join(words), 200))
            item.setData(BASE_TEXT, item.text())
            item.setData(_ITEM, address)
            item.setData(_ITEM + 1, key == "uriTemplate")
            item.setToolTip(cell_text(str(entry.get("description") or address), 500))
            self.items.addItem(item)
        self.empty.refresh()
        if self.subscribe is not None:
            self.subscribe.refresh()

    def _chosen(self, item: QListWidgetItem | None, _previous: object = None) -> None:
        if item is None:
            return
        address = str(item.data(_ITEM) or "")
        self._template = address if item.data(_ITEM + 1) else ""
        required = required_variables(self._template)
        self.variables.show_fields({"type": "ref/resource", "uri": address} if self._template else {},
                                   [(name, name in required, "") for name in template_variables(self._template)])
        self.uri.setText(address)

    def _fill_uri(self) -> None:
        if self._template:
            self.uri.setText(expand_template(self._template, self.variables.values()))

    def _say_refusal_again(self) -> None:
        _refused_again(self.problem, self._refused)

    def read(self) -> OperationTask | None:
        uri = self.uri.text().strip()
        if not uri:
            return None
        if self._refused():
            return None
        return self._submit("resources/read", {"uri": uri}, _("resources/read {uri}").format(uri=cell_text(uri, 80)))

    def _refused(self) -> bool:
        """Whether the address still holds a template's variables (no server can read
        "demo://notes/{index}"): then said under it and at each empty field, and nothing is sent."""
        left = template_variables(self.uri.text())
        if left:
            self.variables.problems()
            self.problem.setText(_("Nothing was sent: the URI still has the template's {names} in it; "
                                   "fill them in.").format(names=", ".join(f"{{{name}}}" for name in left)))
        self.problem.setVisible(bool(left))
        return bool(left)


class PromptsPanel(QWidget):
    """The server's prompts; a chosen prompt's arguments as fields (Suggest asks the server to
    complete one), and Get fills the prompt in."""

    def __init__(self, submit: Submit, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._submit = submit
        self.items = QListWidget()
        translated(self.items, "setAccessibleName", lambda: _("Prompts"))
        self.arguments_box = SuggestingFields(submit)
        self.arguments_box.changed.connect(lambda: self.problem.hide())
        #: Why Get sent nothing (a required argument left empty), under the fields.
        self.problem = problem_label()
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
        layout.addWidget(self.arguments_box)
        layout.addWidget(self.problem)
        layout.addLayout(buttons)
        on_language_changed(self, self._say_refusal_again)
        self._chosen(None)
        #: None: List was never pressed; False: asked, no answer yet; True: answered.
        self._answered: bool | None = None
        #: Which List press the rows shown answer (a later press or another server makes older answers stale).
        self._listing = 0
        self.empty = EmptyHint(self.items, lambda: (
            _("Press List to ask the server for its prompts.") if self._answered is None else
            _("The server listed no prompts.") if self._answered else ""))

    def forget(self, *_record: object) -> None:
        """Another server was chosen: what the last one listed (or lists still) is not this one's."""
        self._answered = None
        self._listing += 1
        self.items.clear()
        self.empty.refresh()

    def list_prompts(self) -> None:
        self._answered = False
        self._listing += 1
        listing = self._listing
        self.items.clear()
        when_done(self._submit("prompts/list", {}, _("prompts/list")), lambda found: self._add(found, listing))

    def _add(self, listing: Listing, asked: int) -> None:
        if asked != self._listing:
            return  # asked of the server chosen before, or before List was pressed again
        self._answered = True
        self.empty.refresh()
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
        prompt = self.current_prompt()
        listed = prompt.get("arguments") if prompt is not None else None
        fields = [(argument["name"], bool(argument.get("required")), str(argument.get("description") or ""))
                  for argument in (listed if isinstance(listed, list) else ())
                  if isinstance(argument, dict) and isinstance(argument.get("name"), str)]
        self.arguments_box.show_fields({"type": "ref/prompt", "name": str(prompt.get("name"))} if prompt else {},
                                       fields)
        self.problem.hide()
        self.get_button.setEnabled(prompt is not None)

    @property
    def fields(self) -> dict[str, QComboBox]:
        return self.arguments_box.fields

    def arguments(self) -> dict[str, str]:
        return self.arguments_box.values()

    def _say_refusal_again(self) -> None:
        _refused_again(self.problem, self._refused)

    def get(self) -> OperationTask | None:
        prompt = self.current_prompt()
        if prompt is None:
            return None
        if self._refused():
            return None
        name = str(prompt.get("name", ""))
        return self._submit("prompts/get", {"name": name, "arguments": self.arguments()},
                            _("prompts/get {name}").format(name=cell_text(name, 80)))

    def _refused(self) -> bool:
        """Whether an argument keeps the prompt from being sent: then said at its field and in a sentence."""
        problems = self.arguments_box.problems()
        lines = [_("{field}: {problem}").format(field=p.where(), problem=p.message) for p in problems]
        self.problem.setText("\n".join([_("Nothing was sent: fill in the arguments marked *.")] + lines))
        self.problem.setVisible(bool(problems))
        return bool(problems)

    def suggest(self, argument: str) -> OperationTask | None:
        return self.arguments_box.suggest(argument)


__all__ = ["PromptsPanel", "ResourcesPanel"]
