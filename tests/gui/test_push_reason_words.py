"""The Runs tab's Pushed column says why a push did not deliver in the reader's language: the outbox
keeps the English (``--json`` says it), the tooltip says our sentence in German."""

from __future__ import annotations

from datetime import UTC, datetime

from inspector.gui.runs.push_marks import push_tooltip
from inspector.store.outbox import OutboxEntry
from tests.unit.capture.test_sending_words import REFUSED_DE, REFUSED_EN, german, refused_reason  # noqa: F401


def test_the_pushed_columns_tooltip_says_why_in_german(german, qapp) -> None:  # noqa: F811
    reason = refused_reason()
    assert reason == REFUSED_EN
    entry = OutboxEntry(1, 1, "http://127.0.0.1:4318/v1/traces", "queued", 2, datetime(2026, 12, 4, 20, 0, tzinfo=UTC),
                        None, reason)
    told = push_tooltip(entry)
    assert REFUSED_DE in told and "cannot reach" not in told, told


def test_a_redirect_not_followed_is_said_in_german_in_the_tooltip(german, qapp, tmp_path) -> None:  # noqa: F811
    """The tooltip said "Warum: HTTP 307 Temporary Redirect (a redirect to …, not followed)" in a German window."""
    from inspector.capture.pusher import Pusher
    from inspector.store import RunStore
    from inspector.store.outbox import Outbox
    from tests.support.otlp_collector import Answer, running_collector

    with RunStore.open(tmp_path / "runs.db") as store:
        run_id = store.start_run("tools/call echo", "live", "http://127.0.0.1:9/mcp")
        store.finish_run(run_id, "ok")
        with running_collector() as collector:
            collector.answers = [Answer(307, {"Location": "http://127.0.0.1:9/v1/traces"}, b"")]
            Outbox(store.db.conn).enqueue([run_id], collector.endpoint)
            with Pusher(store, collector.endpoint) as pusher:
                assert pusher.push_due().failed == 1
        (entry,) = Outbox(store.db.conn).entries()
    assert entry.reason == ("HTTP 307 Temporary Redirect (a redirect to http://127.0.0.1:9/v1/traces, "
                            "not followed)")
    told = push_tooltip(entry)
    assert ("HTTP 307 Temporary Redirect (eine Weiterleitung nach http://127.0.0.1:9/v1/traces, der nicht gefolgt "
            "wurde)") in told and "not followed" not in told, told


def test_a_run_sent_in_part_says_what_the_collector_rejected_in_german(german, qapp) -> None:  # noqa: F811
    """A run the collector took with some spans rejected showed "sent" and said nothing of them."""
    from inspector.gui.runs.push_marks import push_word

    entry = OutboxEntry(1, 1, "http://127.0.0.1:4318/v1/traces", "sent", 1, None,
                        datetime(2026, 12, 4, 20, 0, tzinfo=UTC),
                        "the collector took the run but rejected 2 of its spans: spans older than 7 days")
    assert push_word(entry) == "teilweise gesendet"
    told = push_tooltip(entry)
    assert "der Collector hat den Lauf angenommen, aber 2 seiner Spans abgelehnt: spans older than 7 days" in told, told
    assert "rejected" not in told and "nicht alles davon wurde behalten" in told
    assert push_word(OutboxEntry(2, 2, entry.endpoint, "sent", 1, None, entry.sent_at, "")) == "gesendet"
