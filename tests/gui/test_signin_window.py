"""Signing in from the window, end to end against the loopback authorization server and its protected
MCP server (tests/support/auth_server.py), with the browser replaced by the program that follows
the authorization server's redirect (what the conformance suite does).

A refused operation waits for a sign-in; the sign-in view asks, then lists each step as it
happens; the operation runs again afresh and its stored run says it waited; the Servers panel says
who is signed in until when; Sign out forgets; a cancelled sign-in is cancelled and the operation
that waited is recorded failed ("sign-in required"); a failing step is named in words. No token
ever shows in any widget.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtWidgets import QAbstractItemView, QLabel, QLineEdit, QPlainTextEdit, QPushButton, QTableWidget, QWidget

from inspector.gui.dialogs.signin_view import FOLLOWING_SIZE, SignInView
from inspector.gui.language import switch_language
from inspector.gui.runs.timeline_model import COLUMNS as TIMELINE_COLUMNS
from inspector.mcp.signin.discovery import canonical_resource
from inspector.mcp.signin.model import MemoryVault
from inspector.store import RunStore, ServerRegistry, resolve_db_path
from inspector.store.signin_settings import SignInSetup, StoredSignIn
from inspector.store.signin_vault import ProcessVault
from tests.support import follow_redirect
from tests.support.auth_config import PRE_REGISTERED_ID, PRE_REGISTERED_SECRET, WRITE_SCOPE, AuthConfig, pre_registered
from tests.support.auth_server import AuthServer, serve_auth_server
from tests.support.runs_tab import RunsShown

from .test_models_and_accessibility import _unnamed

SHOTS = Path(__file__).parent / "screenshots"  # git-ignored: for looking at, not for comparing


async def follow(url: str) -> bool:
    """The "browser": GET the authorization address, then the redirect back (in a thread)."""
    return await asyncio.to_thread(follow_redirect.main, ["follow_redirect", url]) == 0


@pytest.fixture
def auth() -> Iterator[AuthServer]:
    with serve_auth_server(AuthConfig()) as server:
        yield server


@pytest.fixture
def open_window(qtbot):
    """The main window with one protected server configured, a vault in memory and the browser replaced."""
    from inspector.gui.main_window import MainWindow
    from inspector.gui.settings import AppSettings
    from inspector.gui.workbench.engine import OperationsEngine
    from inspector.store.secrets import NoSecretKeeper

    opened = []

    def make(url: str, name: str = "Protected", vault: MemoryVault | None = None, keyring: bool = False,
             setup: tuple[SignInSetup, str] | None = None):
        store = RunStore.open(resolve_db_path())
        registry = ServerRegistry(store.db)
        for record in registry.all():  # one server: the one this window is about
            registry.remove_server(record.url)
        registry.save_server(url, name=name, era="handshake")
        settings = AppSettings()
        engine = OperationsEngine(resolve_db_path(), default_budget_s=settings.default_budget_s,
                                  signin_vault=None if keyring else vault or MemoryVault())
        engine.signins.browser = follow
        if setup is not None:  # as `servers set --client-id ... --client-secret-env ...` keeps them
            StoredSignIn(store.db, engine.signins.vault).save(url, setup[0], client_secret=setup[1])
        window = MainWindow(store, resolve_db_path(), settings, engine, secrets=NoSecretKeeper())
        opened.append((window, store))
        qtbot.addWidget(window)
        window.show()
        qtbot.waitExposed(window)
        return window

    yield make
    for window, store in opened:
        window.shut_down()
        store.close()


def asked_view(qtbot, window) -> SignInView:
    """The sign-in view that opened because a server asked (it asks before the browser opens)."""
    qtbot.waitUntil(lambda: any(view.isVisible() for view in window.signin.views.values()), timeout=15000)
    [view] = [view for view in window.signin.views.values() if view.isVisible()]
    return view


def row_texts(view: SignInView) -> list[tuple[str, str, str]]:
    table = view.steps
    return [tuple(table.item(row, column).text() for column in range(3)) for row in range(table.rowCount())]


def every_text(*roots: QWidget) -> str:
    """What any widget shows or says: label, field, text view, table cell, tooltip, accessible name."""
    texts = []
    for root in roots:
        for widget in [root, *root.findChildren(QWidget)]:
            texts += [widget.toolTip(), widget.accessibleName(), widget.windowTitle()]
            if isinstance(widget, (QLabel, QLineEdit, QPushButton)):
                texts.append(widget.text())
            if isinstance(widget, QPlainTextEdit):
                texts.append(widget.toPlainText())
            if isinstance(widget, QTableWidget):
                texts += [widget.item(row, column).text() + widget.item(row, column).toolTip()
                          for row in range(widget.rowCount()) for column in range(widget.columnCount())
                          if widget.item(row, column) is not None]
            if isinstance(widget, QAbstractItemView) and widget.model() is not None:
                model = widget.model()
                texts += [str(model.index(row, 0).data() or "") for row in range(model.rowCount())]
    return "\n".join(texts)


def assert_no_secret(auth: AuthServer, *roots: QWidget) -> None:
    shown = every_text(*roots)
    secrets = auth.secrets()
    assert secrets, "the server issued nothing: the check would prove nothing"
    leaked = [secret for secret in secrets if secret in shown]
    assert not leaked


def test_a_refused_call_waits_for_the_sign_in_then_runs_afresh_and_sign_out_forgets(
        qtbot, open_window, auth, announcements) -> None:
    vault = MemoryVault()
    window = open_window(auth.mcp_url, vault=vault)
    # Selecting the server lists its tools: the server refuses, the list waits, the view asks first.
    view = asked_view(qtbot, window)
    listing = window.workbench.tools.task
    assert listing is not None and listing.running and listing.waiting_for_signin
    assert "needs a sign-in" in view.why.text()
    assert view.sign_in_button.isVisible() and not auth.requests("authorize")  # nothing opened yet
    assert window.signin.strip.line.text().startswith("Needs sign-in")
    assert window.servers.model.index(0, 0).data().startswith("Protected · needs sign-in\n")
    view.sign_in_button.click()
    signin = view.task
    assert signin is not None and signin in window.workbench.operations.model.tasks  # an operation of its own
    with qtbot.waitSignal(listing.finished, timeout=20000):
        pass
    assert signin.outcome.status == "ok", str(signin.error)
    assert listing.outcome.status == "ok"
    assert listing.signins_waited == 1
    qtbot.waitUntil(lambda: window.workbench.tools.model.rowCount() > 0, timeout=5000)
    # Each step as it happened, done, with what it found; the browser's address whole.
    rows = row_texts(view)
    assert [row[1] for row in rows] == ["Finding the server's sign-in metadata", "Finding the authorization server",
                                        "Registering the client", "Signing in in the browser", "Getting the token"]
    assert all(row[0] == "done" for row in rows)
    assert auth.issuer in rows[1][2]
    assert view.address.isVisible() and view.address.text().startswith(auth.endpoint("authorize") + "?")
    assert view.status.text().startswith("✓ Signed in with " + auth.issuer + " until ")
    assert view.status.text() in announcements  # said to a screen reader, as a failure is
    tokens = vault.tokens(canonical_resource(auth.mcp_url))
    assert tokens is not None
    line = window.signin.strip.line.text()
    assert line.startswith("Signed in until ")  # the issuer is the line's tooltip (the panel is narrow)
    assert window.signin.strip.line.toolTip().startswith("Signed in with " + auth.issuer + " until ")
    assert line.endswith("No keyring: this session only.")
    assert window.signin.strip.line.toolTip().endswith("you will sign in again next time.")
    assert window.signin.strip.sign_out_button.isEnabled()
    assert window.servers.model.index(0, 0).data().startswith("Protected · signed in\n")
    # The listening session (the Server log's) follows the sign-in: it listens with the token.
    qtbot.waitUntil(lambda: window.listener.status.state.value == "listening", timeout=10000)
    # The stored run of the listing says it waited: the sign-in is its step before the listing's own.
    with RunStore.open(resolve_db_path()) as store:
        first, last = list(store.iter_steps(listing.outcome.run_id))
        assert first.step.content.startswith(f"sign-in: signed in with {auth.issuer} as client ")
        assert [leg.method for leg in first.step.legs][-1] == "sign-in: token"
        assert last.step.content.startswith("tools/list: ")
        assert store.get_run(listing.outcome.run_id).status == "ok"
    assert signin.outcome.run_id is None  # not a run of its own: the listing's run holds it
    window.workbench.result.show_task(listing)
    assert "It waited for 1 sign-in, then ran afresh with its whole budget." in window.workbench.result.sentence.text()
    assert_no_secret(auth, window, view)
    assert _unnamed(view) == [] and _unnamed(window) == []
    view.close_button.click()

    # Sign out forgets: the next call is refused, waits, and runs again afresh after the sign-in.
    window.signin.strip.sign_out_button.click()
    assert window.signin.strip.line.text() == "No sign-in kept."
    qtbot.waitUntil(lambda: vault.tokens(canonical_resource(auth.mcp_url)) is None, timeout=5000)
    qtbot.waitUntil(lambda: window.servers.model.index(0, 0).data().startswith("Protected\n"), timeout=5000)
    assert window.signin.strip.line.text() == "No sign-in kept."
    assert window.workbench.tools.select_tool("echo")
    window.workbench.arguments.set_arguments({"text": "hello"})
    call = window.workbench.run_current_tool()
    # The view of the first sign-in is still shown: the click waits until this call was refused and asks.
    qtbot.waitUntil(lambda: call.waiting_for_signin, timeout=15000)
    view = asked_view(qtbot, window)
    assert view.header.values[2].text() == "tools/call echo"
    view.sign_in_button.click()
    with qtbot.waitSignal(call.finished, timeout=20000):
        pass
    assert call.outcome.status == "ok", call.outcome
    assert call.signins_waited == 1
    # The first attempt was refused at its first request (no token); the call itself went once, signed in.
    calls = [seen for seen in auth.requests(method="POST") if seen.jsonrpc_method == "tools/call"]
    assert len(calls) == 1 and calls[0].authorization
    assert_no_secret(auth, window, view)


def test_a_larger_scope_is_asked_for_and_the_call_then_runs(qtbot, open_window, auth) -> None:
    window = open_window(auth.mcp_url)
    asked_view(qtbot, window).sign_in_button.click()
    qtbot.waitUntil(lambda: window.workbench.tools.model.rowCount() > 0, timeout=20000)
    for view in list(window.signin.views.values()):
        view.close()
    assert window.workbench.tools.select_tool("write_note")
    window.workbench.arguments.set_arguments({"text": "hello"})
    call = window.workbench.run_current_tool()
    view = asked_view(qtbot, window)
    assert WRITE_SCOPE in view.why.text()  # the server's 403 names the scope it needs
    view.sign_in_button.click()
    with qtbot.waitSignal(call.finished, timeout=20000):
        pass
    assert call.outcome.status == "ok"
    assert WRITE_SCOPE in (view.task.tokens.scope or "")


def test_a_cancelled_sign_in_is_cancelled_and_the_waiting_call_fails_sign_in_required(qtbot, open_window) -> None:
    with serve_auth_server(AuthConfig(token_delay=30.0)) as auth:
        window = open_window(auth.mcp_url)
        view = asked_view(qtbot, window)
        listing = window.workbench.tools.task
        view.sign_in_button.click()
        signin = view.task
        qtbot.waitUntil(lambda: any(leg.method == "sign-in: token" and leg.running for leg in signin.state.legs),
                        timeout=15000)
        view.reject()  # Esc in the view: the running sign-in is cancelled, the view stays to say so
        with qtbot.waitSignal(listing.finished, timeout=10000):
            pass
        assert signin.outcome.status == "cancelled"
        assert signin.state.ending == "cancelled"
        assert listing.outcome.status == "failed"
        assert listing.outcome.record.error.kind.value == "signin_required"
        assert listing.signins_waited == 0
        assert row_texts(view)[-1][:2] == ("cancelled", "Getting the token")
        assert view.status.text().startswith("⊘ Sign-in cancelled")
        assert not view.failure.isVisible()
        with RunStore.open(resolve_db_path()) as store:
            assert store.get_run(listing.outcome.run_id).status == "failed"
            # In the order they happened: the refused attempt, then the sign-in that was cancelled.
            refused, signin_step = list(store.iter_steps(listing.outcome.run_id))
            assert signin_step.step.legs[-1].outcome == "cancelled" and signin_step.step.content.startswith("sign-in: ")
            assert "needs a sign-in" in refused.step.content
            # Numbered so too (the refusal was written after the sign-in: the timeline read #2 above #1).
            assert (refused.sequence, signin_step.sequence) == (1, 2)
            assert refused.started_at < signin_step.started_at


def test_declining_leaves_the_operation_failed_sign_in_required(qtbot, open_window, auth) -> None:
    window = open_window(auth.mcp_url)
    view = asked_view(qtbot, window)
    listing = window.workbench.tools.task
    view.cancel_button.click()  # "Not now"
    with qtbot.waitSignal(listing.finished, timeout=10000):
        pass
    assert listing.outcome.record.error.kind.value == "signin_required"
    assert not auth.requests("authorize") and not view.isVisible()


@pytest.mark.parametrize(("config", "step", "words"), [
    (AuthConfig(code_challenge_methods=None), "Finding the authorization server", "PKCE"),
    (AuthConfig(iss_value="https://elsewhere.example"), "Signing in in the browser", "elsewhere.example"),
])
def test_a_failing_step_is_named_in_words(qtbot, open_window, config, step, words, announcements) -> None:
    with serve_auth_server(config) as auth:
        window = open_window(auth.mcp_url)
        view = asked_view(qtbot, window)
        listing = window.workbench.tools.task
        view.sign_in_button.click()
        with qtbot.waitSignal(listing.finished, timeout=20000):
            pass
        signin = view.task
        assert signin.outcome.status == "failed"
        assert view.status.text() == f"✗ Sign-in failed at the step: {step}."
        failed = [row for row in row_texts(view) if row[0] == "failed"]
        assert [row[1] for row in failed] == [step] and words in failed[0][2]
        assert view.failure.isVisible() and words in view.failure.text()
        assert listing.outcome.record.error.kind.value == "signin_required"
        # Said to a screen reader too: it heard "tools/list (failed)" from the status line, never the sign-in's
        # end nor why (the user comes back from the browser to a dialog that changed in silence).
        assert f"{view.status.text()} {view.failure.text()}" in announcements


def test_screenshots_of_the_sign_in_view_and_the_servers_panel(qtbot, open_window) -> None:
    """During (waiting on the token), after, and a failed one; English and German."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    for language in ("en", "de"):
        switch_language(language)
        try:
            with serve_auth_server(AuthConfig(token_delay=30.0)) as auth:
                window = open_window(auth.mcp_url, name=f"Protected ({language})")
                view = asked_view(qtbot, window)
                view.grab().save(str(SHOTS / f"signin-asking-{language}.png"))
                # Asking, it is as high as its question and its buttons; the steps get their room after.
                layout = view.layout()
                assert view.height() == layout.heightForWidth(view.width()) < FOLLOWING_SIZE.height()
                assert all(not label.isVisible() or label.height() >= label.heightForWidth(label.width())
                           for label in (view.why, view.status))  # no line cut off
                view.sign_in_button.click()
                assert view.size() == FOLLOWING_SIZE
                signin = view.task
                qtbot.waitUntil(lambda signin=signin: any(leg.method == "sign-in: token" and leg.running
                                                          for leg in signin.state.legs), timeout=15000)
                view.grab().save(str(SHOTS / f"signin-during-{language}.png"))
                window.grab().save(str(SHOTS / f"window-during-{language}.png"))
                view.reject()
                qtbot.waitUntil(lambda signin=signin: not signin.running, timeout=10000)
                view.grab().save(str(SHOTS / f"signin-cancelled-{language}.png"))
                window.shut_down()
            with serve_auth_server(AuthConfig()) as auth:
                window = open_window(auth.mcp_url, name=f"Signed ({language})")
                view = asked_view(qtbot, window)
                view.sign_in_button.click()
                qtbot.waitUntil(lambda window=window: window.workbench.tools.model.rowCount() > 0, timeout=20000)
                view.grab().save(str(SHOTS / f"signin-done-{language}.png"))
                view.close()
                window.servers.grab().save(str(SHOTS / f"servers-panel-{language}.png"))
                window.grab().save(str(SHOTS / f"window-signed-in-{language}.png"))
                listing = window.workbench.tools.task
                qtbot.waitUntil(lambda listing=listing: listing.outcome is not None, timeout=5000)
                window.tabs.setCurrentWidget(window.runs_tab)
                window.runs_tab.reload() if hasattr(window.runs_tab, "reload") else None
                qtbot.waitUntil(lambda window=window, listing=listing: window.runs_tab.select_runs(
                    [listing.outcome.run_id]), timeout=5000)
                qtbot.waitUntil(lambda window=window: window.runs_tab.timeline.rowCount() == 2, timeout=5000)
                window.runs_tab.timeline_view.selectRow(0)
                qtbot.wait(200)  # the detail's least width and the panels settle before the picture
                window.grab().save(str(SHOTS / f"runs-signin-step-{language}.png"))
                window.shut_down()
            with serve_auth_server(AuthConfig(iss_value="https://elsewhere.example")) as auth:
                window = open_window(auth.mcp_url, name=f"Broken ({language})")
                view = asked_view(qtbot, window)
                view.sign_in_button.click()
                qtbot.waitUntil(lambda view=view: view.task is not None and not view.task.running, timeout=20000)
                view.grab().save(str(SHOTS / f"signin-failed-{language}.png"))
                window.shut_down()
        finally:
            switch_language("en")


