"""No system keyring (``keyring``'s fail backend, the tests' default): a server's secret header lasts
the session it was typed in. After a restart the header is not sent and the server (a real one on
127.0.0.1 behind an ``X-Api-Key`` gate) answers 401 without an OAuth challenge. The window said it
"needs sign-in", its tools list waited for one and the Server log said it "did not answer yet; trying
again…". Now it says what happened: the server answered 401, and the header no keyring kept is to be
given again (Edit…); no sign-in is offered, and the Server log says it stopped, with the same reason.
"""

from __future__ import annotations

import keyring
import pytest
from keyring.backends import fail

from inspector.gui.language import switch_language
from inspector.store import RunStore, resolve_db_path
from tests.support.query_key_server import header_key_server

#: After "The server vault answered METHOD" (the first request of the era the window tries).
UNKEPT = ("with HTTP status 401: its secret header X-Api-Key was not sent, as no system keyring kept its value. Give "
          "it again: press Edit… with the server selected.")


@pytest.fixture
def gated():
    with header_key_server("k3y") as (url, gate):
        yield url, gate


def _open(qtbot, store):
    from inspector.gui.main_window import MainWindow
    from inspector.gui.settings import AppSettings

    made = MainWindow(store, resolve_db_path(), AppSettings())  # the system's keeper: it finds none
    qtbot.addWidget(made)
    made.show()
    qtbot.waitExposed(made)
    return made


def test_after_a_restart_without_a_keyring_the_401_asks_for_the_header_again_not_a_sign_in(qtbot, gated) -> None:
    from .test_screenshots import save

    url, gate = gated
    assert isinstance(keyring.get_keyring(), fail.Keyring)
    with RunStore.open(resolve_db_path()) as store:
        first = _open(qtbot, store)
        try:
            first.admin.save_server(url, "vault", None, {"X-Api-Key": "k3y"}, set())
            tools = first.workbench.tools
            qtbot.waitUntil(lambda: tools.model.rowCount() > 0, timeout=20000)  # sent this session
        finally:
            first.shut_down()
        refused = gate.refused
        made = _open(qtbot, store)  # the restart: the header's value was kept nowhere
        try:
            tools, state = made.workbench.tools, made.log_dock.view.state
            qtbot.waitUntil(lambda: tools.task is not None and not tools.task.running, timeout=20000)
            assert gate.refused > refused  # the server was asked, and answered 401
            said = tools.state.text()
            assert said.startswith("The tools could not be loaded: The server vault answered ") and \
                said.endswith(UNKEPT), said
            qtbot.waitUntil(lambda: "vault" in state.text() and "Connecting" not in state.text(), timeout=10000)
            assert state.text().startswith("Stopped listening to vault: The server vault answered ") and \
                state.text().endswith(UNKEPT), state.text()
            signin = made.signin
            assert not signin.signins.needing and not signin.views and not tools.task.waiting_for_signin
            assert "sign-in" not in made.servers.model._signin.get(url, ""), made.servers.model._signin
            qtbot.wait(300)
            save(made, "unkept-secret-en")  # tests/gui/screenshots/, to look at
            assert not signin.views and not made.signin.signins.needing  # nothing asked later either
            switch_language("de")
            assert "X-Api-Key" in tools.state.text() and "Bearbeiten…" in tools.state.text(), tools.state.text()
            assert "Schlüsselbund" in state.text() and "antwortete noch nicht" not in state.text(), state.text()
            save(made, "unkept-secret-de")
        finally:
            switch_language("en")
            made.shut_down()
