"""The era per server in the window: the server dialog's Protocol era (both languages), saved and given
to the server's endpoint, what ``auto`` found shown in the Servers panel, and the engine's clients
keeping what they find in the store from the worker thread."""

from __future__ import annotations

import asyncio
import sys

from PySide6.QtCore import Qt

from inspector.gui.dialogs.server_dialog import ServerDialog
from inspector.gui.language import switch_language
from inspector.store import RunStore, ServerRegistry, StoredEras, resolve_db_path

URL = "http://127.0.0.1:9/mcp"


def test_the_dialog_offers_the_three_eras_with_a_line_each(qtbot) -> None:
    dialog = ServerDialog(url=URL)
    qtbot.addWidget(dialog)
    era = dialog.era
    assert [era.combo.itemText(i) for i in range(era.combo.count())] == [
        "Automatic", "Handshake (2025-11-25 and older)", "Stateless (2026-07-28)"]
    assert era.era == "auto" and "server/discover" in era.explanation.text()
    assert era.label.text() == "Protocol era" and era.combo.accessibleName() == "Protocol era"
    era.combo.setCurrentIndex(2)
    assert "each request carries its protocol version" in era.explanation.text()
    assert dialog.settings().era == "stateless"
    switch_language("de")
    try:
        assert era.label.text() == "Protokoll-Ära" and era.combo.currentText() == "Zustandslos (2026-07-28)"
        assert era.explanation.text().startswith("Kein Handshake")
    finally:
        switch_language("en")
    # A command server has an era too.
    command = ServerDialog(command_line=f"{sys.executable} -m tests.support.stdio_server", transport="stdio",
                           era="handshake")
    qtbot.addWidget(command)
    assert command.era.combo.currentText() == "Handshake (2025-11-25 and older)"
    assert command.settings().era == "handshake"


def test_the_chosen_era_is_saved_shown_again_and_spoken(qtbot, make_window, demo_server, monkeypatch) -> None:
    window = make_window((demo_server.url, "Demo"))
    seen: list[str] = []

    def choose_stateless(dialog: ServerDialog) -> int:
        seen.append(dialog.era.era)
        dialog.era.combo.setCurrentIndex(2 if dialog.era.era == "auto" else 1)
        dialog.accept()
        return ServerDialog.DialogCode.Accepted

    monkeypatch.setattr(ServerDialog, "exec", choose_stateless)
    window.admin.edit_server(window.servers.current())
    record = window.servers.current()
    assert record.era == "stateless"
    assert window.admin.endpoint_for(record).era == "stateless"
    window.admin.edit_server(record)  # shown as stored; now set to the handshake
    assert seen == ["auto", "stateless"]
    record = window.servers.current()
    assert record.era == "handshake" and window.admin.endpoint_for(record).era == "handshake"


def test_the_panel_shows_what_auto_found(qtbot, make_window, demo_server) -> None:
    window = make_window((demo_server.url, "Demo"))  # its tools are listed (a client may probe meanwhile)
    model = window.servers.model
    with RunStore.open(resolve_db_path()) as other:
        StoredEras(other).remember(demo_server.url, None)
    window.admin.reload_servers()
    index = model.index(0, 0)
    assert "Protocol era: automatic; not asked yet" in index.data(Qt.ItemDataRole.ToolTipRole)
    assert index.data().splitlines()[0] == "Demo"
    with RunStore.open(resolve_db_path()) as other:
        StoredEras(other).remember(demo_server.url, "stateless")
    window.admin.reload_servers()
    index = model.index(0, 0)
    assert index.data().splitlines()[0] == "Demo · stateless"
    assert "found to speak the stateless era" in index.data(Qt.ItemDataRole.ToolTipRole)


def test_the_engines_clients_keep_what_they_find_in_the_store(qtbot, make_window, demo_server) -> None:
    window = make_window((demo_server.url, "Demo"))
    engine = window.engine
    task = window.admin.test_server(window.servers.current())
    with qtbot.waitSignal(task.finished, timeout=20000):
        pass
    clients = list(engine._clients.values())
    # One memory for every client of the engine and its listening session: in memory, backed by the
    # store through the worker's own connection.
    assert clients and all(client.eras is engine.eras for client in clients)
    assert isinstance(engine.eras.backing, StoredEras)
    eras = clients[0].eras
    written = []

    async def remember_on_the_worker() -> None:
        await asyncio.sleep(0)
        eras.remember(demo_server.url, "handshake")
        written.append(True)

    engine.spawn(remember_on_the_worker)
    qtbot.waitUntil(lambda: bool(written), timeout=5000)
    with RunStore.open(resolve_db_path()) as other:
        assert StoredEras(other).recall(demo_server.url) == "handshake"
        assert ServerRegistry(other.db).get(demo_server.url).found_era == "handshake"


