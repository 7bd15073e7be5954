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
