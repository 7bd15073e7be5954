"""The trace file format: its names, limits and rules, and how one run or step of it is read.

Shared by the exporter (which writes what is described here), the OTLP mapping and the importer
(which refuses anything else). See ``docs/trace-format.md`` for the format itself.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from inspector.i18n import N_
from inspector.i18n.messages import Count, Message, kept_sentence
from inspector.runs import RUN_STATUSES, InvalidStepError, RunStep
from inspector.runs.finite import finite_json
from inspector.runs.nesting import nested_deeper
from inspector.runs.sentences import describe
from inspector.runs.step import LARGEST_SEQUENCE, PAYLOAD_KEYS, StoredPayload
from inspector.runs.times import UnstorableTimeError, to_stored_time

FORMAT_NAME = "run-inspector-trace"
FORMAT_VERSION = 1
"""The newest version this code writes and reads; every older one is read too."""

MAX_STRING_CHARS = 5_000_000
"""No single string (or object key) in an imported file may be longer (characters)."""

MAX_RECORD_BYTES = 32_000_000
"""Largest step record (or span) an import builds, in estimated bytes of memory: 24 per value,
160 per list or object, 48 per string plus its characters, 8 per object key plus its characters.
A 5 MB string fits; half a million tiny objects do not."""

MAX_VALUE_DEPTH = 100
"""Deepest nesting of a value a run stores from what it was given: a call's arguments (``call --args``,
a scenario's calls). What is stored is exported, and must be imported again: the limits below are
this one plus the levels our own formats put around it."""

MAX_PAYLOAD_DEPTH = MAX_VALUE_DEPTH + 3
"""Deepest nesting of a step's payload (an OTLP span's ``run_inspector.step.payload``, counted from the
payload): a call's arguments sit 3 levels in, at ``requestedToolCalls[k].arguments``."""

MAX_DEPTH = MAX_PAYLOAD_DEPTH + 5
"""Deepest nesting of lists and objects allowed anywhere in an imported file: a step's payload sits
5 levels in, at ``runs[i].steps[j].payload``."""

MAX_UID_CHARS = 256

# Keys of a step payload, so an error raised by RunStep can be pinned to the key it is about
# (the longest first: "contentBlocks" before "content").
_PAYLOAD_KEYS = tuple(sorted(PAYLOAD_KEYS, key=len, reverse=True))
_STORED_TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z")
_KEY_IN_MESSAGE = re.compile(r"\b(" + "|".join(_PAYLOAD_KEYS) + r")\b(\[\d+\])?")

Path = tuple[str | int, ...]
"""Where a value sits in a JSON document: keys and list indexes from the top."""


class TraceError(Exception):
    """A trace file could not be read or written; the message says what and where.

    ``sentence`` is the message as given: a translatable ``Message`` where we made it (``str()``
    of the error stays the English sentence, for ``--json``)."""

    def __init__(self, message: object = "") -> None:
        self.sentence = message
        super().__init__(str(message))


#: The ``location`` of a problem of the file as a whole (it cannot be read, it is a folder).
WHOLE_FILE = N_("the file")


class TraceImportError(TraceError):
    """A file cannot be imported. Nothing was written; the message says where and what is wrong.

    ``location`` names the place (``runs[3].steps[17].payload.toolOutcome``, ``line 12: ...``
    or ``byte 4096 (line 3, column 9)``); ``problem`` says what is wrong there.
    """

    def __init__(self, file_name: str, location: str | Message, problem: str | Message) -> None:
        self.file_name = file_name
        # ``location`` and ``problem`` are the English words (in ``--json`` too); the sentence
        # keeps them as given, so a translatable place or problem is said in the current
        # language where the sentence is shown.
        self.location = str(location)
        self.problem = str(problem)
        if self.location == WHOLE_FILE:  # no place inside it: the problem is said of the file itself
            super().__init__(Message(N_("Cannot import {file}: it {problem}. Nothing was imported."),
                                     {"file": file_name, "problem": problem}))
            return
        super().__init__(Message(N_("Cannot import {file}: {location}: {problem}. Nothing was imported."),
                                 {"file": file_name, "location": location, "problem": problem}))




