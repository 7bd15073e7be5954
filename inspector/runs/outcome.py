"""The outcome of one tool call: ok, failed or cancelled.

These three strings travel unchanged from the tool result to the stored step
payload, to the timeline and to the translation key of its label. Renaming one
of them on one side only would render an empty cell without any error, so
every other module takes the strings from here instead of spelling them again.
"""

from __future__ import annotations

from enum import StrEnum


class ToolOutcome(StrEnum):
    """How a tool call ended.

    ``FAILED`` and ``CANCELLED`` are both errors for anything that only reads
    ``is_error``; the outcome says which of the two it was, so a call the user
    cancelled is never counted as a fault of the server.
    """

    OK = "ok"
    FAILED = "failed"
    CANCELLED = "cancelled"

    @classmethod
    def parse(cls, value: object) -> ToolOutcome | None:
        """Return the outcome named by ``value``, or ``None`` for anything else.

        Stored rows may hold any JSON value (or nothing) under the outcome key,
        so this never raises: callers decide what a missing outcome means.
        """
        if type(value) is str:  # the usual case: a plain string read from JSON
            return _BY_VALUE.get(value)
        if not isinstance(value, str):
            return None
        try:
            return cls(value)
        except ValueError:
            return None


_BY_VALUE = {outcome.value: outcome for outcome in ToolOutcome}
