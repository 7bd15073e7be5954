"""Why a run the model got over is failed, in words: the same in the Play tab, the Runs tab's
heading, ``runs show`` and ``scenario`` ("failed (1 of 4 tool calls failed; the model still gave its
answer)")."""

from __future__ import annotations

from . import _, ngettext


def recovery_text(failed: int, calls: int) -> str:
    """"1 of 4 tool calls failed; the model still gave its answer" ("the tool call failed…", "all 3
    tool calls failed…" when every call failed)."""
    if failed == calls:  # "1 of 1 tool calls failed" read oddly
        return ngettext("the tool call failed; the model still gave its answer",
                        "all {calls} tool calls failed; the model still gave its answer", failed).format(calls=failed)
    # The form follows the failed calls (a German verb agrees with them).
    return ngettext("{failed} of {calls} tool calls failed; the model still gave its answer",
                    "{failed} of {calls} tool calls failed; the model still gave its answer",
                    failed).format(failed=failed, calls=calls)


def status_with_recovery(status: str, recovery: tuple[int, int] | None) -> str:
    """A run's status as said (``status``: "failed", "✗ failed"), with why beside it for a run the
    model got over (``recovery``: its failed calls and all its calls), else as it is."""
    if recovery is None:
        return status
    # Translators: a run's status and why, e.g. "failed (1 of 4 tool calls failed; the model still gave its answer)".
    return _("{status} ({why})").format(status=status, why=recovery_text(*recovery))


__all__ = ["recovery_text", "status_with_recovery"]