class TraceProblem(Exception):
    """A problem found at ``path``; the importer turns it into a :class:`TraceImportError`.

    Readers raise this instead of the public error because only the importer knows the
    file name and, for JSON Lines, the line the path is relative to.

    ``problem`` is a :class:`Message` (a whole clause per case, its inner phrases messages of
    their own) or, from older callers, plain English; ``.problem`` is always the English text.
    ``path`` None: the problem is the whole file's, not of a place in it; ``problem`` is then said of
    the file ("Cannot import a.json: it {problem}"), so it begins with a verb.
    """

    def __init__(self, path: Path | None, problem: str | Message, line: int | None = None) -> None:
        super().__init__(str(problem))
        self.path = path
        self.sentence = problem
        self.problem = str(problem)
        self.line = line  # the line of a JSON Lines file the path is relative to


def said(template: str, **params: Any) -> Message:
    """A problem clause: ``template`` (marked with ``N_`` by the caller) and its values."""
    return Message(template, params)


def format_path(path: Path) -> str:
    """``("runs", 3, "steps", 17)`` → ``runs[3].steps[17]``; the empty path is the top level."""
    return str(place(path))


#: A place deeper than this many steps is said by its first and last ones, "…" between (a file nested
#: 100 levels deep would otherwise make a sentence of two thousand characters).
PLACE_STEPS, PLACE_HEAD, PLACE_TAIL = 16, 10, 4


def place(path: Path) -> str | Message:
    """Where ``path`` is, as a location is shown: the path itself (file words, never translated),
    or for the empty path the words "the top level", translated where shown. A deep one keeps its
    first :data:`PLACE_HEAD` and last :data:`PLACE_TAIL` steps."""
    parts = list(path)
    if len(parts) > PLACE_STEPS:
        return f"{_steps(parts[:PLACE_HEAD])}…{_steps(parts[-PLACE_TAIL:], inner=True)}"
    return _steps(parts) or Message(N_("the top level"))


def _steps(parts: list[str | int], inner: bool = False) -> str:
    text = ""
    for part in parts:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text or inner else part)
    return text


# -- times -----------------------------------------------------------------------------------------

def format_time(moment: datetime | None) -> str | None:
    """A stored time as written to a file: the stored text (UTC, ISO 8601, 'Z'), or null."""
    return to_stored_time(moment) or None


#: The shape of an ISO 8601 date and time (its year's digits in group 1), whether or not the day exists.
_TIME_SHAPE = re.compile(r"[+-]?([0-9]{4,})-[0-9]{2}-[0-9]{2}[T ][0-9]{2}:[0-9]{2}")


def _no_time(value: str) -> Message:
    """Why ``value`` names no time: outside the years that can be stored, a day or time that does not
    exist in the calendar (30 February, a 61st second), or not ISO 8601 at all."""
    text = f"{value!r:.60}"
    shape = _TIME_SHAPE.match(value)
    if shape is not None and (len(shape.group(1)) > 4 or int(shape.group(1)) == 0):
        return said(N_("{text} is outside the times that can be stored (years 1 to 9999 in UTC)"), text=text)
    if shape is not None:
        return said(N_("{text} names a day or time the calendar does not have (such as 30 February or a 61st "
                       "second)"), text=text)
    return said(N_("{text} is not an ISO 8601 time"), text=text)


def read_time(value: Any, path: Path, *, required: bool = False) -> str:
    """Read an ISO 8601 time with a zone; return it in the stored form ('' when null/absent)."""
    if value is None or value == "":
        if required:
            raise TraceProblem(path, said(N_("a time is required here")))
        return ""
    if not isinstance(value, str):
        raise TraceProblem(path, said(N_("must be an ISO 8601 time or null, got {value}"), value=describe(value)))
    stored = _STORED_TIME.fullmatch(value) is not None
    try:
        # RFC 3339 lets UTC be written 'z' as well as 'Z' (as it does 't' for 'T', which Python reads).
        moment = datetime.fromisoformat(value[:-1] + "Z" if value.endswith("z") else value)
    except ValueError:
        raise TraceProblem(path, _no_time(value)) from None
    if moment.tzinfo is None:
        # A time without a zone could be any of 24 hours; guessing would shift the whole run.
        raise TraceProblem(path, said(N_("{text} has no time zone (write it in UTC, ending in 'Z')"),
                                      text=f"{value!r:.60}"))
    # Already in the stored form (what we export): keep the text, skip formatting it again.
    if stored:
        return value
    try:
        return to_stored_time(moment)
    except UnstorableTimeError:
        raise TraceProblem(path, said(N_("{text} is outside the times that can be stored (years 1 to 9999 in UTC)"),
                                      text=f"{value!r:.60}")) from None