def test_signing_in_from_the_servers_panel_is_a_run_of_its_own(qtbot, open_window, auth) -> None:
    window = open_window(auth.mcp_url)
    asked_view(qtbot, window).cancel_button.click()  # "Not now" to the listing's question
    qtbot.waitUntil(lambda: not window.workbench.tools.task.running, timeout=10000)
    assert window.signin.strip.sign_in_button.isEnabled()
    window.signin.strip.sign_in_button.click()  # asked for: no question, the browser opens at once
    view = asked_view(qtbot, window)
    assert view.header.values[2].text() == "none waits: you asked to sign in"
    signin = view.task
    with qtbot.waitSignal(signin.finished, timeout=20000):
        pass
    assert signin.outcome.status == "ok"
    assert view.why.text() == "You asked to sign in to this server."
    assert window.signin.strip.line.text().startswith("Signed in")
    assert window.signin.strip.line.toolTip().startswith("Signed in with ")
    with RunStore.open(resolve_db_path()) as store:
        run = store.get_run(signin.outcome.run_id)
        assert run.title == f"sign-in {auth.mcp_url}" and run.status == "ok"
        [step] = list(store.iter_steps(run.id))
        assert [leg.method for leg in step.step.legs] == ["sign-in: resource metadata", "sign-in: authorization server",
                                                          "sign-in: client", "sign-in: browser", "sign-in: token"]
        assert step.step.content.startswith(f"sign-in: signed in with {auth.issuer} as client ")
    assert_no_secret(auth, window, view)
    # Read in German, the step says its operation in German too (it said "sign-in:" before the German sentence);
    # the stored text stays English.
    switch_language("de")
    try:
        window.runs_tab.show_me()
        RunsShown(qtbot, window).select(run.id, steps=1)
        details = window.runs_tab.timeline.index(0, TIMELINE_COLUMNS.index("details")).data()
        assert details.startswith(f"Anmeldung: angemeldet bei {auth.issuer} als Client "), details
    finally:
        switch_language("en")


