"""What each step of a run shows in words, in the current language, for Find: the words of its row
(who made it, its kind, its Details), its detail's heading, its Result as the Result tab says it (a
cancel's sentence, the importer's notes, our sentences kept as data, all said in the reader's words),
the band on a cancel sent before it was stopped and the band on how a joined call's two sides disagree.

The store keeps our sentences in English, and some of what a step shows is not stored at all (the
heading, the kind's word, "The person who recorded this run cancelled …"): Find in SQL looks in the
stored text (:func:`inspector.store.browse.find_step_ids`), and these words, said by the functions the
row and the step detail say them with, are looked in too. Our stored sentences as Find in SQL would say
them (:func:`inspector.i18n.find_said.sentences_said`) are said here too, in another language than
English, once: Find in SQL no longer says them for each Find (0.1 ms a step of a trace: a German Find in
a run of 10,001 joined steps took 0.9-1.6 s, an English one 0.2-0.5 s). They are said once per run and language (a
run of 100,000 steps takes a moment, once) and kept until another run, another language or more
steps; finding in them is a scan of strings in memory.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

from inspector.i18n import DEFAULT_LANGUAGE, _, current_language
from inspector.i18n.find_said import SAID_PATHS, sentences_said
from inspector.i18n.folding import fold
from inspector.i18n.words import kind_word
from inspector.store import RunRecord, RunStore
from inspector.store.browse import TimelineRow, timeline_page
from inspector.traces.chat_words import conversation_lines

from ..widgets.block_text import stored_block_lines
from ..widgets.plain_text import cell_text
from .refused_reads import READ_ERRORS
from .span_facts import otlp_of, sides_and_band
from .stored_result import parsed_payload
from .stored_text import result_said
from .timeline_cells import shown_details, step_source

#: The most rows said per page read; a page's rows follow the pace of the page before (:data:`PAGE_S`).
PAGE_ROWS = 1_000
#: The rows of a run's first page.
FIRST_PAGE_ROWS = 200
#: What a page aims to take (the window answers between pages): a step takes 0.02-0.05 ms to say, a joined
#: client and server span 0.25 ms (pages of 1,000 held the window 0.25-0.29 s each).
PAGE_S = 0.05
#: A run of at most this many steps has its words said at once, when Find first asks, as long as that
#: takes at most :data:`AT_ONCE_S`; the rest page by page between the window's events, Find answering from
#: the stored text meanwhile (a run of 10,001 joined spans held the first Find 0.5-1.0 s).
AT_ONCE_ROWS = 4_000
AT_ONCE_S = 0.05


def step_heading(sequence: int, kind: str, name: str) -> str:
    """The heading of a step's detail ("Step 4: tool add")."""
    return _("Step {sequence}: {kind} {name}").format(
        sequence=sequence, kind=cell_text(kind_word(kind), 40), name=cell_text(name, 120)).strip()


def remote_effect_sentence() -> str:
    """The band over a call cancelled after its request had been sent."""
    return _("The request had already been sent when it was cancelled: whether the server acted on it is "
             "unknown. Check on the server before you retry.")


def empty_result_sentence(from_a_trace: bool) -> str:
    """What the Result tab says of a step that shows no result at all (no text, no blocks, no conversation)."""
    return (_("The trace this step came from does not record its result.") if from_a_trace else
            _("This step has no result text."))


def row_words(row: TimelineRow, run_source: str, empty: str = "") -> list[str]:
    """What a step shows of itself in words that its row (not its whole payload) tells: who made it,
    its kind, the heading of its detail, its Details, its Result as said (``empty``: what is said when
    it says nothing), its service, the band on a cancel sent."""
    fields = row.detail_fields
    name = fields.get("toolName") if isinstance(fields.get("toolName"), str) else ""
    words = [step_source(row.kind, row.service), step_heading(row.sequence, row.kind, name), shown_details(row)]
    words.append(_row_result(row, run_source) or empty)
    if row.service:
        words.append(_("service {service}").format(service=row.service))
    if row.outcome == "cancelled" and row.cancelled_in_flight is True:
        words.append(remote_effect_sentence())
    return words


def _row_result(row: TimelineRow, run_source: str) -> str:
    """A step's Result as said from what its row keeps ("" for none)."""
    fields = row.detail_fields
    stored = fields.get("toolResult") if isinstance(fields.get("toolResult"), str) else fields.get("content")
    if not (isinstance(stored, str) or row.outcome == "cancelled"):
        return ""
    return result_said(stored if isinstance(stored, str) else "", fields, row.outcome, row.cancelled_in_flight,
                       run_source, whole=False)