# -- runs and steps ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class RunHeader:
    """What a file says about one run, apart from its steps. Times are in the stored form."""

    uid: str
    title: str
    source: str
    server: str | None
    status: str
    started_at: str
    finished_at: str
    #: What someone who reviewed the run wrote about it ("" when nothing).
    note: str = ""
    #: For spans of another tool in the trace of a run of ours: that run's uid. Their steps join
    #: that run (after its steps) instead of making a run of their own.
    joins: str = ""


#: The longest note a trace may carry for a run (characters); a step's note is part of its payload.
MAX_NOTE_CHARS = 20_000


def read_note(value: Any, path: Path) -> str:
    """A run's note: a string of at most :data:`MAX_NOTE_CHARS` characters (absent: "")."""
    note = read_text(value, path, optional=True) or ""
    if len(note) > MAX_NOTE_CHARS:
        raise TraceProblem(path, said(N_("a note may have at most {limit} characters, this one has {count}"),
                                      limit=Count(MAX_NOTE_CHARS), count=Count(len(note))))
    return note


@dataclass(frozen=True)
class TraceStep:
    """One step read from a file: its place in the run, its time (stored form) and the step."""

    sequence: int
    started_at: str
    #: The step; for an importer that asked for it, the checked payload in its stored form.
    step: RunStep | StoredPayload


def read_text(value: Any, path: Path, *, optional: bool = False) -> str | None:
    """A string field; ``None`` is allowed only when ``optional``."""
    if value is None and optional:
        return None
    if not isinstance(value, str):
        template = N_("must be a string or null, got {value}") if optional else N_("must be a string, got {value}")
        raise TraceProblem(path, said(template, value=describe(value)))
    return value


def read_uid(value: Any, path: Path) -> str:
    """A run's identity: a non-empty string of at most :data:`MAX_UID_CHARS` characters."""
    uid = read_text(value, path)
    if not uid or len(uid) > MAX_UID_CHARS or not uid.isprintable():
        raise TraceProblem(path, said(N_("a run uid must be 1 to {limit} printable characters"),
                                      limit=MAX_UID_CHARS))
    return uid


def read_status(value: Any, path: Path) -> str:
    """A run status; ``running`` is accepted (the import stores it as ``interrupted``)."""
    if value not in RUN_STATUSES:
        raise TraceProblem(path, said(N_("must be one of {statuses}, got {value}"),
                                      statuses=str(list(RUN_STATUSES)), value=describe(value)))
    return value


def read_run_header(fields: Mapping[str, Any], path: Path) -> RunHeader:
    """Check the run fields of a version-1 trace file (everything but ``steps``)."""
    for key in ("uid", "title", "status"):
        if key not in fields:
            raise TraceProblem(path, said(N_("the run has no {key}"), key=repr(key)))
    return RunHeader(
        uid=read_uid(fields["uid"], (*path, "uid")),
        title=read_text(fields["title"], (*path, "title")),
        source=read_text(fields.get("source", ""), (*path, "source")),
        server=read_text(fields.get("server"), (*path, "server"), optional=True),
        status=read_status(fields["status"], (*path, "status")),
        started_at=read_time(fields.get("started_at"), (*path, "started_at")),
        finished_at=read_time(fields.get("finished_at"), (*path, "finished_at")),
        note=read_note(fields.get("note"), (*path, "note")),
    )


def read_sequence(value: Any, path: Path) -> int:
    """A step's place in its run: a whole number, 0 or more, that the run database can hold."""
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise TraceProblem(path, said(N_("must be a whole number (0 or more), got {value}"), value=describe(value)))
    if value > LARGEST_SEQUENCE:
        raise TraceProblem(path, said(N_("must be a whole number from 0 to {largest}, got {value}"),
                                      largest=LARGEST_SEQUENCE, value=describe(value)))
    return value


