"""One step of a run, as recorded and as stored.

The stored payload uses the reference's camelCase keys so that payloads
exported from the reference read here unchanged; this project adds ``legs``,
``cancelledInFlight``, ``contentBlocks``, ``contentBlocksDropped``, ``structuredContent``,
``structuredContentText``, ``serverRequests``,
``serverNotifications``,
``progress``, ``progressDropped``, ``serverToldToStop`` and how the server was reached
(``transport``, ``serverCommand``, ``protocolVersion``, ``era``, ``stderr``, ``stderrDropped``,
``lineProblems``) without changing the meaning of any reference key.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Any

from ._frozen import _PLAIN_SCALARS, NotJsonError, NotPlainError, freeze, freeze_plain, thaw
from .leg import InvalidLegError, Leg, _plain_leg
from .outcome import ToolOutcome
from .progress import NOTE_SHAPE, is_progress_note
from .sentences import N_, SaidError, Sentence, at, describe, said
from .wire import MAX_STEP_LINES, SPOKEN_ERAS, TRANSPORTS, is_lines

#: The largest number SQLite can hold: no step is numbered beyond it (an import refuses a larger one), and a
#: step number beyond it is never looked up.
LARGEST_SEQUENCE = 2**63 - 1

JsonList = tuple[Any, ...]
"""A JSON list, held as a tuple so the step stays immutable."""

JsonArray = Mapping[str, Any] | tuple[Any, ...]
"""A JSON list or object (the reference writes both from one PHP array type:
an empty PHP array is ``[]`` even where a non-empty one is ``{...}``)."""


class StepKind(StrEnum):
    """The kinds of step the reference records."""

    REQUEST = "request"
    LLM = "llm"
    TOOL = "tool"
    ASSEMBLED = "assembled"
    CONTEXT = "context"
    DROPPED = "dropped"
    TOOL_WRITE = "tool_write"


class InvalidStepError(SaidError):
    """A step, or its stored payload, breaks the rules of :class:`RunStep`; ``sentence`` says which
    (``str()``: in English)."""


# What a field may hold. One table drives validation, to_payload and
# from_payload, so a key cannot be checked in one place and forgotten in another.
_TEXT = "a string"
_COUNT = "a non-negative whole number"
_NUMBER = "a finite non-negative number"
_FLAG = "a boolean"
_LIST = "a list"
_ARRAY = "a list or an object"
_ARRAY_OR_NUMBER = "a list, an object or a number"
_OUTCOME = f"one of {[o.value for o in ToolOutcome]}"
_LEGS = "a list of legs"
_PROGRESS = NOTE_SHAPE
_TRANSPORT = f"one of {list(TRANSPORTS)}"
_ERA = f"one of {list(SPOKEN_ERAS)}"
_LINES = f"a list of at most {MAX_STEP_LINES} strings"

#: Each shape as it is said in a sentence ("toolOutcome (tool_outcome) must be …"): the English
#: is the shape itself; its data (the allowed values, a limit, field names) stays as it is.
_SHAPE_SAID: dict[str, Sentence] = {
    _TEXT: said(N_("a string")),
    _COUNT: said(N_("a non-negative whole number")),
    _NUMBER: said(N_("a finite non-negative number")),
    _FLAG: said(N_("a boolean")),
    _LIST: said(N_("a list")),
    _ARRAY: said(N_("a list or an object")),
    _ARRAY_OR_NUMBER: said(N_("a list, an object or a number")),
    _OUTCOME: said(N_("one of {choices}"), choices=str([o.value for o in ToolOutcome])),
    _LEGS: said(N_("a list of legs")),
    _PROGRESS: said(N_("a list of progress notes ({fields})"), fields="{atMs, progress, total, message}"),
    _TRANSPORT: said(N_("one of {choices}"), choices=str(list(TRANSPORTS))),
    _ERA: said(N_("one of {choices}"), choices=str(list(SPOKEN_ERAS))),
    _LINES: said(N_("a list of at most {limit} strings"), limit=MAX_STEP_LINES),
}


@dataclass(frozen=True)
class _Field:
    attr: str
    key: str
    shape: str


# In the reference's key order (then ours), which is the order to_payload writes.
_OPTIONAL_FIELDS: tuple[_Field, ...] = (
    _Field("messages_sent", "messagesSent", _LIST),
    _Field("tool_specs", "toolSpecs", _LIST),
    _Field("content", "content", _TEXT),
    _Field("thinking", "thinking", _TEXT),
    _Field("finish_reason", "finishReason", _TEXT),
    _Field("prompt_tokens", "promptTokens", _COUNT),
    _Field("completion_tokens", "completionTokens", _COUNT),
    _Field("total_tokens", "totalTokens", _COUNT),
    _Field("estimated_cost", "estimatedCost", _NUMBER),
    _Field("requested_tool_calls", "requestedToolCalls", _LIST),
    _Field("raw", "raw", _ARRAY),
    _Field("dropped_sources", "droppedSources", _LIST),
    _Field("tool_name", "toolName", _TEXT),
    _Field("tool_arguments", "toolArguments", _ARRAY),
    _Field("tool_result", "toolResult", _TEXT),
    _Field("tool_is_error", "toolIsError", _FLAG),
    _Field("tool_outcome", "toolOutcome", _OUTCOME),
    _Field("tool_artifacts", "toolArtifacts", _LIST),
    _Field("context_budget", "contextBudget", _ARRAY_OR_NUMBER),
    _Field("write_target_table", "writeTargetTable", _TEXT),
    _Field("write_target_uid", "writeTargetUid", _COUNT),
    _Field("legs", "legs", _LEGS),
    _Field("cancelled_in_flight", "cancelledInFlight", _FLAG),
    _Field("content_blocks", "contentBlocks", _LIST),
    _Field("content_blocks_dropped", "contentBlocksDropped", _COUNT),
    _Field("structured_content", "structuredContent", _ARRAY),
    _Field("structured_content_text", "structuredContentText", _TEXT),
    _Field("server_requests", "serverRequests", _LIST),
    _Field("server_notifications", "serverNotifications", _LIST),
    _Field("progress", "progress", _PROGRESS),
    _Field("progress_dropped", "progressDropped", _COUNT),
    _Field("server_told_to_stop", "serverToldToStop", _FLAG),
    _Field("transport", "transport", _TRANSPORT),
    _Field("server_command", "serverCommand", _TEXT),
    _Field("protocol_version", "protocolVersion", _TEXT),
    _Field("era", "era", _ERA),
    _Field("stderr", "stderr", _LINES),
    _Field("stderr_dropped", "stderrDropped", _COUNT),
    _Field("line_problems", "lineProblems", _LINES),
    _Field("task", "task", _ARRAY),
    _Field("note", "note", _TEXT),
    _Field("budget_s", "budgetS", _NUMBER),
    _Field("replay_of", "replayOf", _ARRAY),
    _Field("wording", "wording", _ARRAY),
)
#: Every key a stored payload may hold, in the order ``to_payload`` writes them.
PAYLOAD_KEYS: tuple[str, ...] = ("kind", "round", "durationMs", *(field.key for field in _OPTIONAL_FIELDS))


def stored_duration(ms: float) -> float:
    """``ms`` as a payload keeps it: to the hundredth of a millisecond, but a step that took any time
    never as 0 (a span of 4 µs was kept as 0 and read "0 s", where one of 6 µs read "< 0.001 s")."""
    return round(ms, 2) or ms


def _is_int(value: object) -> bool:
    # bool is a subclass of int; a stored true/false is never a count.
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: object) -> bool:
    return _is_int(value) or isinstance(value, float)


def _is_finite(value: object) -> bool:
    # NaN would make a step unequal to itself, and an int too large for a
    # float is not a JSON number other readers agree on.
    if not _is_number(value):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:
        return False


def _is_finite_non_negative(value: object) -> bool:
    return _is_finite(value) and value >= 0


def _wrong(field: _Field, value: object) -> InvalidStepError:
    return InvalidStepError(said(N_("{key} must be {shape}, got {value}"),
                                 key=field.key, shape=_SHAPE_SAID[field.shape], value=describe(value)))


def _normalise(field: _Field, value: Any) -> Any:
    """Return ``value`` checked against ``field.shape`` in its stored form."""
    shape = field.shape
    try:
        if shape == _TEXT:
            if isinstance(value, str):
                return value
        elif shape == _COUNT:
            if _is_int(value) and value >= 0:
                return value
        elif shape == _NUMBER:
            if _is_finite_non_negative(value):
                return float(value)
        elif shape == _FLAG:
            if isinstance(value, bool):
                return value
        elif shape == _LIST:
            if isinstance(value, (list, tuple)):
                return freeze(value, field.key)
        elif shape == _ARRAY:
            if isinstance(value, (list, tuple, Mapping)):
                return freeze(value, field.key)
        elif shape == _ARRAY_OR_NUMBER:
            if isinstance(value, (list, tuple, Mapping)):
                return freeze(value, field.key)
            if _is_finite(value):
                return value
        elif shape == _OUTCOME:
            outcome = ToolOutcome.parse(value)
            if outcome is not None:
                return outcome
        elif shape == _LEGS:
            if isinstance(value, (list, tuple)) and all(isinstance(leg, Leg) for leg in value):
                return tuple(value)
        elif shape == _PROGRESS:
            if isinstance(value, (list, tuple)) and all(is_progress_note(note) for note in value):
                return freeze(value, field.key)
        elif shape == _TRANSPORT:
            if value in TRANSPORTS and type(value) is str:
                return value
        elif shape == _ERA:
            if value in SPOKEN_ERAS and type(value) is str:
                return value
        elif shape == _LINES:
            if is_lines(value):
                return tuple(value)
    except NotJsonError as error:
        # The error of a value that is not JSON at all (a program's, never a file's) stays English.
        raise InvalidStepError(at(f"{field.key} ({field.attr})", str(error))) from error
    raise _wrong(field, value)


# Slots, not an instance dict: CPython shares the keys of instance dicts only up to 29
# attributes, and a step has more; a dict of its own per step would more than double the
# memory an import of 100,000 steps takes.
@dataclass(frozen=True, slots=True)
class RunStep:
    """A recorded step of a run: a value object, immutable and comparable.

    ``kind``, ``round`` and ``duration_ms`` are always present; every other
    field is optional (``None`` when absent). JSON list/object fields are
    held frozen (tuples and read-only mappings) and written back as lists
    and dicts by :meth:`to_payload`.

    Invariants (checked on construction, :class:`InvalidStepError`
    otherwise): a known kind, ``round >= 0``, ``duration_ms >= 0``, each
    field of its type; ``tool_outcome`` only on a ``tool`` step and only
    beside a ``tool_is_error`` that agrees with it (true exactly when the
    outcome is not ``ok``); ``cancelled_in_flight`` only on a step whose
    outcome is ``cancelled``.

    A step with ``tool_is_error`` and no ``tool_outcome`` is a row written
    before outcomes existed; it stays that way and its outcome is derived
    from the boolean when shown (see :func:`inspector.runs.timeline.step_outcome`).
    """

    kind: StepKind
    round: int
    duration_ms: float
    messages_sent: JsonList | None = None
    tool_specs: JsonList | None = None
    content: str | None = None
    thinking: str | None = None
    finish_reason: str | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    total_tokens: int | None = None
    estimated_cost: float | None = None
    requested_tool_calls: JsonList | None = None
    raw: JsonArray | None = None
    dropped_sources: JsonList | None = None
    tool_name: str | None = None
    tool_arguments: JsonArray | None = None
    tool_result: str | None = None
    tool_is_error: bool | None = None
    tool_outcome: ToolOutcome | None = None
    tool_artifacts: JsonList | None = None
    context_budget: JsonArray | float | None = None
    write_target_table: str | None = None
    write_target_uid: int | None = None
    legs: tuple[Leg, ...] = ()
    cancelled_in_flight: bool | None = None
    content_blocks: JsonList | None = None
    content_blocks_dropped: int | None = None
    #: The tool's ``structuredContent``, as it returned it (a JSON object), when its JSON text fits
    #: the bound of the text (:data:`inspector.runs.result.MAX_CONTENT_BYTES`);
    structured_content: JsonArray | None = None
    #: else that JSON text, cut to the bound with a note saying its size (and no ``structured_content``).
    structured_content_text: str | None = None
    server_requests: JsonList | None = None
    #: Log messages and list-changed notices the server sent meanwhile (first ones kept).
    server_notifications: JsonList | None = None
    progress: JsonList | None = None
    progress_dropped: int | None = None
    server_told_to_stop: bool | None = None
    #: How the server was reached: "http", "sse" or "stdio".
    transport: str | None = None
    #: A command server's command line (environment variables by name only).
    server_command: str | None = None
    #: The protocol revision the handshake agreed on.
    protocol_version: str | None = None
    #: The era of MCP it spoke in: "handshake" (initialize, a session) or "stateless" (2026-07-28 on).
    era: str | None = None
    #: The last lines the server wrote on stderr during the operation, and how many went before them.
    stderr: tuple[str, ...] | None = None
    stderr_dropped: int | None = None
    #: Faults of the line to a command server (not JSON on stdout, a line over the limit).
    line_problems: tuple[str, ...] | None = None
    #: The task the call ran as: ``taskId``, ``server``, ``shape``, last ``status``, ``polls``.
    task: JsonArray | None = None
    #: What someone who reviewed the step wrote about it (support staff's finding); never from a server.
    note: str | None = None
    #: The operation's budget in seconds (one deadline across its legs), as it was given.
    budget_s: float | None = None
    #: The step this one replays: ``{"run": uid, "step": sequence}`` (:mod:`inspector.runs.replaying`).
    replay_of: JsonArray | None = None
    #: The sentence of ours the step's text begins with (``content``, or ``toolResult`` on a tool
    #: step), as data: ``{"template", "params", "text"}`` (``inspector.mcp.messages.note_of``), so
    #: that a reader says it in its own language; the stored text stays English.
    wording: JsonArray | None = None

    def __post_init__(self) -> None:
        try:
            kind = StepKind(self.kind) if isinstance(self.kind, str) else None
        except ValueError:
            kind = None
        if kind is None:
            raise InvalidStepError(said(N_("kind must be one of {choices}, got {value}"),
                                        choices=str([k.value for k in StepKind]), value=describe(self.kind)))
        object.__setattr__(self, "kind", kind)
        if not _is_int(self.round) or self.round < 0:
            raise InvalidStepError(said(N_("round must be a non-negative whole number, got {value}"),
                                        value=describe(self.round)))
        if not _is_finite_non_negative(self.duration_ms):
            raise InvalidStepError(said(N_("durationMs must be a finite non-negative number, got {value}"),
                                        value=describe(self.duration_ms)))
        object.__setattr__(self, "duration_ms", float(self.duration_ms))
        for field in _OPTIONAL_FIELDS:
            value = getattr(self, field.attr)
            if value is not None:
                object.__setattr__(self, field.attr, _normalise(field, value))
        self._check_outcome()

    def _check_outcome(self) -> None:
        # The pair is refused here, in the object that serialises it, so
        # there is one definition of the rule rather than one per writer.
        outcome = self.tool_outcome
        if outcome is not None:
            if self.kind is not StepKind.TOOL:
                raise InvalidStepError(said(N_("an outcome on a non-tool step is refused: toolOutcome "
                                               "'{outcome}' on a '{kind}' step"),
                                            outcome=outcome.value, kind=self.kind.value))
            if self.tool_is_error is None:
                raise InvalidStepError(said(N_("toolOutcome '{outcome}' needs toolIsError beside it: without the "
                                               "boolean the step would be shown with no outcome at all"),
                                            outcome=outcome.value))
            if self.tool_is_error != (outcome is not ToolOutcome.OK):
                raise InvalidStepError(said(N_("toolIsError={flag} contradicts toolOutcome '{outcome}': "
                                               "toolIsError must be true exactly when the outcome is not ok"),
                                            flag=str(self.tool_is_error).lower(), outcome=outcome.value))
        if self.cancelled_in_flight is not None and outcome is None:
            raise InvalidStepError(said(N_("cancelledInFlight is only for a step whose toolOutcome is "
                                           "'cancelled', and this step has no toolOutcome")))
        if self.cancelled_in_flight is not None and outcome is not ToolOutcome.CANCELLED:
            raise InvalidStepError(said(N_("cancelledInFlight is only for a step whose toolOutcome is "
                                           "'cancelled', got toolOutcome {value}"), value=repr(outcome.value)))

    def to_payload(self, *, legs: bool = True) -> dict[str, Any]:
        """Return the stored form: camelCase keys, absent (``None``) fields left out.

        ``false`` and ``0`` are values and are kept. ``durationMs`` is rounded
        to 2 decimals (:func:`stored_duration`); ``legs`` is written only when there are any (and never
        with ``legs=False``, for a store that keeps them in a table of their own).
        """
        payload: dict[str, Any] = {
            "kind": self.kind._value_,
            "round": self.round,
            "durationMs": stored_duration(self.duration_ms),
        }
        for key, code, read in _WRITE_TABLE:
            value = read(self)
            if value is None:
                continue
            if code == _AS_IS or type(value) in _PLAIN_SCALARS:
                payload[key] = value
            elif code == _THAW:
                payload[key] = thaw(value)
            elif code == _OUTCOME_CODE:
                payload[key] = value._value_
            elif value and legs:  # legs: written only when there are any
                payload[key] = [leg.to_dict() for leg in value]
        return payload

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> RunStep:
        """Read a step back from its stored form.

        Unknown keys are ignored and a JSON ``null`` counts as absent.
        A wrong type or a broken invariant raises :class:`InvalidStepError`
        naming the key.
        """
        if cls is RunStep and type(payload) is dict:
            try:
                step = _plain_step(payload)
            except (NotPlainError, RecursionError):
                step = None
            if step is not None:
                return step
        if not isinstance(payload, Mapping):
            raise InvalidStepError(said(N_("a step payload must be an object, got {value}"), value=describe(payload)))
        for key in ("kind", "round", "durationMs"):
            if payload.get(key) is None:
                raise InvalidStepError(said(N_("a step payload needs the key {key}"), key=repr(key)))
        values: dict[str, Any] = {
            "kind": payload["kind"],
            "round": payload["round"],
            "duration_ms": payload["durationMs"],
        }
        for field in _OPTIONAL_FIELDS:
            value = payload.get(field.key)
            if value is None:
                continue
            if field.shape == _LEGS:
                value = _read_legs(field, value)
            values[field.attr] = value
        return cls(**values)


def _read_legs(field: _Field, value: Any) -> tuple[Leg, ...]:
    if not isinstance(value, (list, tuple)):
        raise _wrong(field, value)
    legs = []
    for index, item in enumerate(value):
        try:
            legs.append(Leg.from_dict(item))
        except InvalidLegError as error:
            raise InvalidStepError(at(f"{field.key}[{index}]", error.sentence)) from error
    return tuple(legs)


# -- the fast paths ---------------------------------------------------------------------------------
#
# Reading a stored payload is most of the work of importing a trace, and almost every payload
# read is valid and made of plain JSON types. ``_plain_step`` builds the step of such a payload
# directly; anything else (a subclass, a value the checks refuse, an outcome that contradicts
# its boolean) returns ``None`` and the full checks above run and raise their own message.

# How to_payload writes each field (in _OPTIONAL_FIELDS order): as it is, thawed, ...
_AS_IS, _THAW, _OUTCOME_CODE, _LEGS_CODE = range(4)
_WRITE_CODES = {_LIST: _THAW, _ARRAY: _THAW, _ARRAY_OR_NUMBER: _THAW, _OUTCOME: _OUTCOME_CODE, _LEGS: _LEGS_CODE,
                _PROGRESS: _THAW, _LINES: _THAW}
# (The last item reads the field's slot.)
_WRITE_TABLE = tuple((field.key, _WRITE_CODES.get(field.shape, _AS_IS), getattr(RunStep, field.attr).__get__)
                     for field in _OPTIONAL_FIELDS)

# How _plain_step reads each key of a payload: its attribute and the shape's code.
(_R_TEXT, _R_COUNT, _R_NUMBER, _R_FLAG, _R_LIST, _R_ARRAY, _R_ARRAY_OR_NUMBER, _R_OUTCOME, _R_LEGS,
 _R_PROGRESS, _R_TRANSPORT, _R_LINES, _R_ERA) = range(13)
_READ_CODES = {_TEXT: _R_TEXT, _COUNT: _R_COUNT, _NUMBER: _R_NUMBER, _FLAG: _R_FLAG, _LIST: _R_LIST,
               _ARRAY: _R_ARRAY, _ARRAY_OR_NUMBER: _R_ARRAY_OR_NUMBER, _OUTCOME: _R_OUTCOME, _LEGS: _R_LEGS,
               _PROGRESS: _R_PROGRESS, _TRANSPORT: _R_TRANSPORT, _LINES: _R_LINES, _ERA: _R_ERA}
_READ_BY_KEY = {field.key: (field.attr, _READ_CODES[field.shape]) for field in _OPTIONAL_FIELDS}
_ABSENT = {field.name: field.default for field in fields(RunStep)[3:]}  # each optional field, absent
# The slot of each field, in field order: a step is filled through them (frozen, so not by
# assignment), as the generated __init__ fills it.
_SLOT_SETTERS = tuple(getattr(RunStep, field.name).__set__ for field in fields(RunStep))
_KINDS_BY_VALUE = {kind.value: kind for kind in StepKind}
_OUTCOMES_BY_VALUE = {outcome.value: outcome for outcome in ToolOutcome}
_new = object.__new__


#: What :func:`_plain_value` gives for a value the fast paths leave to the full checks.
_REFUSED = object()


def _plain_head(payload: dict[str, Any]) -> tuple[StepKind, int, float] | None:
    """A plain payload's kind, round and duration as the step holds them, or ``None``."""
    get = payload.get
    kind, round_, duration = get("kind"), get("round"), get("durationMs")
    if type(kind) is not str or type(round_) is not int or round_ < 0:
        return None
    step_kind = _KINDS_BY_VALUE.get(kind)
    if step_kind is None:
        return None
    if type(duration) is float:
        if not 0.0 <= duration < math.inf:
            return None
    elif type(duration) is int and duration >= 0:
        try:
            duration = float(duration)
        except OverflowError:
            return None
    else:
        return None
    return step_kind, round_, duration