def _says_whole(row: TimelineRow) -> bool:
    """Whether the step shows words that only its whole payload tells: the band on how a joined call's
    two sides disagree (and the line naming the server's answer), or a model call's conversation as
    its trace recorded it."""
    raw = row.detail_fields.get("raw")
    otlp = raw.get("otlp") if isinstance(raw, Mapping) else None
    return (isinstance(otlp, Mapping) and bool(otlp.get("disagreement"))) or (row.kind == "llm" and bool(row.service))


def whole_words(payload: Mapping[str, Any], row: TimelineRow, run_source: str) -> str:
    """What a step shows that its whole payload tells: the band on its two sides, its Result as said
    from the whole payload, the lines naming its content blocks ("Image (image/png, 2 bytes)."), the
    conversation of a model call read from a trace, or what is said for no result at all."""
    otlp = otlp_of(payload)
    band = sides_and_band(otlp, payload, row.outcome)[1] if otlp is not None else ""
    stored = payload.get("toolResult") if isinstance(payload.get("toolResult"), str) else payload.get("content")
    result = result_said(stored, payload, row.outcome, row.cancelled_in_flight, run_source) \
        if isinstance(stored, str) or row.outcome == "cancelled" else ""
    said = [line for line in (result, *stored_block_lines(payload), *conversation_lines(payload)) if line]
    return "\n".join([band, *(said or [empty_result_sentence(otlp is not None)])])


