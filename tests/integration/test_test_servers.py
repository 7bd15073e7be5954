"""The suite's own servers on 127.0.0.1 (tests/support/asgi_server.py): every test that serves the SDK
server ends one, so its end waits for nothing it need not."""

from __future__ import annotations

import threading
import time

from tests.support.asgi_server import refused_after, serve_asgi
from tests.support.sdk_server import ToolEvents, build_sdk_server


def test_a_test_servers_end_is_heard_at_once_not_at_its_next_tick() -> None:
    # uvicorn looks at should_exit every tenth of a second: each of the hundreds of tests that serve
    # the SDK server waited that long on top of the shutdown's own tenth (as the demo server did).
    heard = []
    for _ in range(3):
        app = build_sdk_server(ToolEvents()).streamable_http_app(json_response=False, stateless_http=False)
        serving = serve_asgi(app)
        port = int(serving.__enter__().rsplit(":", 1)[1].split("/")[0])
        asked = time.perf_counter()
        ending = threading.Thread(target=serving.__exit__, args=(None, None, None))
        ending.start()  # the test's end, as a fixture's teardown makes it
        heard.append(refused_after(port, asked))
        ending.join(10)
        assert not ending.is_alive()
    assert sorted(heard)[1] < 0.05, heard
