"""The window's sampling never tells a server the model's credentials: a model URL with
``user:password@`` becomes a Basic header, which a hostile model server repeats in its error; the
server asking for sampling gets the error without it, and neither does the window's record."""

from __future__ import annotations

import base64
import json
from types import SimpleNamespace

from inspector.gui.workbench.engine import OperationsEngine
from inspector.gui.workbench.server_requests import WindowAnswers, sampler_from_settings
from inspector.mcp import ServerEndpoint
from tests.support.fault_server import FaultServer
from tests.support.hostile_model import HostileModel, leaks

ASK_SAMPLING = [{"jsonrpc": "2.0", "id": 7, "method": "sampling/createMessage",
                 "params": {"messages": [{"role": "user", "content": {"type": "text", "text": "Say hi."}}],
                            "maxTokens": 20}}]
PASSWORD = "pw-Uq8rT5yE2wQ9oI4pA7sD-long"


def test_the_server_asking_for_sampling_never_hears_the_models_password(qtbot) -> None:
    with (HostileModel("openai") as model,
          FaultServer("session", work=lambda ex: ex.ask_client(ASK_SAMPLING)) as server):
        url = model.url.replace("http://", f"http://ada:{PASSWORD}@")
        settings = SimpleNamespace(allow_sampling=True, sampling_model_url=url, sampling_model="gpt-test",
                                   sampling_max_tokens=1024)
        answers = WindowAnswers(sampler=sampler_from_settings(settings))
        answers.sampling.connect(lambda pending: pending.answer(True))  # the user allows it
        engine = OperationsEngine(None, answers=answers)
        engine.start()
        try:
            # The handshake era, pinned: this fault server asks on the stream, answering every
            # method so, server/discover too.
            task = engine.call_tool(ServerEndpoint(server.url, era="handshake"), "ask", {}, budget_s=10)
            if task.running:
                with qtbot.waitSignal(task.finished, timeout=10000):
                    pass
            record = task.outcome.record
        finally:
            engine.shutdown()
        reply = server.reply_to(7)
    basic = base64.b64encode(f"ada:{PASSWORD}".encode()).decode()
    assert model.seen == [f"Basic {basic}"]  # the credentials were sent, and repeated back
    assert reply is not None and "HTTP 401" in reply.message["error"]["message"]
    told = json.dumps(reply.message)
    stored = json.dumps(record.step.to_payload())
    for secret in (PASSWORD, basic):
        assert leaks(told, secret) == [], told
        assert leaks(stored, secret) == []