def test_a_sign_in_kept_in_the_keyring_is_there_in_the_next_window_and_never_in_the_database(
        qtbot, open_window, auth, file_keyring) -> None:
    window = open_window(auth.mcp_url, keyring=True)  # the window's own vault: the (file) keyring
    assert window.engine.signins.vault.persistent
    asked_view(qtbot, window).sign_in_button.click()
    qtbot.waitUntil(lambda: window.workbench.tools.model.rowCount() > 0, timeout=20000)
    window.shut_down()
    again = open_window(auth.mcp_url, keyring=True)
    # Signed in from the start: the list needs no question, the panel says so (read off the GUI thread).
    qtbot.waitUntil(lambda: again.workbench.tools.model.rowCount() > 0, timeout=20000)
    assert not any(view.isVisible() for view in again.signin.views.values())
    qtbot.waitUntil(lambda: again.signin.strip.line.toolTip().startswith(f"Signed in with {auth.issuer} until "),
                    timeout=5000)
    assert "keyring" not in again.signin.strip.line.text()
    path = resolve_db_path()
    database = b"".join(part.read_bytes() for part in path.parent.glob(path.name + "*"))  # with -wal, -shm
    assert not [secret for secret in auth.secrets() if secret.encode() in database]
    assert any(secret in str(file_keyring.entries()) for secret in auth.secrets())  # where they are instead


