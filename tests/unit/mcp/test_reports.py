"""What an operation's recorder keeps."""

from __future__ import annotations


def test_the_recorder_keeps_the_first_notifications_and_counts_the_rest() -> None:
    from inspector.mcp import OperationRecorder
    from inspector.mcp.reports import MAX_RECORDED_NOTIFICATIONS
    from inspector.mcp.standalone import ServerNotification

    recorder = OperationRecorder()
    for number in range(MAX_RECORDED_NOTIFICATIONS + 5):
        recorder.notification(ServerNotification("notifications/message", {"data": number}, "GET"))
    assert len(recorder.notifications) == MAX_RECORDED_NOTIFICATIONS
    assert recorder.notifications_dropped == 5
    assert recorder.notifications[0].params == {"data": 0}
