"""Why a failed run is failed, in words: the same in the Play tab, the Runs tab's list and heading,
``runs list``, ``runs show`` and ``scenario`` ("failed (1 of 4 tool calls failed; the model still gave its
answer)", "failed (the tool call timed out)")."""

from __future__ import annotations

from . import _, ngettext
from .formatting import format_number

#: A run's reason as :func:`recovery_text` takes it: failed calls, all calls, whether the model still
#: answered, and how every failed call ended where known (:meth:`inspector.store.recovery.Recovery.said`).
Reason = (tuple[int, int] | tuple[int, int, bool] | tuple[int, int, bool, str | None]
          | tuple[int, int, bool, str | None, int] | tuple[int, int, bool, str | None, int, int])


def recovery_text(failed: int, calls: int, answered: bool = True, kind: str | None = None,
                  cancelled: int = 0, unrecorded: int = 0) -> str:
    """"1 of 4 tool calls failed; the model still gave its answer" ("the tool call failed…", "all 3
    tool calls failed…" when every call failed); without ``answered`` (a run that stopped at its
    failure), the counts alone: "2 of 4 tool calls failed". ``kind``: how every failed call ended, where
    known, said in place of "failed": "the tool call timed out", "2 of 4 tool calls were not sent".
    ``cancelled``: how many of the other calls were cancelled, said apart (a cancel is never a failure):
    "2 of 4 tool calls failed, 1 cancelled"; with no call failed, "1 of 3 tool calls cancelled".
    ``unrecorded``: how many of the other calls of a run with failed ones have no outcome recorded, said apart
    last, in the words of their Outcome cells: "2 of 9 tool calls failed, 6 not recorded" (not "2 of 9 tool
    calls failed" alone, which read as 7 that worked)."""
    if unrecorded and failed:
        # Translators: why a run failed, its failed calls and (apart) those with no outcome recorded (a trace's
        # call whose client stopped waiting and recorded nothing; its Outcome cell says "not recorded"), e.g.
        # "2 of 9 tool calls failed, 6 not recorded".
        said = ngettext("{calls}, {unrecorded} not recorded", "{calls}, {unrecorded} not recorded",
                        unrecorded).format(calls=recovery_text(failed, calls, False, kind, cancelled),
                                           unrecorded=format_number(unrecorded))
        return _("{calls}; the model still gave its answer").format(calls=said) if answered else said
    if cancelled and not failed:
        return _ended_calls(cancelled, calls, "cancelled")
    if cancelled:
        # Translators: why a run failed, its failed calls and (apart) its cancelled ones, e.g. "2 of 4 tool
        # calls failed, 1 cancelled".
        said = ngettext("{calls}, {cancelled} cancelled", "{calls}, {cancelled} cancelled", cancelled).format(
            calls=recovery_text(failed, calls, False, kind), cancelled=format_number(cancelled))
    elif kind in _KINDS:
        said = _ended_calls(failed, calls, kind)
    if cancelled or kind in _KINDS:
        # Translators: why a run failed, e.g. "the tool call timed out; the model still gave its answer".
        return _("{calls}; the model still gave its answer").format(calls=said) if answered else said
    if not answered:
        return _failed_calls(failed, calls)
    if failed == calls:  # "1 of 1 tool calls failed" read oddly
        return ngettext("the tool call failed; the model still gave its answer",
                        "all {calls} tool calls failed; the model still gave its answer",
                        failed).format(calls=format_number(failed))
    # The form follows the failed calls (a German verb agrees with them).
    return ngettext("{failed} of {calls} tool calls failed; the model still gave its answer",
                    "{failed} of {calls} tool calls failed; the model still gave its answer",
                    failed).format(failed=format_number(failed), calls=format_number(calls))


def _failed_calls(failed: int, calls: int) -> str:
    if failed == calls:
        return ngettext("the tool call failed", "all {calls} tool calls failed",
                        failed).format(calls=format_number(failed))
    return ngettext("{failed} of {calls} tool calls failed", "{failed} of {calls} tool calls failed",
                    failed).format(failed=format_number(failed), calls=format_number(calls))


def _ended_calls(failed: int, calls: int, kind: str) -> str:
    """The failed calls, all of which ended as ``kind`` says (a key of :data:`_KINDS`)."""
    whole, some = _KINDS[kind]
    if failed == calls:
        return whole(failed).format(calls=format_number(failed))
    return some(failed).format(failed=format_number(failed), calls=format_number(calls))


#: How every failed call of a run ended (:func:`inspector.store.failure_kinds.failure_kinds`): its words when
#: they were all of the run's calls, and when they were some of them (the form follows the failed calls).
_KINDS = {
    "timed_out": (lambda count: ngettext("the tool call timed out", "all {calls} tool calls timed out", count),
                  lambda count: ngettext("{failed} of {calls} tool calls timed out",
                                         "{failed} of {calls} tool calls timed out", count)),
    "refused": (lambda count: ngettext("the tool call was not sent", "all {calls} tool calls were not sent", count),
                lambda count: ngettext("{failed} of {calls} tool calls was not sent",
                                       "{failed} of {calls} tool calls were not sent", count)),
    # An ok run read from a trace whose calls' clients stopped waiting and recorded nothing (a cancel, say):
    # "ok (the tool call has no outcome recorded)", as each such step's Outcome cell says "not recorded".
    "unrecorded": (lambda count: ngettext("the tool call has no outcome recorded",
                                          "all {calls} tool calls have no outcome recorded", count),
                   lambda count: ngettext("{failed} of {calls} tool calls has no outcome recorded",
                                          "{failed} of {calls} tool calls have no outcome recorded", count)),
    # A run none of whose calls failed but some were cancelled (an agent's run that carried on after a cancel):
    # "ok (1 of 3 tool calls cancelled)", as each such step's Outcome cell says "cancelled".
    # Translators: an ok run whose tool call was cancelled, "ok (the tool call was cancelled)".
    "cancelled": (lambda count: ngettext("the tool call was cancelled", "all {calls} tool calls were cancelled", count),
                  # Translators: {failed} is how many of the run's calls were cancelled: "ok (1 of 3 tool calls
                  # cancelled)".
                  lambda count: ngettext("{failed} of {calls} tool calls cancelled",
                                         "{failed} of {calls} tool calls cancelled", count)),
}


def status_with_recovery(status: str, recovery: Reason | None) -> str:
    """A run's status as said (``status``: "failed", "✗ failed"), with why beside it for a failed run
    whose tool calls failed (``recovery``: its failed calls, all its calls, whether the model still
    answered, how the calls ended and how many others were cancelled,
    :meth:`inspector.store.recovery.Recovery.said`), and for an ok run some of whose calls have no outcome
    recorded or were cancelled ("ok (the tool call has no outcome recorded)", "ok (1 of 3 tool calls
    cancelled)"), else as it is."""
    if recovery is None:
        return status
    # Translators: a run's status and why, e.g. "failed (1 of 4 tool calls failed; the model still gave its answer)".
    return _("{status} ({why})").format(status=status, why=recovery_text(*recovery))


__all__ = ["Reason", "recovery_text", "status_with_recovery"]
