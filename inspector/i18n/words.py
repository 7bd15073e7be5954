"""The domain's short words in the current language, the same in the window and on the command line:
outcomes and run statuses (so "cancelled" never reads as "failed" in any language), run sources, and
the kinds and makers of steps. The stored values stay English; these are what a person reads."""

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


def kind_word(kind: str) -> str:
    """The word for a step's kind (tool, request, llm ...); an unknown one (from a trace) as it is."""
    return {"request": _("request"), "llm": _("llm"), "tool": _("tool"), "assembled": _("assembled"),
            "context": _("context"), "dropped": _("dropped"), "tool_write": _("tool_write")}.get(kind, kind)


def step_maker_word(kind: str) -> str:
    """Who made a step of ``kind``: the MCP client (requests, tool calls) or the agent (the rest)."""
    if kind in ("tool", "tool_write", "request"):
        return _("mcp")
    return _("agent")


__all__ = ["OUTCOMES", "kind_word", "outcome_word", "source_word", "step_maker_word"]
