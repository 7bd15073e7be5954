"""A text argument longer than 32,767 characters is sent whole from the Form: Qt's line edit cut it there
silently (its default maximum length), so a document pasted into a field, or long arguments used before and
filled in again when the tool is chosen, went to the server cut (server-everything's echo of 20,000 lines came
back at "line 1881 of text\\nl", the Result saying nothing of it). The server: the official SDK's on 127.0.0.1."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication

from tests.gui.test_main_window import choose, finished

LONG = "".join(f"line {number} of a long document\n" for number in range(3000))  # 85,890 characters


def test_a_pasted_long_text_is_sent_whole(qtbot, sdk_server, make_window) -> None:
    assert len(LONG) > 32_767
    window = make_window((sdk_server.url, "sdk server"), era="handshake")
    choose(window, "echo")
    field = window.workbench.arguments.form.root.fields["text"]
    QApplication.clipboard().setText(LONG)
    field.edit.setFocus()
    field.edit.paste()
    assert len(field.edit.text()) == len(LONG)
    task = window.workbench.run_current_tool()
    assert finished(qtbot, task).status == "ok"
    assert task.outcome.record.result.content == LONG


def test_long_arguments_used_before_are_filled_in_whole_and_sent_whole(qtbot, sdk_server, make_window) -> None:
    window = make_window((sdk_server.url, "sdk server"), era="handshake")
    choose(window, "echo")
    window.workbench.arguments.set_arguments({"text": LONG})  # as the remembered arguments are
    task = window.workbench.run_current_tool()
    assert finished(qtbot, task).status == "ok"
    assert task.outcome.record.result.content == LONG
