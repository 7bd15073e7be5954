"""Servers: add/edit/remove through the dialog, bad input refused there, secrets as dots; Test
connection; settings and window layout remembered (in the test's own settings file)."""

from __future__ import annotations

from PySide6.QtWidgets import QLineEdit

from inspector.gui.dialogs.server_dialog import ServerDialog
from inspector.gui.dialogs.settings_dialog import SettingsDialog
from inspector.gui.settings import AppSettings


def test_bad_server_input_is_refused_in_the_dialog(qtbot) -> None:
    dialog = ServerDialog()
    qtbot.addWidget(dialog)
    dialog.url.setText("ftp://example.org/mcp")
    assert dialog.settings() is None
    assert "http:// or https://" in dialog.url_error.text() and not dialog.url_error.isHidden()
    dialog.url.setText("http://127.0.0.1:9/mcp")
    row = dialog.add_header("", "orphan value")
    assert dialog.settings() is None
    assert "needs a name" in dialog.header_error.text()
    row.name.setText("Authorization: Bearer s3cret")
    assert dialog.settings() is None
    assert "without the colon" in dialog.header_error.text() and "s3cret" not in dialog.header_error.text()
    row.name.setText("Bad Header")
    assert dialog.settings() is None
    assert "characters HTTP does not allow" in dialog.header_error.text()
    row.name.setText("X-Team")
    dialog.budget.setText("-3")
    assert dialog.settings() is None
    assert "positive number of seconds" in dialog.budget_error.text()
    dialog.budget.setText("7")
    settings = dialog.settings()
    assert settings is not None and settings.budget_s == 7 and settings.headers == {"X-Team": "orphan value"}
    assert dialog.result_settings is None  # nothing accepted yet


def test_an_address_whose_host_holds_a_space_is_refused_in_the_dialog_as_the_command_line_refuses_it(qtbot) -> None:
    dialog = ServerDialog()
    qtbot.addWidget(dialog)
    dialog.url.setText("http://alice:pa55word@exa mple/mcp")
    assert dialog.settings() is None and not dialog.url_error.isHidden()
    assert dialog.url_error.text() == ("'http://exa mple/mcp' is not a server address: use an absolute http:// or "
                                       "https:// URL.")
    dialog.url.setText("http://example.org/mcp")
    assert dialog.settings() is not None


def test_secret_header_values_are_dots(qtbot) -> None:
    dialog = ServerDialog(url="http://127.0.0.1:9/mcp", headers=[("Authorization", "Bearer s3cret", True)])
    qtbot.addWidget(dialog)
    [row] = dialog.header_rows
    assert row.value.echoMode() == QLineEdit.EchoMode.Password
    typed = dialog.add_header()
    qtbot.keyClicks(typed.name, "X-Api-Key")
    assert typed.secret.isChecked() and typed.value.echoMode() == QLineEdit.EchoMode.Password
    typed.secret.setChecked(False)
    assert typed.value.echoMode() == QLineEdit.EchoMode.Normal


def test_add_edit_remove_and_test_connection(qtbot, make_window, demo_server) -> None:
    window = make_window()
    assert window.servers.model.rowCount() == 0
    window.admin.save_server(demo_server.url, "My demo", 12, {"Authorization": "Bearer t0ken"}, {"Authorization"})
    assert window.servers.model.rowCount() == 1
    record = window.servers.current()
    assert record.name == "My demo" and record.budget_s == 12
    assert [(h.name, h.secret, h.value) for h in record.headers] == [("Authorization", True, None)]
    # The secret is kept for this session (no keyring here) and sent with every operation.
    assert window.admin.endpoint_for(record).headers == {"Authorization": "Bearer t0ken"}
    qtbot.waitUntil(lambda: window.workbench.tools.model.rowCount() > 0, timeout=10000)
    task = window.admin.test_server(record)
    with qtbot.waitSignal(task.finished, timeout=10000):
        pass
    assert window.servers.test_result.text().startswith("Answered in ")
    assert "MCP 2026-07-28" in window.servers.test_result.text()  # auto found the stateless era
    # The catalogue walk and the ping both answered: two ok operations in the health line.
    qtbot.waitUntil(lambda: "2\u00a0ok" in window.servers.health.text())
    window.admin.forget_server(demo_server.url)
    assert window.servers.model.rowCount() == 0
    assert window.workbench.tools.model.rowCount() == 0


def test_settings_dialog_refuses_a_bad_budget_and_saves_a_good_one(qtbot) -> None:
    settings = AppSettings()
    dialog = SettingsDialog(settings, "/tmp/runs.db")
    qtbot.addWidget(dialog)
    dialog.budget.setText("soon")
    dialog.accept()
    assert not dialog.budget_error.isHidden()
    assert settings.default_budget_s == 20
    dialog.budget.setText("0.5")
    dialog.demo.setChecked(False)
    dialog.accept()
    assert settings.default_budget_s == 1  # raised to the one-second floor
    assert settings.demo_autostart is False
    assert AppSettings().default_budget_s == 1  # written to the (test's own) settings file


