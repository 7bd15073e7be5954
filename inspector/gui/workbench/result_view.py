"""The result of the selected operation: the tool's text (always plain), structured content as a
tree, non-text blocks named, the error sentence, and for a cancel in flight the unknown effect."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QApplication,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QSplitter,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from inspector.i18n import _, ngettext
from inspector.i18n.entry_names import shown_label
from inspector.i18n.formatting import format_duration, format_number
from inspector.i18n.messages import said_again, translate
from inspector.i18n.task_words import task_status_word
from inspector.i18n.words import failure_word
from inspector.mcp.results import non_text_note

from ..language import on_language_changed, translated
from ..widgets.block_text import stored_block_lines
from ..widgets.budget_state import MARKS_LAST, MAX_MARKS
from ..widgets.image_view import ImageStrip, ShownImage
from ..widgets.plain_text import clip_text, label_text
from ..widgets.server_exchanges import server_exchange_lines
from .offering_text import offering_images, offering_text
from .operation_task import OperationTask
from .result_tree import fill_structure, structured_model
from .whole_answer import is_bounded, whole_answer


class ResultView(QWidget):
    """Shows one finished (or running) operation's outcome."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.sentence = QLabel(_("Select an operation to see its result."))
        self.sentence.setTextFormat(Qt.TextFormat.PlainText)
        self.sentence.setWordWrap(True)
        self.sentence.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        # Never squeezed below its lines by the text under it (a bounded answer's sentence has four).
        self.sentence.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)
        self.text = QPlainTextEdit()
        self.text.setReadOnly(True)
        translated(self.text, "setAccessibleName", lambda: _("Result text"))
        self.structure = structured_model(None)
        self.tree = QTreeView()
        self.tree.setModel(self.structure)
        translated(self.tree, "setAccessibleName", lambda: _("Structured content"))
        self.tree.hide()
        self.images = ImageStrip()
        #: Shown when the pane leaves part of a tool's answer out: puts the whole answer on the clipboard.
        self.copy_whole = translated(QPushButton(), "setText", lambda: _("Copy the whole answer"))
        translated(self.copy_whole, "setAccessibleName", lambda: _("Copy the whole answer to the clipboard"))
        self.copy_whole.clicked.connect(self._copy_whole)
        self.copy_whole.hide()
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.text)
        split.addWidget(self.images)
        split.addWidget(self.tree)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.sentence)  # a wrapped label straight in the column: its height follows its text
        layout.addWidget(self.copy_whole, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(split, 1)
        self.task: OperationTask | None = None
        #: A running task's progress lines shown: the notes heard then, the task poll they were shown
        #: with, and how many lines were added since the text was made.
        self._running_shown: tuple[int, object, int] | None = None
        on_language_changed(self, self.retranslate)

    def retranslate(self) -> None:
        self.structure.setHorizontalHeaderLabels([_("Key"), _("Value")])
        self.show_task(self.task)

    def show_task(self, task: OperationTask | None) -> None:
        self.task = task
        self._running_shown = None  # set below when a running task's progress lines are shown
        if task is not None and task.running and not getattr(task, "followed_by_result", False):
            # While it runs, its progress messages are the result so far.
            task.followed_by_result = True
            task.changed.connect(lambda task=task: self._changed(task))
        self.structure.removeRows(0, self.structure.rowCount())
        self.tree.hide()
        whole = self._bounded_answer(task)
        self.copy_whole.setVisible(whole is not None)
        self._show_images(task)
        if task is None:
            self.sentence.setText(_("Select an operation to see its result."))
            self._clear_text()
            return
        outcome = task.outcome
        if outcome is None:
            self.sentence.setText(label_text(_("{title} is running on {server}.").format(
                title=task.title, server=shown_label(task.server)), 10_000))
            lines = [_progress_line(mark) for mark in task.state.marks]
            if task.task_seen is not None:  # a task: how it stood at the latest poll, first
                lines.insert(0, task_line(task.task_seen))
            if lines:
                self.text.setPlainText("\n".join(lines))
            else:
                self._clear_text()
            self._running_shown = (task.state.marks_heard, task.task_seen, 0)
            return
        record = outcome.record
        if record is None:
            self.sentence.setText(outcome.internal_error or _("The operation ended without a result."))
            self._clear_text()
            return
        lines = [self._sentence(task)]
        waited = task.signins_waited
        if waited:
            lines.append(ngettext("It waited for {count} sign-in, then ran afresh with its whole budget.",
                                  "It waited for {count} sign-ins, then ran afresh with its whole budget.",
                                  waited).format(count=format_number(waited)))
        if outcome.run_id is not None:
            lines.append(_("Stored as run {run_id}.").format(run_id=outcome.run_id))
        if outcome.store_problem:
            lines.append(outcome.store_problem)
        blocks = self.non_text_note(task)
        if blocks:
            lines.append(_("Not shown as text: {blocks}.").format(blocks=blocks))
        if whole is not None:
            lines.append(_("Part of the answer is left out here, as said below; Copy the whole answer puts all of "
                           "it on the clipboard."))
        self.sentence.setText(label_text("\n".join(lines), 10_000))  # the error names what the server said
        exchanges = server_exchange_lines(record.step.to_payload())
        text = self._text(task)
        # An operation that did not end ok keeps the progress it reported, shown while it ran: how far
        # a cancelled slow task got is what its reader asks next.
        progress = "\n".join(_progress_line(mark) for mark in task.state.marks) if record.status != "ok" else ""
        # A server's text, shown as characters (an override is not obeyed) and bounded like the step detail;
        # a call with no text of its own (cancelled) starts with what the server logged, not with blank lines.
        self.text.setPlainText(clip_text("\n\n".join(part for part in (text, progress, "\n".join(exchanges))
                                                     if part)))
        structured = getattr(record.result, "structured_content", None)
        if isinstance(structured, dict) and structured:
            fill_structure(self.structure.invisibleRootItem(), structured)
            self.tree.expandToDepth(1)
            self.tree.resizeColumnToContents(0)
            self.tree.show()

    @staticmethod
    def _bounded_answer(task: OperationTask | None) -> Any:
        """The tool answer of a finished call of which this pane shows only part, else ``None``."""
        record = task.outcome.record if task is not None and task.outcome is not None else None
        result = getattr(record, "result", None)
        if task is None or task.kind != "call" or getattr(record, "status", None) == "cancelled":
            return None
        return result if is_bounded(result) else None

    def _copy_whole(self) -> None:
        result = self._bounded_answer(self.task)
        if result is not None:
            QApplication.clipboard().setText(whole_answer(result))

    def _clear_text(self) -> None:
        """Empty the text, unless it is: a new document each time is a layout and a repaint (each Run
        press showed the new operation's empty text)."""
        if not self.text.document().isEmpty():
            self.text.clear()

    def _show_images(self, task: OperationTask | None) -> None:
        """The pictures the answer carried, drawn under its text (decoded from the answer only)."""
        record = task.outcome.record if task is not None and task.outcome is not None else None
        result = getattr(record, "result", None)
        shown = offering_images(result) or [ShownImage(part.label, part.mime_type, part.data, part.chars)
                                            for part in getattr(result, "images", ())]
        self.images.show_images(shown, getattr(result, "images_left_out", 0), source=result if shown else None)

    def _changed(self, task: OperationTask) -> None:
        if task is not self.task:
            return
        shown, state = self._running_shown, task.state
        if task.running and shown is not None and shown[1] is task.task_seen and shown[0] <= state.marks_heard \
                and shown[2] < MAX_MARKS:
            # Only new progress notes: appended, the lines shown stay (a long task's history is not made
            # again at every frame); of many at once the last ones, which the bar keeps whole.
            new = min(state.marks_heard - shown[0], MARKS_LAST, len(state.marks))
            for mark in state.marks[len(state.marks) - new:]:
                self.text.appendPlainText(_progress_line(mark))
            self._running_shown = (state.marks_heard, task.task_seen, shown[2] + new)
            return
        # Made again: from the notes the bar kept (a long call's lines stay bounded), still at the end
        # if the reader was following it there.
        bar = self.text.verticalScrollBar()
        following = task.running and bar.value() == bar.maximum()
        self.show_task(task)
        if following:
            bar.setValue(bar.maximum())

    def _sentence(self, task: OperationTask) -> str:
        record = task.outcome.record if task.outcome else None
        assert record is not None
        error = record.error
        if record.status == "cancelled":
            if error is not None and error.in_flight:
                return _("⊘ Cancelled after the request was sent: the server may or may not have "
                         "done the work (the remote effect is unknown).")
            return _("⊘ Cancelled before the request was sent: the server was not asked to do anything.")
        if error is not None:
            kind = error.kind.value
            if kind == "exhausted_budget":
                return _("✗ Failed: not sent, the budget was used up before this request (the server "
                         "was not asked).")
            if kind == "timed_out" and error.task is not None:
                return _("✗ Failed: timed out while the task was still running on the server; it can be looked up "
                         "again from its step in the Runs tab.")
            if kind == "timed_out":
                return _("✗ Failed: timed out at the end of its grant.")
            return _("✗ Failed: {what}.").format(what=failure_word(kind))
        if record.status == "failed":
            return _("✗ Failed: the tool {tool} on {server} reported an error.").format(
                tool=task.tool or "", server=shown_label(task.server))
        return _("✓ ok in {duration}.").format(duration=format_duration(record.latency_ms / 1000))

    def _text(self, task: OperationTask) -> str:
        record = task.outcome.record if task.outcome else None
        assert record is not None
        result = record.result
        if record.status == "cancelled":
            return ""  # the sentence above already says what a cancel means: not twice
        if task.kind == "call":
            answered_wrong = record.error is not None and record.error.kind.value == "output_schema"
            if record.tool_result is not None and (record.error is None or answered_wrong):
                if result is None:
                    return _said(record.tool_result)
                # Named as the step detail names a stored step's blocks: the first hundred, then how
                # many more (thousands of blocks froze the window); the whole answer is copied whole.
                lines = stored_block_lines({"contentBlocks": list(getattr(result, "blocks", ()))})
                # An answer that breaks the tool's output schema: why first, then what it said.
                why = translate(record.error) if answered_wrong else ""
                return "\n".join([part for part in (why, _without_note(result), *lines) if part])
            return _said(record.tool_result) if record.tool_result is not None else ""
        if task.kind == "list" and result is not None:
            tools = ngettext("{count} tool", "{count} tools", len(result.tools)).format(count=len(result.tools))
            pages = ngettext("{count} page", "{count} pages", result.pages).format(count=result.pages)
            lines = [_("{tools} in {pages}:").format(tools=tools, pages=pages)]
            lines += [f"  {name}" for name in result.names]
            return "\n".join(lines)
        if task.kind == "task" and result is not None:  # a task looked up again: (seen, result or None)
            seen, answer = result
            said = _("The task {task} is {status}.").format(task=seen.handle.task_id,
                                                            status=task_status_word(seen.status))
            return "\n".join([said, answer.content]) if answer is not None else said
        if task.kind == "offering" and result is not None:
            return offering_text(result)
        if task.kind == "ping" and result is not None:
            return _("The server {name} speaks MCP {version}.").format(
                name=result.server_name or _("(unnamed)"), version=result.protocol_version)
        return translate(record.error) if record.error is not None else ""

    def non_text_note(self, task: OperationTask) -> str:
        """The blocks that are not text, counted in words: "1 image, 3 resource links"."""
        record = task.outcome.record if task.outcome else None
        dropped = getattr(getattr(record, "result", None), "dropped_blocks", {}) or {}
        return ", ".join(_kind_count(kind, count) for kind, count in sorted(dropped.items()))


def _said(result: Any) -> str:
    """A tool result's text, the sentence of ours it begins with (a time-out, an error) said in the
    reader's language."""
    return said_again(result.content, result.wording)


def task_line(seen: Any) -> str:
    """"Task 1a2b: working after 2 polls. Analyzing content..." (the server's message as plain text)."""
    line = ngettext("Task {task}: {status} after {count} poll.", "Task {task}: {status} after {count} polls.",
                    seen.polls).format(task=seen.handle.task_id, status=task_status_word(seen.status),
                                       count=seen.polls)
    return f"{line} {seen.status_message}" if seen.status_message else line


def _without_note(result: Any) -> str:
    """The answer's text without the note naming its non-text blocks: the sentence above names
    them already, and the lines below describe each one."""
    content = str(getattr(result, "content", ""))
    dropped = getattr(result, "dropped_blocks", None) or {}
    note = non_text_note(dropped) if dropped else ""
    if note and content.startswith(note):
        return content[len(note):].lstrip("\n")
    return content


def _kind_count(kind: str, count: int) -> str:
    said = format_number(count)
    if kind == "image":
        return ngettext("{count} image", "{count} images", count).format(count=said)
    if kind == "audio":
        return ngettext("{count} audio clip", "{count} audio clips", count).format(count=said)
    if kind == "resource":
        return ngettext("{count} embedded resource", "{count} embedded resources", count).format(count=said)
    if kind == "resource_link":
        return ngettext("{count} resource link", "{count} resource links", count).format(count=said)
    return ngettext("{count} block of another kind", "{count} blocks of other kinds", count).format(count=said)


def _progress_line(mark: Any) -> str:
    amount = (_("{progress} of {total}").format(progress=format_number(mark.progress),
                                                total=format_number(mark.total))
              if mark.total is not None else format_number(mark.progress))
    if mark.message:
        return _("progress {amount}: {message}").format(amount=amount, message=mark.message)
    return _("progress {amount}").format(amount=amount)