def _plain_value(code: int, value: Any, for_step: bool, built: bool = False) -> Any:
    """One optional field's value (not legs), checked as ``__post_init__`` checks it: as the step
    holds it (``for_step``: frozen, an outcome as its enum) or as it is stored; :data:`_REFUSED` for
    a value to leave to the full checks (they then say what is wrong)."""
    if code == _R_TEXT:
        return value if type(value) is str else _REFUSED
    if code == _R_FLAG:
        return value if type(value) is bool else _REFUSED
    if code == _R_COUNT:
        return value if type(value) is int and value >= 0 else _REFUSED
    if code == _R_OUTCOME:
        outcome = _OUTCOMES_BY_VALUE.get(value) if type(value) is str else None
        return _REFUSED if outcome is None else outcome if for_step else value
    if code == _R_TRANSPORT:
        return value if type(value) is str and value in TRANSPORTS else _REFUSED
    if code == _R_ERA:
        return value if type(value) is str and value in SPOKEN_ERAS else _REFUSED
    if code == _R_LINES:
        return _REFUSED if not is_lines(value) else tuple(value) if for_step else value
    if code == _R_NUMBER:
        if type(value) is float:
            return value if 0.0 <= value < math.inf else _REFUSED
        if type(value) is int and value >= 0:
            try:
                return float(value)
            except OverflowError:
                return _REFUSED
        return _REFUSED
    if code == _R_PROGRESS:
        if (type(value) is not list and type(value) is not tuple) or not all(map(is_progress_note, value)):
            return _REFUSED
    elif code == _R_LIST:
        if type(value) is not list and type(value) is not tuple:
            return _REFUSED
    elif code == _R_ARRAY:
        if type(value) is not list and type(value) is not tuple and type(value) is not dict:
            return _REFUSED
    elif type(value) is not list and type(value) is not tuple and type(value) is not dict:  # _R_ARRAY_OR_NUMBER
        return value if (type(value) is float or type(value) is int) and _is_finite(value) else _REFUSED
    # A list or object: frozen for the step, checked for plain types for the stored form.
    if for_step:
        return freeze_plain(value)
    if not built:
        _check_plain(value)
    return value