def test_cancelling_the_waiting_operation_closes_the_question(qtbot, open_window, auth) -> None:
    window = open_window(auth.mcp_url)
    view = asked_view(qtbot, window)
    listing = window.workbench.tools.task
    window.workbench.cancel_current()  # Esc in the window: the newest running operation is the waiting list
    assert not view.isVisible()  # at once: nobody waits for the sign-in any more
    with qtbot.waitSignal(listing.finished, timeout=10000):
        pass
    assert not auth.requests("authorize")
    # The user's cancel: recorded cancelled, never a failure nor the server's fault (it was "failed: sign-in
    # required", counted failed in the server's health); its step still shows the refusal.
    assert listing.outcome.status == "cancelled" and listing.state.ending == "cancelled"
    assert listing.outcome.record.error.message == ("You cancelled the operation before its request reached the "
                                                    "server Protected (during sign-in); the work was not sent.")
    with RunStore.open(resolve_db_path()) as store:
        assert store.get_run(listing.outcome.run_id).status == "cancelled"
        [refused] = list(store.iter_steps(listing.outcome.run_id))
        assert "needs a sign-in" in refused.step.content
        health = ServerRegistry(store.db).get(auth.mcp_url)
        assert (health.ok_count, health.failed_count, health.cancelled_count) == (0, 0, 1)
    from inspector.i18n import set_language
    from inspector.i18n.messages import translate

    set_language("de")
    try:
        assert translate(listing.outcome.record.error) == (
            "Sie haben den Vorgang abgebrochen, bevor seine Anfrage den Server Protected erreichte (während "
            "Anmeldung); der Auftrag wurde nicht gesendet.")
    finally:
        set_language("en")


