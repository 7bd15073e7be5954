"""Why a run the model got over is failed, in words: the same in the Play tab, the Runs tab's
heading, ``runs show`` and ``scenario`` ("failed (1 of 4 tool calls failed; the model still gave its
answer)")."""

from __future__ import annotations

from . import _, ngettext
from .formatting import format_number


def recovery_text(failed: int, calls: int, answered: bool = True) -> str:
    """"1 of 4 tool calls failed; the model still gave its answer" ("the tool call failed…", "all 3
    tool calls failed…" when every call failed); without ``answered`` (a run read from a trace,
    which tells no more), the counts alone: "2 of 4 tool calls failed"."""
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


def status_with_recovery(status: str, recovery: tuple[int, int] | tuple[int, int, bool] | None) -> str:
    """A run's status as said (``status``: "failed", "✗ failed"), with why beside it for a run the
    model got over or one read from a trace (``recovery``: its failed calls, all its calls and
    whether the model still answered, :meth:`inspector.store.recovery.Recovery.said`), else as it is."""
    if recovery is None:
        return status
    # Translators: a run's status and why, e.g. "failed (1 of 4 tool calls failed; the model still gave its answer)".
    return _("{status} ({why})").format(status=status, why=recovery_text(*recovery))


__all__ = ["recovery_text", "status_with_recovery"]
