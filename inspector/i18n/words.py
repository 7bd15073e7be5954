"""The domain's short words in the current language, the same in the window and on the command line:
outcomes and run statuses (so "cancelled" never reads as "failed" in any language), the kinds of
failure, a server's health counts, run sources, and the kinds and makers of steps. The stored values
stay English; these are what a person reads.

The vocabulary: an operation, a run or a step ends **ok**, **failed** or **cancelled**, or has no
outcome. Refused (the budget was used up before a request was sent), timed out, a tool error (the
server answered, the tool said ``isError``) and a transport's failures are kinds of *failed*: the
outcome's word stays "failed" and the kind is named after it ("failed: tool error"). Every view
(the operation row, the runs list, the timeline, the step detail, a server's health line) takes its
words from here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from inspector.runs.ending import stored_failure

from . import _, ngettext
from .refused_probe import (
    LegSeen,
    is_refused_probe,
    is_unanswered_probe,
    is_unserved_probe,
    refused_probe_word,
    unanswered_probe_word,
    unserved_probe_word,
)
from .transport_probe import is_transport_found, transport_found_word

if TYPE_CHECKING:
    from inspector.runs.leg import Leg

#: Every outcome or run status :func:`outcome_word` knows.
OUTCOMES = ("ok", "failed", "cancelled", "running", "interrupted")


def outcome_word(outcome: str) -> str:
    """The word for an outcome or run status; an unknown one as it is, ``""`` for none."""
    return {"ok": _("ok"), "failed": _("failed"), "cancelled": _("cancelled"), "running": _("running"),
            "interrupted": _("interrupted")}.get(outcome, outcome)


def leg_outcome_word(outcome: str, method: str = "", http_status: int | None = None, exchange: object = None,
                     next_method: str | None = None, next_outcome: str | None = None,
                     following: Sequence[LegSeen] = ()) -> str:
    """The word for a leg's outcome: an outcome's, or "not sent" for the leg the budget never let
    go (the stored ``not_sent``, which the command line printed as it is, in every language).

    Given the leg's method, HTTP status and kept exchange, a ``server/discover`` probe the server
    refused (stored ``ok``: the refusal is its finding, see :mod:`.refused_probe`) is
    said in words, :func:`refused_probe_word`, never a bare "ok" beside "HTTP 400"; given the
    method of the leg after it too, a probe a command server never answered (stored ``failed``,
    the operation gone on with ``initialize``) is said as what it found, :func:`unanswered_probe_word`;
    given its outcome too, an ``initialize`` POST refused with 404 or 405 after which the older
    HTTP+SSE transport's event stream opened (stored ``failed``, see :mod:`.transport_probe`) is
    said as the transport it found, :func:`transport_found_word`. Given all the legs after it
    (``following``), a probe refused where no server answered at all says what it saw instead of an
    era (:func:`unserved_probe_word`: "no era found: answered HTTP 404")."""
    if is_refused_probe(method, outcome, http_status, exchange, following):
        return refused_probe_word()
    if is_unserved_probe(method, outcome, http_status, following):
        return unserved_probe_word(http_status)
    if is_unanswered_probe(method, outcome, http_status, exchange, next_method):
        return unanswered_probe_word()
    if is_transport_found(method, outcome, http_status, next_method, next_outcome):
        return transport_found_word(http_status)
    return _("not sent") if outcome == "not_sent" else outcome_word(outcome)


def step_outcome_word(kind: str, outcome: str | None) -> str:
    """The word for a step's outcome; a tool call whose source recorded none says so ("not
    recorded": never blank, never guessed), a step that has none by nature (a model's) nothing."""
    if outcome:
        return outcome_word(outcome)
    return _("not recorded") if kind == "tool" else ""


def stored_outcome_text(kind: str, outcome: str | None, legs: Sequence[Leg] = (),
                        payload: Mapping[str, Any] | None = None) -> str:
    """A stored step's outcome as the window's bar says it: a failed call says its kind of failure where
    its legs tell it ("failed: timed out", "failed: not sent") or, imported from a trace, where the
    importer found it timed out, by the one rule of :func:`inspector.runs.ending.stored_ending`;
    otherwise :func:`step_outcome_word`."""
    return failed_outcome_text(kind, outcome, stored_failure(outcome, legs, payload))


def failed_outcome_text(kind: str, outcome: str | None, failure: str | None) -> str:
    """A step's outcome with its kind of failure, once known (:func:`inspector.runs.ending.stored_failure`):
    "failed: timed out" for a failure of a kind, else :func:`step_outcome_word`. What :func:`stored_outcome_text` says,
    for a view that read the kind with the step (a comparison of two runs)."""
    return outcome_text("failed", failure) if failure else step_outcome_word(kind, outcome)


def no_outcome_word() -> str:
    """What a filter calls the steps that have no outcome (a model's step, a context step)."""
    return _("no outcome")


