"""How a foreign span ended, said honestly: ok, failed (a time-out named as one), cancelled, or no
outcome recorded, with the error in words.

The sentences are :class:`Message` objects: their English text is what the step stores (as every
stored sentence of the importer is), their template and values go to ``raw.otlp.notes`` so a
reader can show them in its own language. No I/O, no SQLite, no Qt.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from inspector.i18n import N_
from inspector.i18n.messages import Message

from .conventions import Meaning
from .strands_spans import CANCELLATION, TOOL_STATUS

STATUS_OK, STATUS_ERROR = 1, 2
OK, FAILED, CANCELLED, UNRECORDED = "ok", "failed", "cancelled", ""

_TIMED_OUT = re.compile(r"time[ds]?[ _-]?out", re.IGNORECASE)
#: Exception classes (the last part of their dotted name) that mean the awaiting code was cancelled:
#: asyncio's and concurrent.futures' ``CancelledError`` (anyio's cancel scopes raise asyncio's), trio's
#: ``Cancelled``. GenAI instrumentations (pydantic-ai's ``execute_tool``) record them as an ERROR status
#: with an ``exception`` event, or as ``error.type``, when the agent cancels a tool call.
_CANCELLATIONS = frozenset({"CancelledError", "Cancelled"})

#: ``error.type`` values with words of their own (the value itself is always kept too). The
#: numbers are JSON-RPC error codes, as the mcp SDK's server spans write them.
_ERROR_TYPES: dict[str, str] = {
    "tool_error": N_("the tool reported an error (error.type {value})"),
    # Google ADK's mark of an MCP answer with isError (its status message repeats it).
    "MCP_TOOL_ERROR": N_("the tool reported an error (error.type {value})"),
    "-32700": N_("the server could not parse the request (JSON-RPC error {value})"),
    "-32600": N_("the server refused the request as invalid (JSON-RPC error {value})"),
    "-32601": N_("the server does not know the method (JSON-RPC error {value})"),
    "-32602": N_("the server refused the request's parameters (JSON-RPC error {value})"),
    "-32603": N_("the server failed inside (JSON-RPC error {value})"),
    "-32000": N_("the connection closed before an answer (JSON-RPC error {value})"),
    "-32001": N_("the request timed out (JSON-RPC error {value})"),
    "_OTHER": N_("an error its source did not classify (error.type {value})"),
    "interrupted": N_("interrupted before it ended (error.type {value})"),
    "not_sent": N_("never sent (error.type {value})"),
}
_OTHER_ERROR = N_("failed with error.type {value}")
#: The JSON-RPC code of a request its client gave up on (the mcp SDK's REQUEST_TIMEOUT).
_TIME_OUT_CODE = "-32001"


@dataclass(frozen=True)
class Ending:
    """How one span ended: ``outcome`` (``ok``, ``failed``, ``cancelled`` or ``""`` for none
    recorded), whether it was a time-out, the error as text, and the sentences that say so."""

    outcome: str
    timed_out: bool = False
    error: str = ""
    explicit_ok: bool = False
    notes: tuple[Message, ...] = field(default_factory=tuple)
    #: The notes say ``error`` as it is: an answer that is only that text again need not follow them.
    said_error: bool = False

    @property
    def recorded(self) -> bool:
        return self.outcome != UNRECORDED


def error_type_words(value: str) -> Message:
    """An ``error.type`` value in words (its value named in them)."""
    return Message(_ERROR_TYPES.get(value, _OTHER_ERROR), {"value": value})


def _exception_text(exception: Mapping[str, str] | None) -> str:
    if not exception:
        return ""
    kind, message = exception.get("type", ""), exception.get("message", "")
    return f"{kind}: {message}" if kind and message else kind or message


def is_time_out(error_type: str, exception: Mapping[str, str] | None, status_message: str) -> bool:
    """A time-out: the exception's type names one (``TimeoutError``, ``ReadTimeout``, ...),
    ``error.type`` does, or the error message says the request timed out."""
    kind = (exception or {}).get("type", "").rsplit(".", 1)[-1]
    texts = (kind, error_type, (exception or {}).get("message", ""), status_message)
    return any(_TIMED_OUT.search(text) for text in texts if text) or error_type == _TIME_OUT_CODE


def is_cancellation(error_type: str, exception: Mapping[str, str] | None) -> bool:
    """The span's exception, or its ``error.type``, is a cancellation (``asyncio.CancelledError``, ...)."""
    kinds = ((exception or {}).get("type", ""), error_type)
    return any(kind.rsplit(".", 1)[-1] in _CANCELLATIONS for kind in kinds if kind)


def _names_exception(error_type: str, exception: Mapping[str, str] | None) -> bool:
    """``error.type`` only names the class of the exception already said ("McpError" after
    "mcp.shared.exceptions.McpError: Timed out …"): its value adds nothing to the sentence (it is
    kept with the attributes). Values with words of their own are always said."""
    kind = (exception or {}).get("type", "")
    return error_type not in _ERROR_TYPES and bool(kind) and error_type in (kind, kind.rsplit(".", 1)[-1])