def test_choosing_another_server_while_the_question_is_open_counts_nothing_against_the_first(qtbot, open_window,
                                                                                           auth) -> None:
    """The window set the waiting listing aside (not the user's cancel): its server's health counted it
    failed ("0 ok · 1 failed") because its record stayed the refused attempt's."""
    from inspector.demo import DemoServer

    with DemoServer() as demo:
        window = open_window(auth.mcp_url)
        view = asked_view(qtbot, window)
        listing = window.workbench.tools.task
        ServerRegistry(window.store.db).save_server(demo.url, name="demo")
        window.admin.reload_servers(select_url=demo.url)
        qtbot.waitUntil(lambda: listing.outcome is not None, timeout=10000)
        assert not view.isVisible() and listing.set_aside and listing.outcome.status == "cancelled"
        health = ServerRegistry(window.store.db).get(auth.mcp_url)
        assert (health.ok_count, health.failed_count, health.cancelled_count) == (0, 0, 0)
        [step] = list(window.store.iter_steps(listing.outcome.run_id))
        assert step.step.content == ("tools/list: The window set the tool listing aside because another server was "
                                     "chosen, before its request reached the server Protected (during sign-in); the "
                                     "work was not sent.")
        window.close()  # before the demo server stops: the window listens to it


def test_the_client_set_up_for_the_server_signs_in_and_its_secret_shows_nowhere(qtbot, open_window) -> None:
    with serve_auth_server(AuthConfig(clients=[pre_registered()], registration=False)) as auth:
        setup = SignInSetup(client_id=PRE_REGISTERED_ID, auth_method="client_secret_basic")
        window = open_window(auth.mcp_url, vault=ProcessVault(), setup=(setup, PRE_REGISTERED_SECRET))
        view = asked_view(qtbot, window)
        view.sign_in_button.click()
        qtbot.waitUntil(lambda: window.workbench.tools.model.rowCount() > 0, timeout=20000)
        assert view.task.outcome.status == "ok"
        client_row = row_texts(view)[2]
        assert client_row[1:] == ("Registering the client", f"Client {PRE_REGISTERED_ID} (given by you).")
        assert not auth.requests("register")
        assert PRE_REGISTERED_SECRET in auth.secrets()
        assert_no_secret(auth, window, view)


