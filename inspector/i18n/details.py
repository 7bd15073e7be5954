"""A timeline step's details in the user's language (the stored and exported ones stay English)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from inspector.runs import DetailWords, step_details

from . import _, ngettext
from .messages import message_from_note, said_again, translate


class TranslatedDetailWords(DetailWords):
    """The words of :func:`inspector.runs.step_details` from the catalogue, in the current language."""

    def cancelled_in_flight(self) -> str:
        return _("cancelled in flight (the request had been sent; whether the remote side acted on it is unknown)")

    def cancelled_before_send(self) -> str:
        return _("cancelled before the request was sent")

    def dropped_sources(self, count: int) -> str:
        return ngettext("dropped {count} source", "dropped {count} sources", count).format(count=count)

    def wrote(self, target: str) -> str:
        return _("wrote {target}").format(target=target)

    def result_and_write(self, result: str, target: str) -> str:
        if not result:
            return _("(wrote {target})").format(target=target)
        return _("{result} (wrote {target})").format(result=result, target=target)

    def requested_tool_calls(self, count: int) -> str:
        return ngettext("requested {count} tool call", "requested {count} tool calls", count).format(count=count)

    def tool_and_detail(self, tool: str, detail: str) -> str:
        if tool and detail:
            return _("{tool}: {detail}").format(tool=tool, detail=detail)
        return tool or detail

    def content_line(self, payload: Mapping[str, Any], line: str) -> str:
        return said_again(line, payload.get("wording"))

    def result_line(self, payload: Mapping[str, Any], line: str) -> str:
        if "wording" in payload:  # our own sentence at its head, kept as data
            return said_again(line, payload["wording"])
        # A step read from another tool's span: its result's first line is the importer's first note
        # ("timed out: TimeoutError"), kept with its template: said again in the current language.
        raw = payload.get("raw")
        otlp = raw.get("otlp") if isinstance(raw, Mapping) else None
        notes = otlp.get("notes") if isinstance(otlp, Mapping) else None
        if not (isinstance(notes, list) and notes and isinstance(notes[0], dict) and notes[0].get("text") == line):
            return line
        said = translate(message_from_note(notes[0]))
        return said.splitlines()[0] if said else line


TRANSLATED_DETAILS = TranslatedDetailWords()


def localized_step_details(payload: Mapping[str, Any]) -> str:
    """What :func:`inspector.runs.step_details` says of ``payload``, in the current language."""
    return step_details(payload, TRANSLATED_DETAILS)


__all__ = ["TRANSLATED_DETAILS", "TranslatedDetailWords", "localized_step_details"]