def ending(meaning: Meaning, status_code: int, status_message: str, attributes: Mapping[str, Any],
           exception: Mapping[str, str] | None) -> Ending:
    """How a finished span ended, by its status, ``error.type``, exception event and result."""
    raw_type = attributes.get("error.type")
    error_type = raw_type if isinstance(raw_type, str) else str(raw_type) if raw_type is not None else ""
    if error_type == "cancelled":
        return Ending(CANCELLED, notes=(Message(N_("cancelled (error.type {value})"), {"value": error_type}),))
    cancellation = attributes.get(CANCELLATION)  # Strands' mark of a run its caller cancelled
    if isinstance(cancellation, str) and status_code != STATUS_ERROR:
        return Ending(CANCELLED, error=cancellation, notes=(
            Message(N_("cancelled ({name} {value})"), {"name": CANCELLATION, "value": cancellation}),))
    # (most spans name no error type and no exception: nothing to look at for a cancellation then)
    if (error_type or exception) and is_cancellation(error_type, exception) and not meaning.result_is_error:
        said = _exception_text(exception) or error_type
        return Ending(CANCELLED, error=said, notes=(Message(N_("cancelled: {error}"), {"error": said}),))
    if meaning.convention == "strands" and status_code != STATUS_ERROR and not error_type \
            and attributes.get(TOOL_STATUS) == "error":  # the tool answered with its error, the span said ok
        said = meaning.result or ""
        return Ending(FAILED, is_time_out("", exception, said), said, notes=(_STRANDS_ERROR,))
    failed = status_code == STATUS_ERROR or bool(error_type) or meaning.result_is_error
    if failed:
        notes: list[Message] = []
        text = _exception_text(exception) or status_message
        timed_out = is_time_out(error_type, exception, status_message)
        # The time-out's own code (FastMCP's -32001) is said beside the error, in one sentence that names the
        # time-out once: the error's words where they say it ("MCPError: Request 'tools/call' timed out
        # (JSON-RPC error -32001)"); without an error the code's words say it ("the request timed out (…)").
        coded = timed_out and error_type == _TIME_OUT_CODE
        if coded and text:
            said = (N_("{error} (JSON-RPC error {value})") if _TIMED_OUT.search(text)
                    else N_("timed out: {error} (JSON-RPC error {value})"))
            notes.append(Message(said, {"error": text, "value": error_type}))
        elif timed_out and not coded and _TIMED_OUT.search(text):
            # The error's own words say it timed out ("McpError: Timed out while waiting for response…",
            # "TimeoutError"): they are said as they are, not after a "timed out:" that says it again.
            notes.append(Message(N_("{error}"), {"error": text}))
        elif timed_out and not coded and text:
            notes.append(Message(N_("timed out: {error}"), {"error": text}))
        elif timed_out and not coded:
            # Only error.type says it ("TimeoutError", no exception, no message): said once, as its value.
            notes.append(Message(N_("timed out (error.type {value})"), {"value": error_type}))
        elif not timed_out and text and text != meaning.result and (exception or text != error_type):
            notes.append(Message(N_("failed: {error}"), {"error": text}))
        said_by_time_out = (coded and text) or (timed_out and not coded and not text)
        if error_type and not _names_exception(error_type, exception) and not said_by_time_out:
            notes.append(error_type_words(error_type))
        if not notes and meaning.result_is_error:  # only the answer says so (Logfire's MCP spans)
            notes.append(Message(N_("the tool reported an error (isError in its answer)")))
        if not notes and text and text == meaning.result:  # the answer is the error again (Strands'): said once
            notes.append(Message(N_("failed: {error}"), {"error": text}))
        if not notes:
            notes.append(Message(N_("failed (the span's status is ERROR, with no message)")))
        said = bool(text) and any(note.params.get("error") == text for note in notes)
        return Ending(FAILED, timed_out, text or error_type, notes=tuple(notes), said_error=said)
    if status_code == STATUS_OK and meaning.convention == "strands" and meaning.kind == "tool" \
            and not meaning.answered and meaning.result is None:
        return _ABANDONED
    if status_code == STATUS_OK:
        return _EXPLICIT_OK
    if meaning.result is not None or meaning.answered:
        return _EXPLICIT_OK
    if meaning.states_success and meaning.kind == "tool":
        return Ending(UNRECORDED, notes=(Message(N_("no outcome recorded: the span ended without a status, "
                                                    "an error or a result")),))
    if meaning.states_success:
        return _UNRECORDED  # not a call: nothing to say
    return _OK


# The endings with nothing of their own to say, made once (an import asks for one per span).
_OK, _EXPLICIT_OK, _UNRECORDED = Ending(OK), Ending(OK, explicit_ok=True), Ending(UNRECORDED)
_STRANDS_ERROR = Message(N_("the tool answered with an error (gen_ai.tool.status error)"))
#: A Strands tool span that ended OK without the tool's answer (no ``gen_ai.tool.status``): Strands ends it so when
#: the call was interrupted or its stream abandoned (its agent's run cancelled), so it says nothing of the call.
_ABANDONED = Ending(UNRECORDED, notes=(Message(N_(
    "no outcome recorded: the span's status said ok, but it holds no answer of the tool (Strands ends a tool's "
    "span so when the call was interrupted or abandoned)")),))
