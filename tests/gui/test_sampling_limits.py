"""The window bounds sampling as the user set it: the cap on an answer from the Settings reaches the
model as ``max_tokens``, and a server asking more often than an operation allows is refused before
any dialog opens, with a line in the Server log. Against the official SDK server and a model server
on loopback that records every request.

The handshake era is pinned (``era="handshake"``, and the ``sdk_server`` fixture's endpoint): the
test server's tools ask by sending requests on the stream, which only that era has. A question
asked in rounds (the stateless era) is tested against the demo server in test_stateless_questions."""

from __future__ import annotations

from inspector.gui.settings import AppSettings
from tests.support.asgi_server import serve_asgi
from tests.support.fake_chat_model import FakeChatModel, answer

#: The most sampling requests per operation (inspector.mcp.sampling_limits, as the README says).
PER_OPERATION = 5


def allow_each_request(qtbot, window, task) -> int:
    """Click Allow in every sampling dialog until the operation ends; how many were shown."""
    shown = 0
    while True:
        qtbot.waitUntil(lambda: bool(window.dialogs) or not task.running, timeout=10000)
        if not window.dialogs:
            return shown
        dialog = next(iter(window.dialogs.values()))
        dialog.allow_button.click()
        shown += 1
        qtbot.waitUntil(lambda d=dialog: d not in window.dialogs.values(), timeout=5000)


def test_the_settings_cap_and_the_operation_limit_bound_the_windows_sampling(qtbot, make_window,
                                                                            sdk_server) -> None:
    fake = FakeChatModel(lambda body: answer(f"answer {len(fake.requests)}"))
    with serve_asgi(fake.app(), path="/v1") as model_url:
        settings = AppSettings()
        settings.allow_sampling = True
        settings.sampling_model_url = model_url
        settings.sampling_model = "fake-model"
        settings.sampling_max_tokens = 20  # smaller than the 50 the tool asks for
        settings.sync()
        window = make_window((sdk_server.url, "sdk server"), era="handshake")
        endpoint = window.admin.endpoint_for(window.servers.current())
        task = window.engine.call_tool(endpoint, "summarise_often", {"text": "cats", "times": PER_OPERATION + 1},
                                       budget_s=30)
        shown = allow_each_request(qtbot, window, task)
        content = task.outcome.record.result.content
    assert shown == PER_OPERATION, "a dialog opened for a request over the limit"
    assert [asked["max_tokens"] for asked in fake.requests] == [20] * PER_OPERATION
    assert content.splitlines()[-1].startswith(f"{PER_OPERATION + 1}: refused: ")
    model = window.log_dock.view.model
    qtbot.waitUntil(lambda: model.rowCount() > 0, timeout=5000)
    lines = [model.index(row, model.COLUMNS.index("message")).data() for row in range(model.rowCount())]
    assert any(line.startswith(f"sampling/createMessage: declined (Over the limit of {PER_OPERATION} sampling "
                               "requests per operation: the client refused this one.)") for line in lines), lines