def _plain_step(payload: dict[str, Any]) -> RunStep | None:
    """The step a valid payload of plain types describes, or ``None`` (see above).

    Accepts exactly what ``__post_init__`` accepts and normalises each value the same way,
    so the step is equal, field by field and type by type, to the one the checks build.
    Raises :class:`NotPlainError` (or ``RecursionError``) for a value to leave to them.
    """
    head = _plain_head(payload)
    if head is None:
        return None
    kind, round_, duration = head
    # Every field absent first, then the payload's own keys (usually a third of them) set;
    # the dict keeps field order, so its values go to the slots in order at the end.
    values = {"kind": kind, "round": round_, "duration_ms": duration}
    values.update(_ABSENT)
    for key, value in payload.items():
        field = _READ_BY_KEY.get(key)
        if field is None or value is None:  # an unknown key, or null: absent
            continue
        attr, code = field
        if code == _R_LEGS:
            if type(value) is not list and type(value) is not tuple:
                return None
            legs = []
            for item in value:
                leg = _plain_leg(item) if type(item) is dict else None
                if leg is None:
                    return None
                legs.append(leg)
            value = tuple(legs)
        else:
            value = _plain_value(code, value, True)
            if value is _REFUSED:
                return None
        values[attr] = value
    step = _new(RunStep)
    for set_slot, value in zip(_SLOT_SETTERS, values.values(), strict=True):
        set_slot(step, value)
    try:
        step._check_outcome()
    except InvalidStepError:
        return None  # the checks raise it again, as they always have
    return step