class ShownWords(QObject):
    """The words the steps of one run show, case-folded, said in the current language when Find first
    asks, and kept while the run, the language and its steps stay the same."""

    #: The words of a long run are all said now (Find, which answered from what was said so far, asks again).
    ready = Signal()
    #: The words of a long run could not be said to the end (a read the database refused): the error.
    refused = Signal(object)

    def __init__(self, store: RunStore, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.store = store
        self._key: tuple[Any, ...] | None = None
        self._run: RunRecord | None = None
        self._said_rows = self._count = 0
        #: The rows the next page says (as many as :data:`PAGE_S` held at the last page's pace).
        self._page_rows = FIRST_PAGE_ROWS
        #: Each step's id and its words, in time order (of the rows said so far).
        self._words: list[tuple[int, str]] = []
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._say_next_page)

    @property
    def complete(self) -> bool:
        """Whether every step of the run asked about last has its words said."""
        return self._key is not None and self._said_rows >= self._count

    def forget(self) -> None:
        """Drop the words said and stop saying more (another language: said anew when Find asks; the
        database closes)."""
        self._timer.stop()
        self._key, self._run, self._words, self._said_rows, self._count = None, None, [], 0, 0
        self._page_rows = FIRST_PAGE_ROWS

    def holding(self, run: RunRecord, needle: str) -> list[int]:
        """The ids of the run's steps whose shown words hold ``needle`` (any case): of all of them, or,
        in a long run whose words are still being said, of those said so far (:attr:`ready` follows)."""
        folded = fold(needle.strip())
        if not folded:
            return []
        count, last = self.store.db.conn.execute("SELECT COUNT(*), MAX(id) FROM steps WHERE run_id = ?",
                                                 (run.id,)).fetchone()
        key = (run.id, run.source, current_language(), count, last)
        if key != self._key:
            self.forget()
            self._key, self._run, self._count = key, run, count
            began = time.perf_counter()
            try:
                while self._said_rows < min(count, AT_ONCE_ROWS) and time.perf_counter() - began < AT_ONCE_S:
                    self._say_page(background=False)
            except READ_ERRORS:  # not kept half said (a lock may be gone at the next Find): read again then
                self.forget()
                raise
            if self._said_rows < count:
                self._timer.start()
        return [step_id for step_id, words in self._words if folded in words]

    def _say_next_page(self) -> None:
        try:
            self._say_page(background=True)
        except READ_ERRORS as error:  # not raised in Qt's event loop: Find says why
            self.forget()
            self.refused.emit(error)

    def _say_page(self, background: bool) -> None:
        run = self._run
        if run is None:
            return
        began, rows = time.perf_counter(), self._page_rows
        page = timeline_page(self.store, run.id, self._said_rows, rows)
        source = run.source or ""
        blocks, traced = self._kept_facts(page, source)
        whole = self._whole_words([row for row in page if row.id in blocks or _says_whole(row)], source)
        sentences = self._sentences_said(page)
        self._words += [(row.id, fold("\n".join([
            *row_words(row, source, "" if row.id in whole else empty_result_sentence(row.id in traced)),
            whole.get(row.id, ""), sentences.get(row.id, "")]))) for row in page]
        self._said_rows = self._count if len(page) < rows else self._said_rows + rows
        spent = time.perf_counter() - began
        self._page_rows = max(FIRST_PAGE_ROWS // 4, min(PAGE_ROWS, int(rows * PAGE_S / spent) if spent else PAGE_ROWS))
        if self._said_rows < self._count:
            if background:
                self._timer.start()
        elif background:
            self.ready.emit()

    def _kept_facts(self, page: Sequence[TimelineRow], run_source: str) -> tuple[set[int], set[int]]:
        """Of the steps of ``page``: those whose payload keeps content blocks or structured content (their
        lines are said from the whole payload), and of those whose row says no result, the ones that came
        from a trace."""
        blocks: set[int] = set()
        traced: set[int] = set()
        ids = [row.id for row in page]
        lacking = [row.id for row in page if not _row_result(row, run_source)]
        conn = self.store.db.conn
        for start in range(0, len(ids), 500):
            chunk = ids[start:start + 500]
            blocks.update(step_id for (step_id,) in conn.execute(  # a byte search first: no payload parsed for it
                f"SELECT id FROM steps WHERE id IN ({','.join('?' * len(chunk))}) AND (instr(payload, "
                "'\"contentBlocks\"') > 0 OR instr(payload, '\"structuredContent') > 0) AND json_valid(payload) "
                "AND (json_type(payload, '$.contentBlocks') = 'array' OR json_type(payload, '$.structuredContent') "
                "IN ('object', 'array') OR json_type(payload, '$.structuredContentText') = 'text')", chunk))
        for start in range(0, len(lacking), 500):
            chunk = lacking[start:start + 500]
            traced.update(step_id for (step_id,) in conn.execute(
                f"SELECT id FROM steps WHERE id IN ({','.join('?' * len(chunk))}) AND json_valid(payload)"
                " AND json_type(payload, '$.raw.otlp') = 'object'", chunk))
        return blocks, traced

    def _sentences_said(self, page: Sequence[TimelineRow]) -> dict[int, str]:
        """Our stored sentences of the steps of ``page`` that keep a template, as the reader sees them
        (in English the stored text is what is seen: none)."""
        if current_language() == DEFAULT_LANGUAGE:
            return {}
        paths = ", ".join(f"'{path}'" for path in SAID_PATHS)
        ids = [row.id for row in page]
        said: dict[int, str] = {}
        for start in range(0, len(ids), 500):
            chunk = ids[start:start + 500]
            for step_id, parts in self.store.db.conn.execute(
                    f"SELECT id, json_extract(payload, {paths}) FROM steps WHERE id IN ({','.join('?' * len(chunk))})"
                    " AND instr(payload, '\"template\"') > 0 AND json_valid(payload)", chunk):
                said[step_id] = "\n".join(sentences_said(parts))
        return said

    def _whole_words(self, rows: Sequence[TimelineRow], run_source: str) -> dict[int, str]:
        """The words of these rows' steps that their whole payloads tell (:func:`whole_words`): a row
        keeps too little of the two sides and of a conversation to say them."""
        if not rows:
            return {}
        by_id = {row.id: row for row in rows}
        said: dict[int, str] = {}
        ids = list(by_id)
        for start in range(0, len(ids), 500):
            chunk = ids[start:start + 500]
            for step_id, text in self.store.db.conn.execute(
                    f"SELECT id, payload FROM steps WHERE id IN ({','.join('?' * len(chunk))})", chunk):
                said[step_id] = _said_or_nothing(whole_words, text, by_id[step_id], run_source)
        return said


def _said_or_nothing(say: Callable[[Mapping[str, Any], TimelineRow, str], str], payload: str, row: TimelineRow,
                     run_source: str) -> str:
    """What ``say`` says of a stored payload; "" for one too long to parse or of a shape it cannot say
    (Find then finds the stored text)."""
    try:
        parsed = parsed_payload(payload)
        return say(parsed, row, run_source) if parsed else ""
    except (ValueError, TypeError, KeyError, AttributeError, RecursionError):
        return ""


__all__ = ["AT_ONCE_ROWS", "AT_ONCE_S", "FIRST_PAGE_ROWS", "PAGE_ROWS", "PAGE_S", "ShownWords", "empty_result_sentence",
           "remote_effect_sentence", "row_words", "step_heading", "whole_words"]