def _signed_in_echo(qtbot, window, text: str) -> tuple[list[str], object]:
    """Sign in (the listing asks), then call echo; the resources whose tokens the window read again
    after the sign-in, and the call."""
    asked_view(qtbot, window).sign_in_button.click()
    qtbot.waitUntil(lambda: window.workbench.tools.model.rowCount() > 0, timeout=20000)
    signins = window.engine.signins
    qtbot.waitUntil(lambda: signins.tokens(window.workbench.tools.task.server) is not None, timeout=5000)
    reads: list[str] = []
    reread = signins.kept.read
    signins.kept.read = lambda found, key: (reads.append(found), reread(found, key))
    assert window.workbench.tools.select_tool("echo")
    window.workbench.arguments.set_arguments({"text": text})
    call = window.workbench.run_current_tool()
    with qtbot.waitSignal(call.finished, timeout=20000):
        pass
    assert call.outcome.status == "ok", call.outcome
    return reads, call


def test_tokens_renewed_inside_a_call_are_shown_after_it_and_a_call_that_changed_none_reads_no_keyring(
        qtbot, open_window) -> None:
    # Tokens that live 30 s are renewed (a refresh leg) by every operation: they are within a minute of expiring.
    with serve_auth_server(AuthConfig(expires_in=30)) as auth:
        vault = MemoryVault()
        window = open_window(auth.mcp_url, vault=vault)
        resource = canonical_resource(auth.mcp_url)
        signed = []
        keep = vault.keep_tokens
        vault.keep_tokens = lambda tokens: (signed.append(tokens), keep(tokens))  # the sign-in's, then the refresh's
        reads, call = _signed_in_echo(qtbot, window, "hello")
        assert call.finished_legs[0].method == "sign-in: refresh"
        renewed = vault.tokens(resource)
        assert renewed is not None and renewed.access_token != signed[0].access_token
        # The refresh inside the call is read back: the window's tokens (the Servers panel's) are the new ones.
        assert reads == [resource]
        qtbot.waitUntil(lambda: window.engine.signins.tokens(call.server) == renewed, timeout=5000)
        window.shut_down()

    # A server whose tokens no operation changes: its operations' ends read nothing again.
    with serve_auth_server() as lasting:
        reads, call = _signed_in_echo(qtbot, open_window(lasting.mcp_url, vault=MemoryVault()), "again")
        assert all(leg.method != "sign-in: refresh" for leg in call.finished_legs)
        assert reads == []