def test_geometry_and_splitters_are_remembered(qtbot, make_window, _isolated_settings) -> None:
    window = make_window()
    window.resize(760, 560)  # inside the offscreen screen (800 x 600), which restoring clamps to
    window.main.setSizes([300, 460])
    window.shut_down()
    assert _isolated_settings.exists()
    again = make_window()
    assert again.main.sizes()[0] == window.main.sizes()[0]
    assert again.size() == window.size()


def test_editing_a_server_replaces_its_settings_and_updates_the_window(qtbot, make_window, demo_server) -> None:
    window = make_window((demo_server.url, "Demo server"))
    window.admin.save_server(demo_server.url, "Renamed", 9, {"X-Team": "blue"}, set(), replaces=demo_server.url)
    assert window.workbench.budget_label.text() == "Budget: 9 s"
    assert window.admin.endpoint_for(window.servers.current()).headers == {"X-Team": "blue"}
    window.admin.save_server(demo_server.url, None, None, {}, set(), replaces=demo_server.url)
    record = window.servers.current()
    assert (record.name, record.budget_s, record.headers) == (None, None, ())
    assert window.workbench.budget_label.text() == "Budget: 20 s"
    assert window.admin.endpoint_for(record).headers == {}


def test_the_add_and_edit_dialogs_are_wired_to_the_store(qtbot, make_window, demo_server, monkeypatch) -> None:
    window = make_window()
    shown = []

    def fill_and_accept(dialog: ServerDialog) -> int:
        shown.append((dialog.url.text(), [(r.name.text(), r.value.text()) for r in dialog.header_rows]))
        if not dialog.url.text():
            dialog.url.setText(demo_server.url)
            dialog.name.setText("Added here")
            dialog.add_header("Authorization", "Bearer abc", True)
        else:
            dialog.budget.setText("4")
        dialog.accept()
        return ServerDialog.DialogCode.Accepted

    monkeypatch.setattr(ServerDialog, "exec", fill_and_accept)
    window.admin.add_server()
    record = window.servers.current()
    assert (record.url, record.name) == (demo_server.url, "Added here")
    window.admin.edit_server(record)
    # The edit dialog showed the secret (kept for this session), masked; the budget was changed.
    assert shown[1] == (demo_server.url, [("Authorization", "Bearer abc")])
    assert window.servers.current().budget_s == 4
    assert [h.secret for h in window.servers.current().headers] == [True]


def test_a_budget_over_a_week_is_refused_in_both_dialogs_as_on_the_command_line(qtbot) -> None:
    # 1e15 s was accepted (the bar then shows '999999999999999…' as the time left); --budget refuses it.
    server = ServerDialog(url="http://127.0.0.1:9/mcp")
    qtbot.addWidget(server)
    server.budget.setText("1e15")
    assert server.settings() is None
    assert server.budget_error.text() == "The budget can be at most 604,800 seconds (a week)."
    server.budget.setText("604800")
    assert server.settings() is not None and server.settings().budget_s == 604_800
    settings = AppSettings()
    dialog = SettingsDialog(settings, "/tmp/runs.db")
    qtbot.addWidget(dialog)
    dialog.budget.setText("1e15")
    dialog.accept()
    assert not dialog.budget_error.isHidden() and "at most 604,800 seconds" in dialog.budget_error.text()
    assert settings.default_budget_s == 20


def test_the_dialogs_wrapped_explanations_are_given_their_whole_height(qtbot) -> None:
    from PySide6.QtWidgets import QLabel

    for dialog in (SettingsDialog(AppSettings(), "/tmp/runs.db"),
                   ServerDialog(url="http://127.0.0.1:9/mcp", headers=[("Authorization", "x", True)])):
        qtbot.addWidget(dialog)
        dialog.show()
        qtbot.waitExposed(dialog)
        wrapped = [label for label in dialog.findChildren(QLabel) if label.wordWrap() and label.text()]
        assert wrapped
        for label in wrapped:  # a label shorter than its text needs is cut off at the bottom
            assert label.height() >= label.heightForWidth(label.width()), label.text()
    settings_dialog = SettingsDialog(AppSettings(), "/tmp/runs.db")
    qtbot.addWidget(settings_dialog)
    rules = next(label for label in settings_dialog.findChildren(QLabel) if "budget is the time" in label.text())
    assert "no upper limit" not in rules.text() and "604,800 s (a week)" in rules.text()


