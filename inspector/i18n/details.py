"""A timeline step's details in the user's language (the stored and exported ones stay English)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from inspector.mcp.results import TOOL_ERROR_HEADS
from inspector.runs import DetailWords, step_details
from inspector.runs.timeline import MAX_DETAILS_CHARS

from . import N_, _, ngettext
from .messages import Message, message_from_note, said_again, translate

#: What the trace importer writes of a span that never ended (``inspector.traces.otlp.UNFINISHED_NOTE``,
#: the same English): kept in the step's text, said in the reader's language where it is shown.
UNFINISHED_NOTE = N_("unfinished: the span has no end time")


def unfinished_said(text: str) -> str:
    """``text`` with the importer's note on a span that never ended said in the current language."""
    if not isinstance(text, str) or UNFINISHED_NOTE not in text:
        return text
    return text.replace(UNFINISHED_NOTE, _(UNFINISHED_NOTE))


class TranslatedDetailWords(DetailWords):
    """The words of :func:`inspector.runs.step_details` from the catalogue, in the current language."""

    def cancelled_in_flight(self) -> str:
        return _("cancelled in flight (the request had been sent; whether the remote side acted on it is unknown)")

    def cancelled_before_send(self) -> str:
        return _("cancelled before the request was sent")

    def dropped_sources(self, count: int) -> str:
        return ngettext("dropped {count} source", "dropped {count} sources", count).format(count=count)

    def wrote(self, target: str) -> str:
        return _("wrote {target}").format(target=target)

    def result_and_write(self, result: str, target: str) -> str:
        if not result:
            return _("(wrote {target})").format(target=target)
        return _("{result} (wrote {target})").format(result=result, target=target)

    def requested_tool_calls(self, count: int) -> str:
        return ngettext("requested {count} tool call", "requested {count} tool calls", count).format(count=count)

    def tool_and_detail(self, tool: str, detail: str) -> str:
        if tool and detail:
            return _("{tool}: {detail}").format(tool=tool, detail=detail)
        return tool or detail

    def content_line(self, payload: Mapping[str, Any], line: str) -> str:
        return unfinished_said(said_again(line, payload.get("wording")))

    def result_line(self, payload: Mapping[str, Any], line: str) -> str:
        if "wording" in payload:  # our own sentence at its head, kept as data
            return said_again(line, payload["wording"])
        return importer_lines_said(line, payload).split("\n", 1)[0]


