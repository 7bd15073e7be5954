"""The tool catalogue in the window: pages as they come, the filter, Cancel while loading."""

from __future__ import annotations

from PySide6.QtCore import Qt

from inspector.demo import DemoOptions, DemoServer


def test_a_paged_catalogue_shows_its_pages_and_filters(qtbot, make_window) -> None:
    with DemoServer(DemoOptions(page_size=25, catalogue_size=120)) as demo:
        window = make_window()
        seen = []
        window.engine.submitted.connect(lambda task: task.changed.connect(
            lambda: seen.append(window.tools.state.text())))
        window.save_server(demo.url, "paged", None, {}, set())
        qtbot.waitUntil(lambda: window.tools.model.rowCount() > 0, timeout=15000)
        total = window.tools.model.rowCount()
        assert total == 130
        pages = -(-total // 25)
        assert window.tools.state.text() == f"130 tools in {pages} pages."
        assert "Loading tools: page 2…" in seen
        qtbot.keyClicks(window.tools.filter, "NEVER ANSWER")
        assert [window.tools.proxy.index(r, 0).data() for r in range(window.tools.proxy.rowCount())] == ["hang"]
        window.shut_down()


def test_cancel_while_the_catalogue_loads(qtbot, make_window) -> None:
    with DemoServer(DemoOptions(handshake_delay_s=3)) as demo:
        window = make_window()
        window.save_server(demo.url, "slow", None, {}, set())
        task = window.tools.task
        assert task is not None and task.running
        assert window.tools.cancel_button.isVisible()
        qtbot.mouseClick(window.tools.cancel_button, Qt.MouseButton.LeftButton)
        with qtbot.waitSignal(task.finished, timeout=3000):
            pass
        assert task.outcome.status == "cancelled"
        assert window.tools.state.text() == "Loading the tools was cancelled."
        assert window.tools.model.rowCount() == 0 and not window.tools.cancel_button.isVisible()
        window.shut_down()