# -- the stored form of a payload, without the step ------------------------------------------------
#
# An importer that only stores a checked payload needs ``from_payload(p).to_payload(legs=False)``:
# ``stored_payload`` makes the same dict (same keys, order and values; lists where the step holds
# tuples) with the same checks as ``_plain_step``, but builds no step and freezes nothing.

def _check_plain(value: Any) -> None:
    """Raise :class:`NotPlainError` unless ``value`` is made of dicts (string keys), lists and the
    plain scalars only: what :func:`freeze_plain` accepts."""
    kind = type(value)
    if kind is list or kind is tuple:
        for item in value:
            if type(item) not in _PLAIN_SCALARS:
                _check_plain(item)
    elif kind is dict:
        for key, item in value.items():
            if type(key) is not str:
                raise NotPlainError
            if type(item) not in _PLAIN_SCALARS:
                _check_plain(item)
    elif kind not in _PLAIN_SCALARS:
        raise NotPlainError


class _Outcome:
    """The fields ``RunStep._check_outcome`` reads, for checking a payload without its step."""

    __slots__ = ("kind", "tool_outcome", "tool_is_error", "cancelled_in_flight")

    def __init__(self, kind: StepKind, values: dict[str, Any]) -> None:
        self.kind = kind
        self.tool_outcome = values.get("toolOutcome")
        self.tool_is_error = values.get("toolIsError")
        self.cancelled_in_flight = values.get("cancelledInFlight")