def test_a_servers_counts_wrap_in_the_panel_instead_of_being_cut_off(qtbot, make_window, demo_server) -> None:
    from PySide6.QtCore import QRect, Qt
    from PySide6.QtGui import QFontMetrics

    from inspector.store import RunStore, ServerRegistry, resolve_db_path

    with RunStore.open(resolve_db_path()) as store:  # counts of a server in use: a long line
        registry = ServerRegistry(store.db)
        for outcome in ("ok", "tool_error", "failed", "cancelled") * 12:
            registry.record_operation(demo_server.url, outcome, 5.0)
    window = make_window((demo_server.url, "Demo server"))
    window.resize(1280, 800)
    window.main.setSizes([230, 1050])  # the window's own first layout
    view = window.servers.view
    index = view.model().index(0, 0)
    text = index.data()
    counts = text.splitlines()[-1]
    metrics = QFontMetrics(view.font())
    width = view.viewport().width()
    assert metrics.horizontalAdvance(counts) > width  # the line is too long for one row: this test means something
    qtbot.waitUntil(lambda: view.visualRect(index).height()
                    >= metrics.boundingRect(QRect(0, 0, width, 10_000), int(Qt.TextFlag.TextWordWrap), text).height())
    assert view.visualRect(index).width() <= width
    assert not view.horizontalScrollBar().isVisible()


def wrapped_lines(text: str, font, width: int) -> list[str]:
    """The lines ``text`` is shown in when wrapped at word boundaries to ``width`` (as a label or a
    list item wraps it)."""
    from PySide6.QtGui import QTextLayout, QTextOption

    lines = []
    for paragraph in text.split("\n"):
        layout = QTextLayout(paragraph, font)
        option = QTextOption()
        option.setWrapMode(QTextOption.WrapMode.WordWrap)
        layout.setTextOption(option)
        layout.beginLayout()
        while (line := layout.createLine()).isValid():
            line.setLineWidth(width)
            lines.append(paragraph[line.textStart():line.textStart() + line.textLength()].strip())
        layout.endLayout()
    return lines


def test_a_count_stays_on_the_line_of_its_word_in_the_narrow_servers_panel(qtbot, make_window, demo_server) -> None:
    """In German the counts wrapped as "0 ok · 0 fehlgeschlagen · 0" above "abgebrochen"."""
    import re

    from inspector.gui.language import switch_language
    from inspector.store import RunStore, ServerRegistry, resolve_db_path

    with RunStore.open(resolve_db_path()) as store:
        registry = ServerRegistry(store.db)
        for outcome in ("ok", "failed", "cancelled"):
            registry.record_operation(demo_server.url, outcome, 15.0)
    window = make_window((demo_server.url, "Demo server"))
    window.main.setSizes([230, 1050])
    view, label = window.servers.view, window.servers.health
    try:
        for language in ("de", "en"):
            switch_language(language)
            qtbot.waitUntil(lambda: "15" in label.text())
            item = view.model().index(0, 0).data()
            for text, font, width in ((item, view.font(), view.viewport().width() - 8),
                                      (label.text(), label.font(), label.width())):
                lines = wrapped_lines(text, font, width)
                if language == "de":  # it wraps: the test means something
                    assert len(lines) > text.count("\n") + 1, lines
                for line, following in zip(lines, lines[1:], strict=False):
                    assert not (re.search(r"\d$", line) and re.match(r"\w", following)), (line, following)
    finally:
        switch_language("en")


def test_no_sign_is_left_alone_on_the_last_line_of_the_empty_servers_panel(qtbot, make_window) -> None:
    """"No server selected. Add one with" above a lone "+." in the panel's narrow column."""
    from inspector.gui.language import switch_language

    window = make_window()
    window.resize(1280, 800)
    window.main.setSizes([220, 1060])  # as narrow as the Runs tab's screenshots show it
    label = window.servers.health
    qtbot.waitUntil(lambda: label.width() <= 215)
    try:
        for language in ("en", "de"):
            switch_language(language)
            assert window.servers.current() is None
            lines = wrapped_lines(label.text(), label.font(), label.width())
            assert len(lines) > 1, lines  # it wraps: the test means something
            assert all(len(line) > 2 for line in lines), lines
    finally:
        switch_language("en")


def test_a_language_chosen_in_the_settings_fits_the_dialog_and_formats_its_numbers(qtbot) -> None:
    """Deutsch chosen in the open dialog (shown at once): the dialog kept its English width, so the
    form, wider in German (a check box's words do not wrap), was clipped at the right edge without
    a scroll bar ("…, aufgerundet auf" and no more), and the longest answer still read "1,024"."""
    from PySide6.QtWidgets import QScrollArea

    from inspector.gui.language import switch_language
    from inspector.i18n import current_language

    settings = AppSettings()
    dialog = SettingsDialog(settings, "/tmp/runs.db")
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    try:
        dialog.language.setCurrentIndex(dialog.language.findData("de"))
        assert current_language() == "de"
        qtbot.wait(50)  # the layouts settle
        scroll = dialog.findChild(QScrollArea)
        assert scroll.widget().width() <= scroll.viewport().width(), "the form is cut at the right"
        assert dialog.sampling_tokens.tokens.text() == "1.024"
        dialog.reject()
        assert current_language() == "en"
    finally:
        switch_language("en")
