"""A question dialog open while the window's language changes says its form in the new language at
once (placeholders, ranges, type words), keeping what was typed; against the SDK test server's
``ask_everything``, which asks server-everything's question (formats, ranges, choices)."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QLineEdit

from tests.gui.test_server_questions import finish, open_dialogs


def _words(dialog) -> str:
    shown = [label.text() for label in dialog.form.findChildren(QLabel) if label.isVisibleTo(dialog)]
    return "\n".join(shown + [edit.placeholderText() for edit in dialog.form.findChildren(QLineEdit)
                              if edit.isVisibleTo(dialog)])


def test_an_open_questions_form_follows_the_language_and_keeps_what_was_typed(qtbot, engine, answers,
                                                                               sdk_server) -> None:
    from inspector.gui.language import switch_language

    dialogs = open_dialogs(answers)
    task = engine.call_tool(sdk_server.endpoint, "ask_everything", {}, budget_s=30)
    qtbot.waitUntil(lambda: bool(dialogs), timeout=5000)
    [dialog] = dialogs
    qtbot.addWidget(dialog)
    dialog.form.set_value({"name": "Grace", "integer": 7})
    english = _words(dialog)
    assert "e.g. ada@example.com" in english and "From 1 to 100." in english
    switch_language("de")
    try:
        qtbot.waitUntil(lambda: "Von 1 bis 100." in _words(dialog), timeout=3000)  # shown on the next turn
        german = _words(dialog)
        assert "z. B. ada@example.com" in german and "Von 1 bis 100." in german
        assert "e.g. ada@example.com" not in german and "From 1 to 100." not in german
    finally:
        switch_language("en")
    assert (dialog.form.value()["name"], dialog.form.value()["integer"]) == ("Grace", 7)
    dialog.accept_button.click()
    answered = finish(qtbot, task).record.result.content
    assert '"action": "accept"' in answered and '"name": "Grace"' in answered and '"integer": 7' in answered


def test_tab_goes_round_the_fields_and_the_buttons_only(qtbot, engine, answers, sdk_server) -> None:
    """Tab goes through the fields, then the buttons, and round: the form's scroll area is no stop
    (a screen reader named it nothing); so too after the form is built again in another language."""
    from PySide6.QtWidgets import QApplication

    from inspector.gui.language import switch_language
    from tests.gui.test_tab_order import _walk

    dialogs = open_dialogs(answers)
    task = engine.call_tool(sdk_server.endpoint, "ask_everything", {}, budget_s=30)
    qtbot.waitUntil(lambda: bool(dialogs), timeout=5000)
    [dialog] = dialogs
    qtbot.addWidget(dialog)
    qtbot.waitExposed(dialog)
    buttons = [dialog.stop_button, dialog.accept_button, dialog.decline_button, dialog.cancel_button]

    def order() -> list[str]:
        QApplication.processEvents()
        first = dialog.form.root.tab_stops()[0]
        reached = _walk(qtbot, first)
        assert reached[-1] is first, f"Tab is caught at {reached[-1].accessibleName()!r}"
        return ["field" if dialog.form.isAncestorOf(w) else "button" if w in buttons else type(w).__name__
                for w in reached[:-1]]

    english = order()
    assert english[0] == "field" and "button" in english
    assert english == sorted(english, key=lambda region: region != "field"), english  # fields, then buttons
    switch_language("de")
    try:
        qtbot.waitUntil(lambda: dialog.accept_button.text() == "Annehmen", timeout=3000)
        assert order() == english
    finally:
        switch_language("en")
    dialog.cancel_button.click()
    finish(qtbot, task)