_WRITE_KEYS = tuple(key for key, _, _ in _WRITE_TABLE)
_WRITE_ORDER = {key: index for index, key in enumerate(_WRITE_KEYS)}


@dataclass(frozen=True)
class StoredPayload:
    """A checked step in its stored form (see :func:`stored_payload`): its kind's value, round and
    duration as the step would hold them, and ``to_payload(legs=False)`` of it."""

    kind: str
    round: int
    duration_ms: float
    payload: dict[str, Any]


def stored_payload(payload: Any, built: frozenset[str] = frozenset()) -> StoredPayload | None:
    """``RunStep.from_payload(payload)`` in its stored form, for a payload of plain types with no
    legs, without building the step; ``None`` when the payload is to be left to
    :meth:`RunStep.from_payload` (which then builds the step or raises its message).

    ``built``: keys whose values the caller made of plain types only (dicts with string keys,
    lists, strings, numbers, booleans, null: e.g. of values ``json`` parsed); their type is still
    checked, their contents are not walked again."""
    try:
        return _stored_payload(payload, built)
    except (NotPlainError, RecursionError):
        return None


def _stored_payload(payload: Any, built: frozenset[str] = frozenset()) -> StoredPayload | None:
    if type(payload) is not dict:
        return None
    head = _plain_head(payload)
    if head is None:
        return None
    step_kind, round_, duration = head
    kind = step_kind._value_  # (as to_payload reads it: ``.value`` is a property written in Python)
    found: dict[str, Any] = {}
    for key, value in payload.items():
        field = _READ_BY_KEY.get(key)
        if field is None or value is None:
            continue
        code = field[1]
        if code == _R_LEGS:
            if type(value) is not list and type(value) is not tuple:
                return None
            if value:
                return None  # legs go to a table of their own: left to the step
            continue  # none: not written
        value = _plain_value(code, value, False, key in built)
        if value is _REFUSED:
            return None
        found[key] = value
    if "toolOutcome" in found or "cancelledInFlight" in found:  # else there is nothing for the rule to refuse
        checked = _Outcome(step_kind, found)
        if checked.tool_outcome is not None:
            checked.tool_outcome = _OUTCOMES_BY_VALUE[checked.tool_outcome]
        try:
            RunStep._check_outcome(checked)  # type: ignore[arg-type]
        except InvalidStepError:
            return None
    stored = {"kind": kind, "round": round_, "durationMs": stored_duration(duration)}
    # The payload's own fields (a few of the many a step may have) in the order to_payload writes them.
    for key in sorted(found, key=_WRITE_ORDER.__getitem__):
        value = found[key]
        if value is not None:
            stored[key] = value
    # Filled as the generated __init__ would, without its object.__setattr__ per field (an importer makes
    # one per step of a file): the same object, still frozen.
    checked_payload = _new(StoredPayload)
    checked_payload.__dict__.update(kind=kind, round=round_, duration_ms=duration, payload=stored)
    return checked_payload