def importer_notes(payload: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The sentences the trace importer wrote into a step read from another tool's spans, each kept
    with its template (``raw.otlp``: the client side's notes, the server side's notes, the sentence on
    how the two disagree, and the note on the outcome the two make together). A timeline row's
    payload holds only each side's first note; a step's whole payload holds them all (a failure, then
    its ``error.type`` in words)."""
    raw = payload.get("raw")
    otlp = raw.get("otlp") if isinstance(raw, Mapping) else None
    if not isinstance(otlp, Mapping):
        return []
    server = otlp.get("server")
    found = [*_each(otlp.get("notes")), *_each(server.get("notes") if isinstance(server, Mapping) else None),
             otlp.get("disagreement"), otlp.get("outcomeNote")]
    return [note for note in found if isinstance(note, Mapping) and isinstance(note.get("text"), str)]


def importer_lines_said(text: str, payload: Mapping[str, Any]) -> str:
    """``text`` (a step's result or content) with each line that is one of the importer's notes
    (:func:`importer_notes`) said in the current language; other lines as they are."""
    notes = {note["text"]: note for note in importer_notes(payload) if note["text"]}
    if not notes or not isinstance(text, str):
        return unfinished_said(text)
    lines = text.split("\n")
    for index, line in enumerate(lines):
        note = notes.get(line)
        if note is not None:
            said = translate(message_from_note(note))
            lines[index] = said if said and "\n" not in said else line
    return unfinished_said("\n".join(lines))


def stored_text_said(text: str, payload: Mapping[str, Any]) -> str:
    """A step's stored result or content as a person reads it: the sentence of ours it begins with
    (``wording``) and the importer's notes among its lines said in the current language."""
    return importer_lines_said(said_again(text, payload.get("wording")), payload)


def disagreement_said(payload: Mapping[str, Any]) -> str:
    """How the two sides of a call read from a trace disagree (``raw.otlp.disagreement``), in the
    current language; "" when they agree or the step is not a joined call. A side's error is left
    out where the step's own lines say it already (see :func:`side_said`)."""
    note = _disagreement_note(payload)
    if note is None:
        return ""
    message = message_from_note(note)
    params = note.get("params")
    if isinstance(message, Message) and isinstance(params, Mapping) and set(message.params) == {"client", "server"}:
        already = own_lines(payload)
        message = Message(message.template, {key: side_message(params[key], already) for key in message.params})
    return translate(message)


#: A side's words in a disagreement that name its error in brackets (the trace importer's English
#: templates, as stored: ``inspector.traces.foreign``), and the same words without the error.
_WITHOUT_ERROR = {"gave up after {ms} ms ({error})": N_("gave up after {ms} ms"),
                  "failed after {ms} ms ({error})": N_("failed after {ms} ms")}


def side_message(note: Any, already: str) -> Message | str:
    """One side's words in a disagreement (``raw.otlp.disagreement.params.client`` or ``.server``),
    without its error in brackets when ``already`` (the step's own lines, :func:`own_lines`) says that
    error: a timed-out call says its exception once ("McpError: Timed out while waiting …"), and the sentence
    on the sides says only when each ended ("the client gave up after 504 ms")."""
    message = message_from_note(note)
    if isinstance(message, Message) and message.template in _WITHOUT_ERROR:
        error, ms = message.params.get("error"), message.params.get("ms")
        if isinstance(error, str) and error and error in already and ms is not None:
            return Message(_WITHOUT_ERROR[message.template], {"ms": ms})
    return message


def side_said(note: Any, already: str) -> str:
    """:func:`side_message` in the current language."""
    return translate(side_message(note, already))


def own_lines(payload: Mapping[str, Any]) -> str:
    """The step's own text as stored (its result, else its content) without the line that says how the
    two sides disagree: what the step says of its outcome, which that sentence need not say again."""
    text = payload.get("toolResult") if isinstance(payload.get("toolResult"), str) else payload.get("content")
    return without_disagreement(text, payload) if isinstance(text, str) else ""


def without_disagreement(text: str, payload: Mapping[str, Any]) -> str:
    """``text`` (a step's stored result or content) without its line saying how the two sides of the
    call disagree, for a view that says that elsewhere (the window's band); ``text`` as it is when
    it has no such line."""
    note = _disagreement_note(payload)
    if note is None or not isinstance(text, str):
        return text
    lines = text.split("\n")
    kept = [line for line in lines if line != note["text"]]
    return "\n".join(kept) if len(kept) != len(lines) else text


#: The client's words in a disagreement when it stopped waiting before an answer came.
_STOPPED_WAITING = ("gave up after {ms} ms ({error})", "was cancelled after {ms} ms",
                    "stopped waiting after {ms} ms, {left} ms before the server's side ended")


def server_answer_marked(text: str, payload: Mapping[str, Any]) -> str:
    """``text`` (a step's stored result, its lines the importer's notes, then the answer) with a line
    before the answer saying whose it is, when the client had stopped waiting: the answer is then the
    server's, one the client never received (Traceloop's time-out: the client gave up, the server
    finished and its answer is kept). ``text`` as it is otherwise."""
    note = _disagreement_note(payload)
    client = note.get("params", {}).get("client") if note is not None and isinstance(note.get("params"), Mapping) \
        else None
    if not isinstance(client, Mapping) or client.get("template") not in _STOPPED_WAITING or not text:
        return text
    notes = {found["text"] for found in importer_notes(payload)}
    lines = text.split("\n")
    first = next((index for index, line in enumerate(lines) if line not in notes), None)
    if first is None:
        return text
    lines.insert(first, _("The server's answer, which the client had stopped waiting for:"))
    return "\n".join(lines)


def outcome_note_said(payload: Mapping[str, Any]) -> str:
    """What the importer found of a call's outcome that the two sides make together (``raw.otlp.outcomeNote``:
    "no outcome recorded: the client stopped waiting 10 ms before the server's side ended, and recorded no error
    (a cancel, or a client that gave up: the trace does not say which)"), in the current language; "" for none."""
    note = _disagreement_note(payload, "outcomeNote")
    return "" if note is None else str(translate(message_from_note(note)))


def _disagreement_note(payload: Mapping[str, Any], key: str = "disagreement") -> Mapping[str, Any] | None:
    raw = payload.get("raw")
    otlp = raw.get("otlp") if isinstance(raw, Mapping) else None
    note = otlp.get(key) if isinstance(otlp, Mapping) else None
    if not isinstance(note, Mapping) or not isinstance(note.get("text"), str) or not note["text"]:
        return None
    return note


def _each(notes: Any) -> list[Any]:
    return notes if isinstance(notes, list) else []


class ReasonFirstDetailWords(TranslatedDetailWords):
    """:class:`TranslatedDetailWords` for a cell with little room: a tool's error says the tool's own text
    ("flaky: Call 2 failed: …"), not first our sentence naming the tool and its server ("The tool flaky on Fresh
    demo server reported an error: …"), which the cell's other columns, its tooltip and the step detail say."""

    def result_line(self, payload: Mapping[str, Any], line: str) -> str:
        wording = payload.get("wording")
        head = wording.get("text") if isinstance(wording, Mapping) else None
        if (isinstance(head, str) and head and wording.get("template") in TOOL_ERROR_HEADS
                and isinstance(line, str) and line.startswith(head) and line[len(head):].strip()):
            return line[len(head):].strip()
        return super().result_line(payload, line)


class OutcomeHeadDetailWords(TranslatedDetailWords):
    """:class:`TranslatedDetailWords` for a row whose call's outcome note (:func:`outcome_note_said`) is said whole
    on a line of its own under it: the row says only the note's head, the words before its first colon ("slow: no
    outcome recorded"), not the note cut short ("slow: no outcome recorded: … (a ca…") and then repeated whole."""

    def result_line(self, payload: Mapping[str, Any], line: str) -> str:
        said = super().result_line(payload, line)
        note = outcome_note_said(payload)
        head = note.split(": ", 1)[0]
        return head if note and said == note and head != note else said


TRANSLATED_DETAILS = TranslatedDetailWords()
REASON_FIRST_DETAILS = ReasonFirstDetailWords()
OUTCOME_HEAD_DETAILS = OutcomeHeadDetailWords()


def localized_step_details(payload: Mapping[str, Any], limit: int = MAX_DETAILS_CHARS) -> str:
    """What :func:`inspector.runs.step_details` says of ``payload``, in the current language (``limit``:
    the characters past which it is shortened)."""
    return step_details(payload, TRANSLATED_DETAILS, limit)


def reason_first_details(payload: Mapping[str, Any], limit: int = MAX_DETAILS_CHARS) -> str:
    """:func:`localized_step_details` for a cell with little room: a tool's error by the tool's own text
    (:class:`ReasonFirstDetailWords`); its whole sentence is the cell's tooltip and the step detail's."""
    return step_details(payload, REASON_FIRST_DETAILS, limit)


__all__ = ["OUTCOME_HEAD_DETAILS", "OutcomeHeadDetailWords",
           "REASON_FIRST_DETAILS", "TRANSLATED_DETAILS", "ReasonFirstDetailWords", "reason_first_details",
           "TranslatedDetailWords", "disagreement_said", "importer_lines_said",
           "importer_notes", "localized_step_details", "outcome_note_said", "own_lines", "server_answer_marked",
           "side_message", "side_said", "stored_text_said", "UNFINISHED_NOTE", "unfinished_said",
           "without_disagreement"]
