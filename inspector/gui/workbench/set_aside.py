"""What a catalogue walk's stored step says when the window set it aside: the user selected another
server while the previous one's tools were still being listed, so the window cancelled the listing
for itself (:meth:`.operation_task.OperationTask.put_aside`). Its run stays (its requests went out) and its
outcome stays cancelled, but its words are not the user's cancel ("You cancelled the operation…"):
they say that the window set the listing aside because another server was chosen (or because Reload
started it again while it ran). Stored in English with the sentence as data (``wording``), said again
in the reader's language."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from inspector.mcp.messages import N_, Message

if TYPE_CHECKING:  # the operations' steps load with the first operation, on the worker: not with the window
    from inspector.agent.operations import OperationRecord

#: The step's sentence when the listing's request had been sent (stored in English, translated where shown).
SET_ASIDE_IN_FLIGHT = N_("The window set the tool listing aside because another server was chosen: {method} had "
                         "been sent to the server {server}, and its answer was not awaited. Whether the server "
                         "acted on it is unknown.")
#: The step's sentence when the listing was set aside before its request reached the server.
SET_ASIDE_BEFORE_SEND = N_("The window set the tool listing aside because another server was chosen, before its "
                           "request reached the server {server} (during {method}); the work was not sent.")
#: The same when Reload started the listing again while it ran (the new listing replaced it).
RELOADED_IN_FLIGHT = N_("The window set the tool listing aside because Reload started it again: {method} had been "
                        "sent to the server {server}, and its answer was not awaited. Whether the server acted on "
                        "it is unknown.")
RELOADED_BEFORE_SEND = N_("The window set the tool listing aside because Reload started it again, before its "
                          "request reached the server {server} (during {method}); the work was not sent.")

#: The operation a listing's step names before its sentence (as :func:`inspector.agent.operations.list_tools_step`).
LISTING = "tools/list"


def set_aside_record(record: OperationRecord, reloaded: bool = False) -> OperationRecord:
    """``record`` of a listing the window cancelled for itself (``reloaded``: because Reload started it
    again), its step saying so; a record that did not end in that cancel (it ended before the cancel
    came, or failed) as it is."""
    error = record.error
    if record.health != "cancelled" or error is None or not error.is_cancellation:
        return record
    from inspector.agent.operations import wording_of

    if reloaded:
        template = RELOADED_IN_FLIGHT if error.in_flight else RELOADED_BEFORE_SEND
    else:
        template = SET_ASIDE_IN_FLIGHT if error.in_flight else SET_ASIDE_BEFORE_SEND
    said = Message(template, {"server": error.server, "method": error.method or LISTING})
    step = dataclasses.replace(record.step, content=f"{LISTING}: {said}", wording=wording_of(said, LISTING))
    return dataclasses.replace(record, step=step)


__all__ = ["RELOADED_BEFORE_SEND", "RELOADED_IN_FLIGHT", "SET_ASIDE_BEFORE_SEND", "SET_ASIDE_IN_FLIGHT",
           "set_aside_record"]
