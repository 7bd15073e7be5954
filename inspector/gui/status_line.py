"""The status bar's line: how many operations run and runs play, the last run stored, the database.

The workbench's operations and the Play tab's runs are counted while they go; whichever run ended
last is named ("last run 12: scenario happy-path (ok)"), an operation's, a played run's or an agent's
recorded through the window's proxy. Runs imported from a file are counted only while no run ended
here: they ran elsewhere and earlier, and are not this window's last run (the Runs tab says the import). A failed
run says why as the Runs list says it ("last run 3: tools/call broken — failed (the tool call timed
out)"), read from its stored steps off the GUI thread and added when the answer comes."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QLabel, QMainWindow

from inspector.i18n import _, ngettext
from inspector.i18n.formatting import format_number
from inspector.i18n.recovery import Reason, status_with_recovery
from inspector.i18n.scenarios import said_title
from inspector.store import RunStore
from inspector.store.recovery import run_reason

from .widgets.accessibility import announce
from .widgets.background_reads import BackgroundReads
from .widgets.elided_label import ElidedLabel
from .widgets.outcomes import outcome_word
from .widgets.plain_text import cell_text

if TYPE_CHECKING:
    from .play_tab import PlayTab
    from .workbench.engine import OperationsEngine


#: The most characters of a run's title the line shows (one line: controls visible, no line breaks).
TITLE_CHARS = 120


def status_label(window: QMainWindow) -> ElidedLabel:
    """The line's label in ``window``'s status bar: plain text, cut rather than wider than the screen, and
    cut readably: "… · Datenbank /tmp/ru…", not mid-letter at the window's edge (German at 1,024 px ended in
    "Datenbank /t"); its tip is whole. Its accessible name says its text (:meth:`StatusLine.update`), "Status"
    until it has one."""
    label = ElidedLabel()  # plain text; a long database path is cut, never wider than the screen
    label.setAccessibleName(_("Status"))
    window.statusBar().addWidget(label, 1)
    return label


def saying(label: QLabel) -> Callable[[str], None]:
    """How a part of the window says something on ``label`` ("Select a server and a tool first.", a
    server's problem, "3 servers imported."): shown, and said to a screen reader at once, which heard it
    only when it visited the status bar (Ctrl+Enter with no tool chosen seemed to do nothing)."""
    def say(text: str) -> None:
        label.setText(text)
        if text:
            announce(label, text)
    return say


class StatusLine(QObject):
    """Keeps ``label`` saying what runs and plays, and the last run stored."""

    def __init__(self, label: QLabel, engine: OperationsEngine, play: PlayTab, db_path: Path) -> None:
        super().__init__(label)
        self.label = label
        self._engine = engine
        self._play = play
        self._db_path = db_path
        #: The last run stored that ended: (number, title, status).
        self.last_run: tuple[int, str, str] | None = None
        #: Why the last run failed (its number and reason, as the Runs list says it), once read.
        self.reason: tuple[int, Reason] | None = None
        #: Runs imported from files in this session.
        self.imported = 0
        self._stopped = False
        self._reads = BackgroundReads(db_path, _reason_read, "status", self)
        self._reads.answered.connect(self._reason_answered)
        play.playing_changed.connect(self._playing_changed)

    def run_ended(self, run_id: int | None, title: str, status: str) -> None:
        """A run ended (an operation's or a played one): named from the next :meth:`update` on, and
        said to a screen reader at once, unless it was not stored; a failed one's reason is asked for
        (the line says it when read)."""
        if run_id is not None:
            self.last_run = (run_id, title, status)
            announce(self.label, last_run_text(run_id, title, status))
            if status == "failed":
                self._reads.request(run_id)

    def run_recorded(self, run_id: int, title: str, status: str) -> None:
        """A recording proxy stored an agent's run: named as the last run, as an operation's or a played run's
        (the line went on naming the run before, which the agent's had followed)."""
        if not self._stopped:  # a run the proxy wrote as the window closed
            self.run_ended(run_id, title, status)
            self.update()

    def stop(self) -> None:
        """End the reader thread (the window closes)."""
        self._stopped = True
        self._reads.stop()

    def _reason_answered(self, run_id: int, reason: Reason | None, problem: str) -> None:
        if reason is not None and not problem:
            self.reason = (run_id, reason)
            self.update()

    def runs_imported(self, count: int) -> None:
        """``count`` runs were imported from a file (stored in this session too: "no run stored" is
        untrue); a file's runs that were here already are not counted again."""
        self.imported += count
        self.update()

    def _playing_changed(self, playing: bool) -> None:
        run = self._play.room.run if self._play.built else None
        if not playing and run is not None and run.status is not None:
            self.run_ended(run.run_id, run.title, run.status)
        self.update()

    def update(self) -> None:
        playing = 1 if self._play.playing else 0
        last = self.last_run
        reason = self.reason[1] if self.reason and last and self.reason[0] == last[0] else None
        text = status_text(len(self._engine.running_tasks()), last, self._db_path, playing, self.imported, reason)
        # The line is cut where the window is narrow: its tip says it whole (the label's own, while it is
        # cut), and its accessible name, which a screen reader says ("Status" alone, the text only in its
        # description, was all that some said of it).
        self.label.setText(text)
        self.label.setAccessibleName(status_name(text))


def _reason_read(store: RunStore, run_id: int) -> Reason | None:
    """Why the run ``run_id`` failed, as the Runs list says it (on the reader thread)."""
    found = run_reason(store, store.get_run(run_id))
    return found.said() if found else None


def status_name(text: str) -> str:
    """The status line's accessible name: what it says, named as the status ("Status: 0 operations running · …")."""
    return _("Status: {text}").format(text=text)


def last_run_text(run_id: int, title: str, status: str) -> str:
    """"last run 3: tools/call hang (cancelled)": the line's words on the run that ended last."""
    # A played scenario's stored title ("scenario happy-path") in the reader's language.
    title = cell_text(said_title(title), TITLE_CHARS)
    return _("last run {run_id}: {title} ({status})").format(run_id=run_id, title=title, status=outcome_word(status))


def status_text(running: int, last_run: tuple[int, str, str] | None, db_path: Path, playing: int = 0,
                imported: int = 0, reason: Reason | None = None) -> str:
    """The status line: how many operations run (and runs play), the last run stored (number, title,
    status, and ``reason``: why it failed, where known) or else how many were imported, the database."""
    count = ngettext("{count} operation running", "{count} operations running", running).format(
        count=format_number(running))
    if playing:
        plays = ngettext("{count} run playing", "{count} runs playing", playing).format(count=format_number(playing))
        count = _("{operations}, {plays}").format(operations=count, plays=plays)
    if last_run is None and playing:
        # The run playing is stored as it goes: "no run stored" would be untrue.
        return _("{running} · database {path}").format(running=count, path=db_path)
    if last_run is None and imported:
        last = ngettext("{count} run imported in this session", "{count} runs imported in this session",
                        imported).format(count=format_number(imported))
    elif last_run is None:
        last = _("no run stored in this session")  # the database may hold older ones
    else:
        run_id, title, status = last_run
        if reason is None:
            last = last_run_text(run_id, title, status)
        else:  # "failed (the tool call timed out)": its parentheses are the only ones
            title = cell_text(said_title(title), TITLE_CHARS)
            # Translators: the last run and why it failed, e.g. "last run 3: tools/call broken — failed (the
            # tool call timed out)".
            last = _("last run {run_id}: {title} — {status}").format(
                run_id=run_id, title=title, status=status_with_recovery(outcome_word(status), reason))
    return _("{running} · {last} · database {path}").format(running=count, last=last, path=db_path)