def test_the_step_detail_names_the_era_the_step_spoke(qtbot) -> None:
    from inspector.gui.runs.step_wire import stderr_text, wire_summary

    payload = {"transport": "http", "protocolVersion": "2026-07-28", "era": "stateless"}
    assert wire_summary(payload) == "Reached over Streamable HTTP, MCP 2026-07-28, stateless era"
    assert wire_summary({"transport": "stdio", "era": "handshake"}) == "Reached over stdio, handshake era"
    assert wire_summary({"transport": "http", "protocolVersion": "2025-06-18"}) == \
        "Reached over Streamable HTTP, MCP 2025-06-18"  # a step stored before eras were recorded
    switch_language("de")
    try:
        assert stderr_text(payload).startswith("Erreicht über Streamable HTTP, MCP 2026-07-28, zustandslose Ära")
    finally:
        switch_language("en")


def test_a_step_no_server_answered_does_not_say_it_reached_one(qtbot, tmp_path) -> None:
    """A refused connection stores the era and revision the client would have spoken; the detail says
    it tried, not that it reached the server and agreed on a revision."""
    from inspector.cli import main as cli
    from inspector.gui.runs.step_wire import wire_summary

    database = tmp_path / "runs.db"
    assert cli(["--db", str(database), "call", "http://127.0.0.1:9/mcp", "echo", "--budget", "3"]) == 1
    with RunStore.open(database) as store:
        payload = store.step_at(1, 1).step.to_payload()  # with its legs, as the detail shows it
    assert payload["transport"] == "http" and [leg["httpStatus"] for leg in payload["legs"]] == [None]
    assert wire_summary(payload) == "Tried over Streamable HTTP: no answer from the server"
    answered = {**payload, "legs": [{**payload["legs"][0], "httpStatus": 500}]}
    assert wire_summary(answered).startswith("Reached over Streamable HTTP, MCP ")  # an error is an answer
    switch_language("de")
    try:
        assert wire_summary(payload) == "Über Streamable HTTP versucht: keine Antwort vom Server"
    finally:
        switch_language("en")


def test_the_step_detail_reads_whether_the_server_answered_from_the_steps_legs(qtbot, tmp_path) -> None:
    """The database keeps a step's legs apart from its payload; the detail read the payload alone, where no leg
    says the connection was refused, and said "Reached over Streamable HTTP, MCP 2026-07-28, stateless era" of a
    call no server answered (runs show said "Tried over …"). A sign-in's step, whose legs asked the MCP server
    nothing, says nothing of how it was reached (runs show said "Tried over …: no answer from the server")."""
    from inspector.cli import main as cli
    from inspector.gui.runs.step_detail import StepDetail
    from inspector.runs import Leg, RunStep, StepKind
    from inspector.store.browse import step_in_full, timeline_page

    database = tmp_path / "runs.db"
    assert cli(["--db", str(database), "call", "http://127.0.0.1:9/mcp", "echo", "--budget", "3"]) == 1
    detail = StepDetail()
    qtbot.addWidget(detail)
    with RunStore.open(database) as store:
        signin = RunStep(kind=StepKind.REQUEST, round=0, duration_ms=90.0, content="sign-in: signed in",
                         transport="http", legs=(Leg("sign-in: resource metadata", 300, 3.0, None, "ok"),
                                                 Leg("sign-in: token", 300, 3.0, None, "ok")))
        store.append_step(store.start_run("sign-in", server=URL), signin)
        (refused,) = timeline_page(store, 1, 0, 10)
        detail.show_step(step_in_full(store, refused.id))
        assert detail.wire.text() == "Tried over Streamable HTTP: no answer from the server"
        switch_language("de")
        try:
            assert detail.wire.text() == "Über Streamable HTTP versucht: keine Antwort vom Server"
        finally:
            switch_language("en")
        (signed_in,) = timeline_page(store, 2, 0, 10)
        detail.show_step(step_in_full(store, signed_in.id))
        assert detail.wire.text() == "" and detail.wire.isHidden()
