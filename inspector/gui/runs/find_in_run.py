"""Find in the run the timeline shows: the field (its placeholder fitted to its room), the arrows, and
what it says beside them: "2 of 5", "no match", or how many steps of the hidden plumbing hold the
text (with the whole sentence for the tab's status line, taken back when it no longer holds: another run
shown, another text, the plumbing shown; said again in another language). A screen reader, whose focus
stays in the field, is told where a search or a press of Enter went ("match 2 of 5: ...") or that
nothing matched.

A long run's stored steps are searched on a reader thread of its own (a run of 10,001 joined steps held
the window 0.2-1.1 s at each Find): the rows are highlighted and the count said when the answer arrives. A
search whose read fails (a damaged or locked database) ends: "not searched" beside the field, why in the
tab's status line, and Enter searches again.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtWidgets import QLabel, QLineEdit, QTableView, QToolButton, QWidget

from inspector.i18n import _, ngettext
from inspector.i18n.formatting import format_number
from inspector.i18n.messages import translate

from ..language import translated
from ..widgets.accessibility import announce, name_clear_button
from ..widgets.fitted_placeholder import FittedPlaceholder
from ..widgets.hints import readable_placeholder
from ..widgets.last_asked import LastAsked
from .found_steps import FindQuestion, read_found
from .refused_reads import READ_ERRORS, refusal
from .timeline_model import COLUMNS, StepIdRole, TimelineModel

#: How long Find waits after a key before it searches (a word typed is searched once).
TYPING_PAUSE_MS = 250
#: A run of more steps than this is searched on the reader thread (:meth:`FindInRun.find_on_thread`); a
#: shorter one at once (a few milliseconds), its count said before the next event.
ASIDE_STEPS = 1_000


def no_match_text(count: int) -> tuple[str, str]:
    """What Find says beside its field when no row shows a match, and the sentence for the status line
    (``""``: none): "no match", or, when ``count`` steps of the hidden plumbing hold the text, how many."""
    if not count:
        return _("no match"), ""
    return (ngettext("{count} hidden", "{count} hidden", count).format(count=format_number(count)),
            ngettext("Find: {count} step of the hidden plumbing holds the text; tick “Show plumbing” to see it.",
                     "Find: {count} steps of the hidden plumbing hold the text; tick “Show plumbing” to see them.",
                     count).format(count=format_number(count)))


class FindInRun(QObject):
    """The find bar's widgets (the timeline pane lays them out in its bar) and the matches: Find
    highlights the steps that hold the text and goes from one to the next."""

    #: A sentence for the tab's status line (where the matches are hidden).
    said = Signal(str)
    #: Find's sentence said last no longer holds (first), or holds in other words (another language):
    #: the status line says the second (``""``: nothing) in its place, if it still shows the first.
    restated = Signal(str, str)
    #: Why a long run's search was not done, as words of the current language (the tab's status line).
    unread = Signal(object)

    def __init__(self, model: TimelineModel, view: QTableView, go_to: Callable[[int], None],
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.model, self.view, self._go_to = model, view, go_to
        self.matches: list[int] = []
        self._match = -1
        #: The sentence for the status line said last, and how many hidden steps it counts ("", 0: none).
        self._sentence, self._hidden_said = "", 0
        #: The window shut down (its database closes): Find searches no more.
        self._shut = False
        #: Searches a long run on a reader thread (None: every run here); where the current match was when
        #: Find was asked again in other words (None: asked anew).
        self._reads: LastAsked | None = None
        self._again_from: tuple[int, int | None, object] | None = None
        self.edit = QLineEdit()
        # "Find…" where the pane is too narrow for the shortcut too (it was cut to "Such…" in German);
        # the tip says where it finds. Its room kept only where the timeline stands alone in the tab's
        # width (the timeline pane says when): beside the detail, the pane's least width decides whether
        # the two fit side by side (German at 1200 px wide, a step with seven tabs).
        self.placeholder = FittedPlaceholder(self.edit, lambda: _("Find… (Ctrl+F)"), lambda: _("Find…"),
                                             lambda: _("Find in this run (Ctrl+F)"), keep_room=False)
        translated(self.edit, "setAccessibleName", lambda: _("Find in this run"))
        name_clear_button(self.edit, lambda: _("Clear the search in this run"))
        readable_placeholder(self.edit)
        self.edit.returnPressed.connect(self.find_next)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(TYPING_PAUSE_MS)
        self._timer.timeout.connect(self.find)
        self.edit.textChanged.connect(lambda _text: self._timer.start())
        # A long run's shown words said to the end: Find, which answered from those said so far, finds again.
        model.shown_words.ready.connect(self._words_said)
        model.shown_words.refused.connect(self._refused)
        # Arrows, as a browser's find bar has them: the search field keeps the room in a narrow pane.
        self.previous_button = _arrow_button(Qt.ArrowType.UpArrow, lambda: _("Previous match"))
        self.previous_button.clicked.connect(self.find_previous)
        self.next_button = _arrow_button(Qt.ArrowType.DownArrow, lambda: _("Next match (Enter)"))
        translated(self.next_button, "setAccessibleName", lambda: _("Next match"))
        self.next_button.clicked.connect(self.find_next)
        self.status = QLabel()
        self.status.setTextFormat(Qt.TextFormat.PlainText)
        translated(self.status, "setAccessibleName", lambda: _("Matches"))

    @property
    def widgets(self) -> tuple[QWidget, ...]:
        """The arrows and the status, in the order they stand right of the field."""
        return self.previous_button, self.next_button, self.status

    @property
    def text(self) -> str:
        """What is to be found (``""``: nothing, only spaces typed)."""
        return self.edit.text().strip()

    def retranslate(self) -> None:
        """Another language: Find also finds our sentences as the reader sees them ("unterwegs
        abgebrochen"), so it searches again in the new words; the current match stays if it still holds
        the text, else Find goes to the first match (and says nothing new in the status line unless its
        sentence about the hidden plumbing was said, or is due now)."""
        if self.text and self.model.run is not None and not self._shut:
            self._find_again()
            return
        if self._sentence:
            before, self._sentence = self._sentence, no_match_text(self._hidden_said)[1]
            self.restated.emit(before, self._sentence)

    def find_on_thread(self, db_path: Path) -> None:
        """Search a long run's stored steps on a reader thread of its own (:data:`ASIDE_STEPS`)."""
        self._reads = LastAsked(db_path, read_found, "find", self)
        self._reads.found.connect(self._answered)
        self._reads.failed.connect(self._not_searched)

    @property
    def searching(self) -> bool:
        """The reader thread is searching for the text (the matches and the count follow)."""
        return self._reads is not None and self._reads.pending is not None

    def _asked_aside(self, again_from: tuple[int, int | None, object] | None) -> bool:
        """Ask the reader thread for a long run's matches (``again_from``: where the match was, Find asked
        again in other words); False where they are found here (a short run, no reader, no text)."""
        if self._reads is None or self.model.step_count <= ASIDE_STEPS:
            return False
        question = self.model.find_question(self.edit.text())
        if question is None:
            return False
        self._again_from = again_from
        self._reads.ask(question)
        return True

    def _answered(self, question: FindQuestion, found: list[int]) -> None:
        model = self.model
        if self._shut or model.run is None or (question.run_id, question.text, question.filter, question.tree) != \
                (model.run.id, self.edit.text(), model.filter, model.tree is not None):
            return  # another run, text or filter since: Find was asked again for it
        matches = model.take_found(found)
        if self._again_from is None:
            self._show_found(question.text, matches)
        else:
            self._take_again(matches, *self._again_from)

    def _refused(self, error: BaseException) -> None:
        """A read here (the run's words, its matches) failed: as when the reader could not search the run."""
        self._not_searched(None, refusal(self.model.store, error))

    def _not_searched(self, _question: FindQuestion | None, problem: object) -> None:
        """The reader could not search the run: no matches, "not searched", why said; Enter searches again."""
        if self._shut:
            return
        self.matches, self._match, self._again_from = [], -1, None
        self.model.found_steps = []  # (none found: not those of the text searched before)
        self.model.set_matches(self.matches)
        self._say(0)
        self.status.setText(_("not searched"))
        # Said in the status line (to a screen reader too), and again in its words after a switch of language.
        self.unread.emit(lambda: _("Find in this run was not done. {problem}").format(problem=translate(problem)))

    def _find_again(self) -> None:
        """The text searched again in the rows shown (the words they say changed): the match Find
        points at (the row shown, if it is one) stays if it still holds the text; else Find goes on to
        the next match below it (or the first)."""
        self._timer.stop()
        shown = self.view.currentIndex().row()
        anchor = shown if shown in self.matches else \
            self.matches[self._match] if 0 <= self._match < len(self.matches) else None
        anchor_row = self.model.row(anchor) if anchor is not None else None
        try:
            if not self._asked_aside((shown, anchor, anchor_row)):
                self._take_again(self.model.find(self.edit.text()), shown, anchor, anchor_row)
        except READ_ERRORS as error:
            self._refused(error)

    def _take_again(self, matches: list[int], shown: int, anchor: int | None, anchor_row: object) -> None:
        self.matches = matches
        self.model.set_matches(self.matches)
        hidden = self.model.found_hidden if not self.matches else 0
        before = self._sentence
        self._sentence, self._hidden_said = no_match_text(hidden)[1], hidden
        if before:
            self.restated.emit(before, self._sentence)
        elif self._sentence:
            self.said.emit(self._sentence)
        # Where the anchor's step is now (rows above a match may have been unfolded).
        now = self.model.row_of_step(anchor_row.id) if anchor_row is not None else None
        if now is None:
            now = anchor if anchor is not None else -1
        if now in self.matches:
            self._match = self.matches.index(now)
            if anchor == shown and now != shown:
                self._go_to(now)
            self._say_match()
        elif self.matches:
            self._match = max((number for number, match in enumerate(self.matches) if match < now), default=-1)
            self._step(1)
        else:
            self._match = -1
            self.status.setText(no_match_text(hidden)[0])  # "no match", or "7 hidden"

    def _words_said(self) -> None:
        if self.text and self.model.run is not None and not self._shut:
            self._find_again()

    def shut_down(self) -> None:
        """The database closes next: no search from now on (a word typed a moment ago, a language switch,
        the words of a long run being said); a long run's search under way is broken off, not waited for."""
        self._shut = True
        self._timer.stop()
        self.model.shown_words.forget()
        if self._reads is not None:
            self._reads.break_off()

    def forget(self) -> None:
        """Another run is shown: no matches, nothing said (until :meth:`again` finds in it); what was
        said in the status line about the run before is taken back."""
        self.matches, self._match = [], -1
        if self._reads is not None:
            self._reads.forget()
        self.status.setText("")
        self._say(0)

    def again(self) -> None:
        """The rows changed (another run, a filter, the plumbing): find the text anew, if there is one."""
        if self.text:
            self.find()

    def focus(self) -> None:
        self.edit.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.edit.selectAll()

    def find(self) -> list[int]:
        """Find the text of the field in the run; highlight the rows, go to the first (in a long run, when
        the reader thread has searched it: :attr:`searching` until then)."""
        self._timer.stop()
        text = self.edit.text()
        try:
            if self._asked_aside(None):
                return self.matches
            if self._reads is not None:
                self._reads.forget()  # found here: a long run's answer asked before is not wanted
            found = self.model.find(text) if self.model.run and text.strip() else []
        except READ_ERRORS as error:
            self._refused(error)
            return self.matches
        self._show_found(text, found)
        return self.matches

    def _show_found(self, text: str, matches: list[int]) -> None:
        self.matches = matches
        self._match = -1
        self.model.set_matches(self.matches)
        hidden = self.model.found_hidden if text.strip() and not self.matches else 0
        self._say(hidden)
        if not text.strip():
            self.status.setText("")
        elif not self.matches:
            self.status.setText(no_match_text(hidden)[0])
            if not hidden:  # else the status line says the sentence on the hidden plumbing
                announce(self.edit, no_match_text(hidden)[0])
        else:
            self.find_next()

    def _say(self, hidden: int) -> None:
        """Tell the status line that ``hidden`` steps of the hidden plumbing hold the text; with none,
        take back the sentence said before (the status line keeps what another part said since)."""
        before = self._sentence
        self._sentence, self._hidden_said = no_match_text(hidden)[1], hidden
        if self._sentence:
            self.said.emit(self._sentence)
        elif before:
            self.restated.emit(before, "")

    def match_step(self) -> int | None:
        """The step of the current match (where Next and Previous go from), if there is one."""
        if not 0 <= self._match < len(self.matches):
            return None
        return self.model.index(self.matches[self._match], 0).data(StepIdRole)

    def follow_rows(self, match_step: int | None) -> None:
        """The rows were laid out anew (a growing run's span tree): the matches are the same steps where they show
        now, the current match still ``match_step`` (:meth:`match_step` before) where it shows. Found where no row
        showed them yet (newer than the rows searched while the tree was laid out), Find goes to the first now."""
        if not self.matches and self.text and self.model.found_steps and not self.searching and not self._shut:
            matches = self.model.take_found(self.model.found_steps)  # (as the answer would have: their rows unfolded)
            if matches:
                self._show_found(self.text, matches)
            return
        row = self.model.row_of_step(match_step) if match_step is not None and self.matches else None
        self.keep_matches_showing()
        if row is not None and row in self.matches:
            self._match = self.matches.index(row)
            self._say_match()

    def keep_matches_showing(self) -> None:
        """Rows were folded or unfolded (a span tree): the matches are those showing now."""
        if not self.matches:
            return
        self.matches = self.model.rows_found()  # the steps found, where they show now (not searched again)
        self.model.set_matches(self.matches)
        row = self.view.currentIndex().row()
        # On a match: that one; else Next goes to the first match below the current row.
        self._match = self.matches.index(row) if row in self.matches else \
            max((number for number, match in enumerate(self.matches) if match < row), default=-1)
        if self.matches and row in self.matches:
            self._say_match()
        else:
            self.status.setText("" if self.matches else _("no match"))

    def _step(self, step: int) -> None:
        if not self.matches:
            return
        self._match = (self._match + step) % len(self.matches)
        self._go_to(self.matches[self._match])
        self._say_match()
        announce(self.edit, _("match {number} of {count}: {step}").format(
            number=format_number(self._match + 1), count=format_number(len(self.matches)),
            step=self._spoken(self.matches[self._match])))

    def _spoken(self, row: int) -> str:
        """A row as a screen reader hears it: its details, then its outcome ("write_note: saved · ok")."""
        cells = (self.model.index(row, COLUMNS.index(column)).data(Qt.ItemDataRole.AccessibleTextRole)
                 for column in ("details", "outcome"))
        return " · ".join(cell for cell in cells if cell)

    def _say_match(self) -> None:
        self.status.setText(_("{number} of {count}").format(number=format_number(self._match + 1),
                                                            count=format_number(len(self.matches))))

    def find_next(self) -> None:
        if self.searching:
            return  # the answer goes to the first match
        if self._timer.isActive() or (self.text and not self.matches and self._match == -1
                                      and self.model.run is not None and self.status.text() in ("", _("not searched"))):
            self.find()
            return
        self._step(1)

    def find_previous(self) -> None:
        if not self.searching:  # (meanwhile the matches are the text's before; the answer goes to the first)
            self._step(-1)


def _arrow_button(arrow: Qt.ArrowType, tip: Callable[[], str]) -> QToolButton:
    """A small arrow button of the find bar; its tip and accessible name say what it does."""
    button = QToolButton()
    button.setArrowType(arrow)
    button.setAutoRaise(False)
    translated(button, "setToolTip", tip)
    translated(button, "setAccessibleName", tip)
    return button


__all__ = ["FindInRun", "no_match_text"]