def failure_word(kind: str) -> str:
    """The kind of a failure in a few words: "tool error", "timed out", "not sent", "unreachable"…

    A call the budget never let go (``exhausted_budget``, the bar's ending ``refused``) is "not sent":
    "refused" read as the server having refused it, in front of a run whose server never saw the call."""
    return {
        "tool_error": _("tool error"), "internal_error": _("internal error"),
        "exhausted_budget": _("not sent"), "refused": _("not sent"), "timed_out": _("timed out"),
        "unreachable": _("unreachable"), "http_status": _("HTTP error"), "malformed": _("bad answer"),
        "rpc_error": _("JSON-RPC error"), "content_type": _("wrong content type"), "too_large": _("answer too large"),
        "protocol_version": _("protocol version"), "session_expired": _("session expired"),
        "cancelled": _("cancelled"), "output_schema": _("output schema violated"),
        "signin_required": _("sign-in required"), "signin_failed": _("sign-in failed"),
        "skill_verification": _("verification failed"), "not_offered": _("not offered"),
    }.get(kind, kind.replace("_", " "))


def outcome_text(outcome: str, kind: str | None = None) -> str:
    """An outcome's word, and for a failure its kind after it: "ok", "failed: tool error", "cancelled"."""
    word = outcome_word(outcome)
    if outcome != "failed" or not kind:
        return word
    return _("{outcome}: {kind}").format(outcome=word, kind=failure_word(kind))


#: The mark beside an outcome's word where there is no icon (a label, a bar's end): never colour alone.
OUTCOME_MARKS = {"ok": "✓", "failed": "✗", "cancelled": "⊘"}


def marked_outcome_text(outcome: str, kind: str | None = None) -> str:
    """:func:`outcome_text` after the outcome's mark: "✓ ok", "✗ failed: timed out", "⊘ cancelled"."""
    text = outcome_text(outcome, kind)
    mark = OUTCOME_MARKS.get(outcome)
    return _("{mark} {outcome}").format(mark=mark, outcome=text) if mark else text


def health_text(ok: int, failed: int, tool_errors: int, cancelled: int) -> str:
    """A server's counts in the outcome words: "3 ok · 2 failed (2 tool errors) · 1 cancelled".

    ``failed`` counts the failures other than tool errors (as the store keeps them apart); a tool
    error is a kind of failed, so it is counted in "failed" and named in parentheses."""
    all_failed = failed + tool_errors
    failed_words = ngettext("{count} failed", "{count} failed", all_failed).format(count=all_failed)
    if tool_errors:
        failed_words = _("{failed} ({tool_errors})").format(failed=failed_words, tool_errors=ngettext(
            "{count} tool error", "{count} tool errors", tool_errors).format(count=tool_errors))
    return _("{ok} · {failed} · {cancelled}").format(
        ok=ngettext("{count} ok", "{count} ok", ok).format(count=ok), failed=failed_words,
        cancelled=ngettext("{count} cancelled", "{count} cancelled", cancelled).format(count=cancelled))


def source_word(source: str) -> str:
    """The word for where a run came from (live, scenario, imported); an unknown one as it is."""
    return {"live": _("live"), "scenario": _("scenario"), "imported": _("imported")}.get(source, source)


def kind_word(kind: str) -> str:
    """The word for a step's kind (tool, request, model ...); an unknown one (from a trace) as it is.
    A model's step is stored as ``llm`` and said "model", as the Play tab and ``agent`` say it."""
    return {"request": _("request"), "llm": _("model"), "tool": _("tool"), "assembled": _("assembled"),
            "context": _("context"), "dropped": _("dropped"), "tool_write": _("tool write")}.get(kind, kind)


def step_maker_word(kind: str) -> str:
    """Who made a step of ``kind``: the MCP client (requests, tool calls) or the agent (the rest).

    Said as who it is, "MCP client", in every language (it read "mcp", a protocol, in English and
    "MCP-Client" in German)."""
    if kind in ("tool", "tool_write", "request"):
        return _("MCP client")
    return _("agent")


def run_heading(column: str) -> str:
    """The heading of a column of runs, the same in the window's list and ``runs list``: ``id`` is
    "ID" (a run is named by its id on the command line, in ``--json`` and in a file; a step's number is
    the "#" of ``runs show``), then ``started``, ``title``, ``status``, ``source``, ``server``,
    ``steps``, ``duration`` and ``pushed``."""
    return {"id": _("ID"), "started": _("Started"), "title": _("Title"), "status": _("Status"),
            "source": _("Source"), "server": _("Server"), "steps": _("Steps"), "duration": _("Duration"),
            "pushed": _("Pushed")}[column]


#: How many characters of a service's name the Source column shows (window and command line alike).
SERVICE_CHARS = 24


def step_source_word(kind: str, service: str = "") -> str:
    """What the Source column says of a step: the service a step from a trace came from (its span's
    ``service.name``, cut to :data:`SERVICE_CHARS`), else who made it (:func:`step_maker_word`)."""
    service = " ".join(service.split())
    if service:
        return service if len(service) <= SERVICE_CHARS else service[:SERVICE_CHARS - 1] + "…"
    return step_maker_word(kind)


__all__ = ["OUTCOMES", "OUTCOME_MARKS", "failed_outcome_text", "failure_word", "health_text", "kind_word",
           "leg_outcome_word",
           "marked_outcome_text", "no_outcome_word", "outcome_text", "outcome_word",
           "run_heading", "step_outcome_word", "stored_outcome_text", "source_word",
           "step_maker_word", "SERVICE_CHARS",
           "step_source_word"]
