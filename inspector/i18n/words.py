"""The domain's short words in the current language, the same in the window and on the command line:
outcomes and run statuses (so "cancelled" never reads as "failed" in any language) and run sources."""

from __future__ import annotations

from . import _

#: Every outcome or run status :func:`outcome_word` knows.
OUTCOMES = ("ok", "failed", "cancelled", "running", "interrupted")


def outcome_word(outcome: str) -> str:
    """The word for an outcome or run status; an unknown one as it is, ``""`` for none."""
    return {"ok": _("ok"), "failed": _("failed"), "cancelled": _("cancelled"), "running": _("running"),
            "interrupted": _("interrupted")}.get(outcome, outcome)


def source_word(source: str) -> str:
    """The word for where a run came from (live, scenario, imported); an unknown one as it is."""
    return {"live": _("live"), "scenario": _("scenario"), "imported": _("imported")}.get(source, source)


__all__ = ["OUTCOMES", "outcome_word", "source_word"]