def read_step_record(record: Any, path: Path) -> TraceStep:
    """Check one ``{"sequence", "started_at", "payload"}`` record of a version-1 trace file."""
    if type(record) is not dict and not isinstance(record, Mapping):
        raise TraceProblem(path, said(N_("a step must be an object, got {value}"), value=describe(record)))
    for key in ("sequence", "payload"):
        if key not in record:
            raise TraceProblem(path, said(N_("the step has no {key}"), key=repr(key)))
    sequence = record["sequence"]
    if type(sequence) is not int or not 0 <= sequence <= LARGEST_SEQUENCE:  # read_sequence decides the unusual
        sequence = read_sequence(sequence, (*path, "sequence"))
    started_at = read_time(record.get("started_at"), (*path, "started_at"))
    return TraceStep(sequence, started_at, read_payload(record["payload"], (*path, "payload")))


def read_payload(payload: Any, path: Path) -> RunStep:
    """Build the step a stored payload describes, with the step's own rules.

    :class:`RunStep` is the one definition of a valid step; its message is kept and the
    path is narrowed to the key it names (e.g. ``payload.toolOutcome``).
    """
    if type(payload) is not dict and not isinstance(payload, Mapping):
        raise TraceProblem(path, said(N_("a step payload must be an object, got {value}"), value=describe(payload)))
    try:
        return RunStep.from_payload(payload)
    except InvalidStepError as error:
        message = str(error)
        sentence = error.sentence
        narrowed = _narrow(path, message)
        # "legs[1]: outcome must be …" at …payload.legs[1]: the place is said once, by the path.
        named = _KEY_IN_MESSAGE.match(message)
        if named is not None and narrowed != path and message.startswith(f"{named.group(0)}: "):
            message = message[len(named.group(0)) + 2:]
            sentence = getattr(sentence, "params", {}).get("problem", message)  # the run model's "{place}: {problem}"
        raise TraceProblem(narrowed, kept_sentence(sentence, message)) from None


def _narrow(path: Path, message: str) -> Path:
    found = _KEY_IN_MESSAGE.search(message)
    if found is None:
        return path
    narrowed: Path = (*path, found.group(1))
    if found.group(2):
        narrowed = (*narrowed, int(found.group(2)[1:-1]))
    return narrowed


def check_nesting(value: Any, path: Path, limit: int) -> None:
    """Refuse a value nested deeper than ``limit`` lists/objects."""
    if nested_deeper(value, limit):
        raise TraceProblem(path, nested_too_deep(limit))


def nested_too_deep(limit: int) -> Message:
    """The problem of a value nested deeper than ``limit`` lists and objects."""
    return said(N_("nested deeper than {limit} levels"), limit=limit)


def load_embedded_json(text: str, path: Path, depth_limit: int) -> Any:
    """Parse JSON held in a string (an OTLP attribute): no NaN/Infinity, bounded nesting."""
    def refuse_constant(name: str) -> Any:
        raise TraceProblem(path, said(N_("holds {name}, which is not a JSON number"), name=name))

    try:
        value = json.loads(text, parse_constant=refuse_constant)
    except RecursionError:
        raise TraceProblem(path, nested_too_deep(depth_limit)) from None
    except ValueError as error:  # JSONDecodeError is a ValueError
        raise TraceProblem(path, said(N_("is not valid JSON ({reason})"), reason=str(error))) from None
    check_nesting(value, path, depth_limit)
    if _SURROGATE_ESCAPE.search(text) and not _is_text(value):
        raise TraceProblem(path, said(N_("holds an escaped lone surrogate (such as {example}), which is not text"),
                                      example="\\udc00"))
    return value


# A \\uD800-\\uDFFF escape: half of a pair, or alone (then the value cannot be stored as text).
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def _is_text(value: Any) -> bool:
    """True when every string and key of ``value`` is valid Unicode (no lone surrogate)."""
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def dump_json(value: Any) -> str:
    """Compact JSON as written to trace files and embedded in OTLP attributes. A NaN or an infinity
    (JSON has neither; the receiver stored them before it refused them) is written as protobuf's JSON
    mapping spells it, the text ``"NaN"``, ``"Infinity"``, ``"-Infinity"``, which an import reads."""
    try:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except ValueError:  # out of range floats: rare, so looked for only when they are there
        return json.dumps(finite_json(value), ensure_ascii=False, separators=(",", ":"), allow_nan=False)


