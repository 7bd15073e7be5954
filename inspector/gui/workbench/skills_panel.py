"""The Skills tab beside Resources and Prompts: the selected server's skills (SEP-2640).

**List** lists them (``skills/list``; no file is read). Choosing one shows its entry: the
frontmatter field by field and its files with size and SHA-256 digest, as the listing gave them.
**Load** reads its files and verifies each against that entry (an operation of its own:
``skills/load``); the verified SKILL.md is shown as plain text, and a failed verification is said
in words (which file, what differed), with nothing of the mismatching content shown. Every server
text is plain.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from inspector.i18n import _
from inspector.i18n.formatting import format_size
from inspector.i18n.messages import translate
from inspector.i18n.words import marked_outcome_text
from inspector.mcp.skill_entries import SkillEntry, read_entry

from ..language import on_language_changed, translated
from ..widgets.plain_text import cell_text, clip_text, label_text, plain_tooltip
from ..widgets.tab_stops import one_tab_stop
from .operation_task import OperationTask
from .suggesting_fields import Submit

_ENTRY = Qt.ItemDataRole.UserRole
#: The files table's column of each file's digest (the last: it takes the room left).
DIGEST_COLUMN = 3


def _table(name: Any, headers: Any) -> QTableWidget:
    table = one_tab_stop(QTableWidget(0, len(headers())))
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.verticalHeader().setVisible(False)
    table.setWordWrap(False)  # one line a row; the whole text is the cell's tooltip
    table.setTextElideMode(Qt.TextElideMode.ElideRight)
    table.verticalHeader().setDefaultSectionSize(table.fontMetrics().height() + 6)
    header = table.horizontalHeader()
    header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    header.setSectionResizeMode(table.columnCount() - 1, QHeaderView.ResizeMode.Stretch)  # no sideways scrolling
    table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    translated(table, "setAccessibleName", name)
    translated(table, "setHorizontalHeaderLabels", headers)
    return table


def _cell(text: str) -> QTableWidgetItem:
    item = QTableWidgetItem(cell_text(text, 200))
    item.setToolTip(plain_tooltip(clip_text(text, 2000)))
    return item


def _value(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


class SkillsPanel(QWidget):
    """The server's skills, a chosen one's entry, and Load (read and verify)."""

    def __init__(self, submit: Submit, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._submit = submit
        self.task: OperationTask | None = None
        self.items = QListWidget()
        self.items.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.items.setTextElideMode(Qt.TextElideMode.ElideRight)
        translated(self.items, "setAccessibleName", lambda: _("Skills"))
        self.frontmatter = _table(lambda: _("Frontmatter of the chosen skill"), lambda: [_("Field"), _("Value")])
        # "Digest", not "SHA-256 digest": the column is the one left over, and the longer heading was cut
        # at the window's default size ("A-256-Prüfsumr" in German); each digest says "sha256:", the
        # heading's tip says the rest.
        self.files = _table(lambda: _("Files of the chosen skill"),
                            lambda: [_("File"), _("Size"), _("Checked"), _("Digest")])
        self.state = QLabel()
        self.state.setTextFormat(Qt.TextFormat.PlainText)
        self.state.setWordWrap(True)
        self.state.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.skill_md = QPlainTextEdit()
        self.skill_md.setReadOnly(True)
        translated(self.skill_md, "setAccessibleName", lambda: _("SKILL.md, verified"))
        translated(self.skill_md, "setPlaceholderText", lambda: _("Load reads the skill's files and checks each "
                                                                 "against the listing; SKILL.md shows here."))
        self.list_button = translated(QPushButton(), "setText", lambda: _("List"))
        translated(self.list_button, "setAccessibleName", lambda: _("List the server's skills"))
        self.load_button = translated(QPushButton(), "setText", lambda: _("Load"))
        translated(self.load_button, "setAccessibleName", lambda: _("Load the skill: read its files and verify them"))
        self.list_button.clicked.connect(self.list_skills)
        self.load_button.clicked.connect(self.load)
        self.items.currentItemChanged.connect(self._chosen)
        self._words: Callable[[], str] = lambda: ""
        #: The listing the rows shown answer (``None``: none, or another server was chosen since).
        self._listing: OperationTask | None = None
        self._layout()
        self._chosen(None)
        on_language_changed(self, self._redraw)

    def _layout(self) -> None:
        left = QWidget()
        column = QVBoxLayout(left)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.items, 1)
        column.addWidget(self.list_button, 0, Qt.AlignmentFlag.AlignRight)
        entry = QWidget()
        middle = QVBoxLayout(entry)
        middle.setContentsMargins(0, 0, 0, 0)
        middle.addWidget(self.frontmatter, 2)
        middle.addWidget(self.files, 3)
        right = QWidget()
        loaded = QVBoxLayout(right)
        loaded.setContentsMargins(0, 0, 0, 0)
        # The state's words (a failure names two digests) scroll rather than push SKILL.md out of sight.
        said = QScrollArea()
        said.setWidget(self.state)
        said.setWidgetResizable(True)
        said.setFrameShape(QFrame.Shape.NoFrame)
        said.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        said.setMaximumHeight(self.state.fontMetrics().lineSpacing() * 5 + 4)
        row = QHBoxLayout()
        row.addWidget(said, 1)
        row.addWidget(self.load_button, 0, Qt.AlignmentFlag.AlignTop)
        loaded.addLayout(row)
        loaded.addWidget(self.skill_md, 1)
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        for part in (left, entry, right):
            self.splitter.addWidget(part)
        self.splitter.setSizes([220, 360, 390])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.splitter)

    # -- listing ------------------------------------------------------------------------------------

    def forget(self, *_record: object) -> None:
        """Another server was chosen: what the last one listed, listed still or loaded is not this one's."""
        self._listing = None
        self.task = None
        self.items.clear()
        self._redraw()

    def list_skills(self) -> OperationTask | None:
        self.items.clear()
        task = self._listing = self._submit("skills/list", {}, _("skills/list"))
        if task is not None:
            task.finished.connect(lambda _outcome: self._listed(task))
            if task.outcome is not None:
                self._listed(task)
        return task

    def _listed(self, task: OperationTask) -> None:
        if task is not self._listing:
            return  # asked of the server chosen before, or before List was pressed again
        record = task.outcome.record if task.outcome is not None else None
        if record is None or record.result is None:
            self._say(lambda: _ended_words(task))
            return
        for entry in record.result.entries:
            words = f"{entry.name or entry.uri} — {entry.description}" if entry.name else entry.uri or "?"
            item = QListWidgetItem(cell_text(("⚠ " if entry.problem else "") + words, 160))
            item.setData(_ENTRY, entry.raw)
            tip = entry.uri if entry.problem is None else _("{uri}: cannot be loaded: {problem}").format(
                uri=entry.uri, problem=translate(entry.problem))
            item.setToolTip(plain_tooltip(clip_text(tip, 2000)))
            self.items.addItem(item)
        self._redraw()

    def current_entry(self) -> SkillEntry | None:
        item = self.items.currentItem()
        raw = item.data(_ENTRY) if item is not None else None
        return read_entry(raw) if raw is not None else None

    def _chosen(self, item: QListWidgetItem | None, _previous: object = None) -> None:
        self.task = None
        self._redraw()

    def _say(self, words: Callable[[], str]) -> None:
        self._words = words
        said = words()
        # A digest is a long run without a space: given places to wrap, it never decides the width.
        self.state.setText(label_text(said))
        self.state.setToolTip(plain_tooltip(said) if said else "")

    def _redraw(self) -> None:
        """The chosen entry, what its load found (if it was loaded), in the current language."""
        entry = self.current_entry()
        self.files.horizontalHeaderItem(DIGEST_COLUMN).setToolTip(
            _("The file's SHA-256 digest, as the listing gives it; Load checks the file against it"))
        self.frontmatter.setRowCount(0)
        self.files.setRowCount(0)
        self.load_button.setEnabled(entry is not None and entry.problem is None)
        record = self.task.outcome.record if self.task is not None and self.task.outcome is not None else None
        loaded = record.result if record is not None else None
        self.skill_md.setPlainText(clip_text(loaded.skill_md, 200_000, 2_000) if loaded is not None else "")
        if entry is None:
            self._say(lambda: _("Choose a skill to see its entry; Load reads and verifies its files."))
            return
        names = sorted(entry.frontmatter, key=lambda name: {"name": 0, "description": 1}.get(name, 2))
        for row, name in enumerate(names):
            self.frontmatter.insertRow(row)
            self.frontmatter.setItem(row, 0, _cell(name))
            self.frontmatter.setItem(row, 1, _cell(_value(entry.frontmatter[name])))
        checked = {file.uri for file in loaded.files} if loaded is not None else set()
        failed = getattr(record.error, "skill_file", None) if record is not None else None
        if failed is not None:  # the files read before the one that failed were verified (SKILL.md first)
            order = [file.uri for file in sorted(entry.files or (), key=lambda file: file.uri != entry.uri)]
            checked = set(order[:order.index(failed)]) if failed in order else set()
        for row, file in enumerate(entry.files or ()):
            self.files.insertRow(row)
            mark = (_("✗ does not match") if file.uri == failed else
                    _("✓ verified") if file.uri in checked else _("not read"))
            for column, text in enumerate((file.path, format_size(max(file.size, 0)), mark, file.digest)):
                self.files.setItem(row, column, _cell(text))
        self._say(self._state_words(entry, loaded))

    def _state_words(self, entry: SkillEntry, loaded: Any) -> Callable[[], str]:
        task = self.task
        if task is not None and task.outcome is None:
            return lambda: _("Loading {uri}…").format(uri=cell_text(entry.uri, 120))
        if task is not None and loaded is None:
            return lambda: _ended_words(task)
        if loaded is not None:
            return (lambda: _("Loaded: every file has the size and SHA-256 digest the listing gives, and "
                              "SKILL.md's frontmatter is the entry's.")) if not entry.dynamic else (
                lambda: _("Loaded: SKILL.md's frontmatter is the entry's; a dynamic skill's files have no digests "
                          "to check."))
        if entry.problem is not None:
            problem = entry.problem
            return lambda: _("This skill cannot be loaded: {problem}.").format(problem=translate(problem))
        if entry.dynamic:
            return lambda: _("Its files are dynamic: the server publishes no digests, so only SKILL.md's "
                             "frontmatter can be checked.")
        return lambda: _("{uri}: not loaded yet.").format(uri=cell_text(entry.uri, 120))

    # -- loading ------------------------------------------------------------------------------------

    def load(self) -> OperationTask | None:
        entry = self.current_entry()
        if entry is None or entry.problem is not None:
            return None
        task = self._submit("skills/load", {"uri": entry.uri, "entry": entry.raw},
                            _("skills/load {uri}").format(uri=cell_text(entry.uri, 80)))
        if task is None:
            return None
        self.task = task
        task.finished.connect(lambda _outcome: self._loaded(task))
        self._redraw()
        return task

    def _loaded(self, task: OperationTask) -> None:
        if task is self.task:  # else another skill is shown now
            self._redraw()


def _ended_words(task: OperationTask) -> str:
    """A failed or cancelled operation, in words (a failed verification's content is not shown)."""
    outcome = task.outcome
    record = outcome.record if outcome is not None else None
    if record is None:
        return outcome.internal_error or "" if outcome is not None else ""
    kind = record.error.kind.value if record.error is not None else None
    why = translate(record.error) if record.error is not None else ""
    return _("{outcome}: {why}").format(outcome=marked_outcome_text(record.status, kind), why=why)


__all__ = ["SkillsPanel"]
