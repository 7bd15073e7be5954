"""The tool catalogue in the window: pages as they come, the filter, Cancel while loading."""

from __future__ import annotations

from PySide6.QtCore import Qt

from inspector.demo import DemoOptions, DemoServer
from tests.support.asgi_server import closed_port


def test_a_paged_catalogue_shows_its_pages_and_filters(qtbot, make_window) -> None:
    with DemoServer(DemoOptions(page_size=25, catalogue_size=120)) as demo:
        window = make_window()
        seen = []
        window.engine.submitted.connect(lambda task: task.changed.connect(
            lambda: seen.append(window.workbench.tools.state.text())))
        window.admin.save_server(demo.url, "paged", None, {}, set())
        qtbot.waitUntil(lambda: window.workbench.tools.model.rowCount() > 0, timeout=15000)
        total = window.workbench.tools.model.rowCount()
        assert total == 130
        pages = -(-total // 25)
        assert window.workbench.tools.state.text() == f"130 tools in {pages} pages."
        # The pages as they came, each said once it is seen; pages that come within one frame
        # reach the window as one update (issue 27), so a fast server's may not be said at all.
        assert seen and all(text == "Connecting to paged…" or text.startswith("Loading tools: page ") for text in seen)
        said = [int(text.removeprefix("Loading tools: page ").removesuffix("…")) for text in seen
                if text.startswith("Loading tools: page ")]
        assert said == sorted(said) and all(1 <= page <= pages for page in said)
        qtbot.keyClicks(window.workbench.tools.filter, "NEVER ANSWER")
        proxy = window.workbench.tools.proxy
        assert [proxy.index(r, 0).data() for r in range(proxy.rowCount())] == ["hang"]
        window.shut_down()


def test_cancel_while_the_catalogue_loads(qtbot, make_window) -> None:
    with DemoServer(DemoOptions(handshake_delay_s=3)) as demo:
        window = make_window()
        window.admin.save_server(demo.url, "slow", None, {}, set())
        task = window.workbench.tools.task
        assert task is not None and task.running
        assert window.workbench.tools.cancel_button.isVisible()
        qtbot.mouseClick(window.workbench.tools.cancel_button, Qt.MouseButton.LeftButton)
        with qtbot.waitSignal(task.finished, timeout=10000):  # the cancel wins over the 3 s handshake (status below)
            pass
        assert task.outcome.status == "cancelled"
        assert window.workbench.tools.state.text() == "Loading the tools was cancelled."
        assert window.workbench.tools.model.rowCount() == 0 and not window.workbench.tools.cancel_button.isVisible()
        window.shut_down()


def test_a_long_reason_the_tools_did_not_load_is_cut_at_a_whole_line_with_the_whole_in_the_tooltip(
        qtbot, make_window) -> None:
    """Under the short tool list, "The tools could not be loaded: …" (in German above all) was cut
    through the middle of a line, its end lost: it ends in "…" at the last whole line now."""
    from inspector.gui.language import switch_language
    from inspector.gui.widgets.plain_text import plain_tooltip
    from tests.gui.test_screenshots import save

    port = closed_port()  # a port nobody listens on
    switch_language("de")
    try:
        window = make_window((f"http://127.0.0.1:{port}/mcp", "Staging server of the support team"))
        tools = window.workbench.tools
        qtbot.waitUntil(lambda: tools.state.text().startswith("Die Tools konnten nicht geladen werden"),
                        timeout=15000)
        label = tools.state
        save(window, "tools-not-loaded-de")
        assert label.heightForWidth(label.width()) > label.height()  # it does not fit: the case at hand
        lines = label.shown_lines()
        assert len(lines) * label.fontMetrics().lineSpacing() <= label.contentsRect().height()
        assert lines[-1].endswith("…") and label.toolTip() == plain_tooltip(label.text())
        assert "Prüfen Sie, ob der Server läuft" in label.text()  # the whole text, for a screen reader
    finally:
        switch_language("en")
    window.shut_down()
