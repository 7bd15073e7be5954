"""What the Runs tab's Pushed column says of a run's place in the outbox: a word, and a tooltip
with the collector, the attempts and why the last one did not deliver (or what of a run sent the
collector rejected)."""

from __future__ import annotations

from inspector.i18n import _, formatting
from inspector.store.outbox import OutboxEntry

from ..widgets.plain_text import cell_text


def push_word(entry: OutboxEntry | None) -> str:
    """The cell: empty for a run never queued."""
    if entry is None:
        return ""
    if entry.state == "sent":
        return _("sent in part") if entry.reason else _("sent")  # the collector rejected some spans
    if entry.state == "failed":
        return _("not sent")
    if entry.state == "sending":
        return _("sending")
    return _("queued")


def push_tooltip(entry: OutboxEntry | None) -> str:
    """The whole story, in plain text (the reason may quote the collector)."""
    from inspector.capture.sending import reason_said  # the capture package loads when a tip is read, not at start-up

    if entry is None:
        return ""
    where = cell_text(entry.endpoint, 300)
    reason = cell_text(reason_said(entry.reason), 400)  # kept in English, said in the reader's words
    if entry.state == "sent":
        when = formatting.format_datetime(entry.sent_at) if entry.sent_at else ""
        if entry.reason:
            return _("Sent to {endpoint} at {time}, but not all of it was kept: {reason}").format(
                endpoint=where, time=when, reason=reason)
        return _("Sent to {endpoint} at {time}.").format(endpoint=where, time=when)
    if entry.state == "failed":
        return _("The collector {endpoint} refused this run; it is not sent again. Why: {reason}").format(
            endpoint=where, reason=reason)
    if entry.state == "sending":
        return _("Being sent to {endpoint}.").format(endpoint=where)
    if entry.attempts and entry.next_attempt_at is not None:
        return _("Queued for {endpoint}; attempt {count} did not deliver ({reason}). Next attempt at {time}.").format(
            endpoint=where, count=entry.attempts, reason=reason,
            time=formatting.format_datetime(entry.next_attempt_at))
    return _("Queued for {endpoint}.").format(endpoint=where)


__all__ = ["push_tooltip", "push_word"]
