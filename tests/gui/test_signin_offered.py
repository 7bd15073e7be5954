"""Sign in is offered where it can make sense: not on the window's own demo server (it never asks for
a sign-in, and a sign-in there could only fail), and a server that answered without asking says so
before anyone presses Sign in (a server that needs one answers HTTP 401 first); a server that cannot be
reached is not said to want a sign-in. Screenshots of the Servers panel in English and German."""

from __future__ import annotations

import socket

import pytest

from inspector.gui.app import open_window
from inspector.gui.language import switch_language
from inspector.gui.settings import AppSettings
from inspector.store import RunStore, resolve_db_path
from inspector.store.secrets import NoSecretKeeper
from tests.gui.test_screenshots import save


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_demo_server_offers_no_sign_in(qtbot, language) -> None:
    store = RunStore.open(resolve_db_path())
    window = open_window(store, resolve_db_path(), AppSettings(), secrets=NoSecretKeeper())  # a first start
    qtbot.addWidget(window)
    switch_language(language)
    try:
        window.show()
        qtbot.waitExposed(window)
        qtbot.waitUntil(lambda: window.demo.running, timeout=40000)
        qtbot.waitUntil(lambda: window.workbench.tools.model.rowCount() > 0, timeout=20000)
        strip = window.signin.strip
        assert window.demo.is_entry(window.admin.current().url)
        assert not strip.sign_in_button.isVisibleTo(window) and not strip.sign_out_button.isVisibleTo(window)
        assert strip.line.text() == {"en": "Sign-in: the demo server asks for none; it answers without credentials.",
                                     "de": "Anmeldung: Der Demo-Server verlangt keine; er antwortet ohne "
                                           "Zugangsdaten."}[language]
        assert window.signin.sign_in_current() is None  # nor from anywhere else
        qtbot.wait(200)
        save(window.servers, f"signin-demo-{language}")
    finally:
        switch_language("en")
        window.close()
        store.close()


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_server_that_answered_without_asking_says_so_before_sign_in(qtbot, make_window, demo_server,
                                                                       language) -> None:
    window = make_window((demo_server.url, "team server"))  # lists its tools: an operation it answered
    switch_language(language)
    try:
        strip = window.signin.strip
        qtbot.waitUntil(lambda: "401" in strip.line.text(), timeout=10000)
        qtbot.waitUntil(lambda: window.admin.current().ok_count >= 1, timeout=10000)  # the health, for the picture
        assert strip.line.text().startswith({"en": "Not signed in. This server answered without asking",
                                             "de": "Nicht angemeldet. Dieser Server hat geantwortet"}[language])
        assert strip.sign_in_button.isVisibleTo(window) and strip.sign_in_button.isEnabled()  # still possible
        qtbot.wait(200)
        save(window.servers, f"signin-answered-{language}")
    finally:
        switch_language("en")


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_server_that_cannot_be_reached_is_not_said_to_want_a_sign_in(qtbot, make_window, language) -> None:
    with socket.socket() as closed:  # a port of 127.0.0.1 that nothing listens on once this is closed
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    window = make_window((f"http://127.0.0.1:{port}/mcp", "gone server"))  # its listing fails: it never answered
    switch_language(language)
    try:
        strip = window.signin.strip
        qtbot.waitUntil(lambda: window.admin.current().failed_count >= 1, timeout=10000)
        window.signin.refresh()
        assert strip.line.text() == {"en": "No sign-in kept.", "de": "Keine Anmeldung gespeichert."}[language]
        assert strip.sign_in_button.isVisibleTo(window) and strip.sign_in_button.isEnabled()  # one may still try
        qtbot.wait(200)
        save(window.servers, f"signin-unreached-{language}")
    finally:
        switch_language("en")
