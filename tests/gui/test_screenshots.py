"""Screenshots of the window in known states, written to tests/gui/screenshots/ (git ignores it).

They exist so that people can look at what the window shows; each test also checks the state
it claims to show, so a screenshot of the wrong thing fails.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication

from inspector.demo import DemoOptions, DemoServer

SHOTS = Path(__file__).parent / "screenshots"


def save(widget, name: str, *, grey: bool = False) -> Path:
    SHOTS.mkdir(exist_ok=True)
    for _ in range(3):  # pending layout requests, and those they post: the picture shows the settled window
        QApplication.processEvents()
    image = widget.grab().toImage()
    path = SHOTS / f"{name}.png"
    assert image.save(str(path))
    if grey:
        image.convertToFormat(QImage.Format.Format_Grayscale8).save(str(SHOTS / f"{name}-grey.png"))
    return path


def finished(qtbot, task, timeout: int = 10000):
    if task.running:
        with qtbot.waitSignal(task.finished, timeout=timeout):
            pass
    return task.outcome


def big_window(make_window, *servers, **options):
    window = make_window(*servers, **options)
    window.resize(1280, 800)
    window.main.setSizes([240, 1040])
    return window


def test_screenshot_finished_call(qtbot, make_window, demo_server) -> None:
    window = big_window(make_window, (demo_server.url, "Demo server"))
    assert window.workbench.tools.select_tool("echo")
    window.workbench.arguments.set_arguments({"text": "Hello from Run Inspector <img src=x>", "repeat": 2})
    outcome = finished(qtbot, window.workbench.run_current_tool())
    assert outcome.status == "ok"
    qtbot.waitUntil(lambda: "2\u00a0ok" in window.servers.health.text())  # the catalogue walk and the call
    assert save(window, "finished-call").exists()


def test_screenshot_running_mid_leg(qtbot, make_window, demo_server) -> None:
    window = big_window(make_window, (demo_server.url, "Demo server"))
    assert window.workbench.tools.select_tool("slow_task")
    window.workbench.arguments.set_arguments({"seconds": 12, "steps": 12})
    task = window.workbench.run_current_tool()
    qtbot.waitUntil(lambda: len(task.state.marks) >= 3, timeout=10000)
    assert task.running and task.state.legs[-1].running
    assert window.workbench.operations.current is task
    bar = window.workbench.operations.detail
    assert bar.animating
    assert save(window, "running-mid-leg").exists()
    assert " left" in bar.current_geometry().end_text
    assert "progress 3 of 12: Step 3 of 12 done." in window.workbench.result.text.toPlainText()
    task.cancel()
    finished(qtbot, task)


def test_screenshot_cancelled_beside_failed(qtbot, make_window, demo_server) -> None:
    window = big_window(make_window, (demo_server.url, "Demo server"))
    assert window.workbench.tools.select_tool("fail")
    failed = finished(qtbot, window.workbench.run_current_tool())
    assert failed.status == "failed"
    assert window.workbench.tools.select_tool("hang")
    task = window.workbench.run_current_tool()
    assert demo_server.state.hang_started.wait(10)
    qtbot.wait(400)  # let the bar show some spent time before the cancel (a picture, not a sync)
    task.cancel()
    assert finished(qtbot, task).status == "cancelled"
    qtbot.waitUntil(lambda: "1\u00a0cancelled" in window.servers.health.text())
    assert save(window, "cancelled", grey=True).exists()


def test_screenshot_refused_leg(qtbot, make_window) -> None:
    # The handshake era, pinned: a refused leg after its slow handshake legs is the picture.
    with DemoServer(DemoOptions(handshake_delay_s=0.8)) as demo:
        window = big_window(make_window, (demo.url, "Slow handshake"), budget_s=30, era="handshake")
        assert window.workbench.tools.select_tool("echo")
        window.admin.registry.save_server(demo.url, budget_s=1)
        window.admin.reload_servers()
        window.workbench.arguments.set_arguments({"text": "never sent"})
        task = window.workbench.run_current_tool()
        assert finished(qtbot, task).status == "failed"
        assert task.state.ending == "refused"
        assert save(window, "refused-leg").exists()
        window.shut_down()