class _SlowReadVault(MemoryVault):
    """A vault whose reads for the Servers panel answer what was kept when they began, and then wait
    to be let go (a keyring slow to answer): a read begun before a sign-in ends comes back after it,
    with nothing in it. (The panel reads in a thread of the worker loop's executor, named
    "asyncio_N"; the operations' clients read on the loop's own thread, and are not held.)"""

    def __init__(self) -> None:
        super().__init__()
        self.reads: list[threading.Event] = []
        self.holding = True
        self._lock = threading.Lock()

    def tokens(self, resource: str):
        found = super().tokens(resource)
        if not threading.current_thread().name.startswith("asyncio_"):
            return found
        gate = threading.Event()
        with self._lock:
            if not self.holding:
                return found
            self.reads.append(gate)
        gate.wait(20)
        return found

    def let_go(self, count: int) -> None:
        with self._lock:
            for gate in self.reads[:count]:
                gate.set()

    def stop_holding(self) -> None:
        """Every read held answers, and no later one is held (none is left waiting at the end)."""
        with self._lock:
            self.holding = False
            for gate in self.reads:
                gate.set()


def test_a_read_of_the_keyring_begun_before_the_sign_in_does_not_undo_it(qtbot, open_window, auth) -> None:
    vault = _SlowReadVault()
    window = open_window(auth.mcp_url, vault=vault)
    try:
        qtbot.waitUntil(lambda: len(vault.reads) == 1, timeout=10000)  # the panel's first read, held
        view = asked_view(qtbot, window)
        listing = window.workbench.tools.task
        view.sign_in_button.click()
        with qtbot.waitSignal(listing.finished, timeout=20000):
            pass
        assert window.signin.strip.line.text().startswith("Signed in until ")
        vault.let_go(1)  # the read from before the sign-in answers: no tokens
        qtbot.waitUntil(lambda: len(vault.reads) >= 2, timeout=10000)  # the read after it has begun
        qtbot.wait(100)  # the first read's answer has crossed to the window
        assert window.signin.strip.line.text().startswith("Signed in until ")
        assert window.servers.model.index(0, 0).data().startswith("Protected · signed in\n")
    finally:
        vault.stop_holding()
