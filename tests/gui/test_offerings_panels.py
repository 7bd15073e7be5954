"""The Resources and Prompts tabs of the Workbench against the real demo server: list, read (text,
and a picture drawn), a prompt's arguments with the server's suggestions, get; each an operation
with its bar, stored as a run; screenshots in English and German."""

from __future__ import annotations

from pathlib import Path

from tests.gui.test_images import decoded_tiles
from tests.gui.test_main_window import finished

SHOTS = Path(__file__).parent / "screenshots"


def _ended(qtbot, tasks: list) -> None:
    for task in tasks:
        assert finished(qtbot, task).status == "ok", task.title


def test_resources_are_listed_and_read_and_a_picture_is_drawn(qtbot, make_window, demo_server) -> None:
    window = make_window((demo_server.url, "Demo server"))
    room = window.workbench
    room.browse.setCurrentWidget(room.resources)
    room.resources.list_button.click()
    qtbot.waitUntil(lambda: room.resources.items.count() == 4, timeout=10000)
    texts = [room.resources.items.item(index).text() for index in range(4)]
    assert "demo://readme · About this server" in texts and "template: demo://notes/{index} · A note" in texts
    # Choosing the picture puts its URI in the field; Read reads it, as an operation of its own.
    [picture] = [index for index, text in enumerate(texts) if "stripes" in text]
    room.resources.items.setCurrentRow(picture)
    assert room.resources.uri.text() == "demo://stripes.png"
    task = room.resources.read()
    _ended(qtbot, [task])
    assert task.title == "resources/read demo://stripes.png" and task.outcome.run_id is not None
    room.detail.show_task(task)
    assert "demo://stripes.png: binary content, 139 B (image/png)." in room.result.text.toPlainText()
    [tile] = decoded_tiles(qtbot, room.result.images)
    assert tile.caption.text().startswith("Image 1: 16 × 8 pixels")
    # A template's URI filled in by hand, after write_note kept a note.
    room.resources.uri.setText("demo://notes/1")
    failed = room.resources.read()
    assert finished(qtbot, failed).status == "failed"  # no note yet: the server's words, a failure


def test_a_prompt_is_filled_with_the_servers_suggestion_and_got(qtbot, make_window, demo_server) -> None:
    window = make_window((demo_server.url, "Demo server"))
    room = window.workbench
    assert room.call_box.isVisibleTo(window)
    room.browse.setCurrentWidget(room.prompts)
    assert not room.call_box.isVisibleTo(window)  # the tool's form is not beside the prompts
    room.prompts.list_prompts()
    qtbot.waitUntil(lambda: room.prompts.items.count() == 2, timeout=10000)
    room.prompts.items.setCurrentRow(0)
    assert list(room.prompts.fields) == ["text", "style"]
    room.prompts.fields["style"].setEditText("b")
    suggestion = room.prompts.suggest("style")
    _ended(qtbot, [suggestion])
    style = room.prompts.fields["style"]
    assert [style.itemText(index) for index in range(style.count())] == ["bullet points"]
    style.setEditText("bullet points")
    room.prompts.fields["text"].setEditText("<b>Run Inspector</b>")
    task = room.prompts.get()
    _ended(qtbot, [task])
    room.detail.show_task(task)
    text = room.result.text.toPlainText()
    assert "Summarize the following text (bullet points):" in text and "<b>Run Inspector</b>" in text
    for language in ("en", "de"):
        window.settings.language = language
        assert window.apply_language() == language
        qtbot.wait(50)
        window.grab().save(str(SHOTS / f"workbench-prompts-{language}.png"))
    window.settings.language = "en"
    window.apply_language()
    assert room.browse.tabText(room.browse.indexOf(room.prompts)) == "Prompts"
    room.browse.setCurrentWidget(room.tools)
    assert room.call_box.isVisibleTo(window)


def test_a_prompt_without_its_required_argument_is_not_sent_and_the_field_says_why(qtbot, make_window,
                                                                                   demo_server) -> None:
    from inspector.gui.language import switch_language

    window = make_window((demo_server.url, "Demo server"))
    room = window.workbench
    room.browse.setCurrentWidget(room.prompts)
    room.prompts.list_prompts()
    qtbot.waitUntil(lambda: room.prompts.items.count() == 2, timeout=10000)
    room.prompts.items.setCurrentRow(0)  # summarize: text (required) and style
    prompts = room.prompts
    prompts.fields["style"].setEditText("short")
    sent = len(room.operations.tasks)
    prompts.get_button.click()
    # Nothing went to the server (no -32602, no second discover): the field and a sentence say why.
    assert prompts.get() is None and len(room.operations.tasks) == sent
    assert prompts.arguments_box.errors["text"].isVisibleTo(window)
    assert prompts.arguments_box.errors["text"].text() == "This field is required."
    assert not prompts.arguments_box.errors["style"].isVisibleTo(window)
    assert prompts.problem.isVisibleTo(window)
    assert prompts.problem.text() == "Nothing was sent: fill in the arguments marked *.\ntext: This field is required."
    switch_language("de")
    try:
        assert prompts.problem.text().startswith("Es wurde nichts gesendet")
        assert prompts.arguments_box.errors["text"].text() == "Dieses Feld ist ein Pflichtfeld."
    finally:
        switch_language("en")
    # Typing the value takes the words away; Get then sends, and the server fills the prompt in.
    qtbot.keyClicks(prompts.fields["text"].lineEdit(), "Run Inspector")
    assert not prompts.arguments_box.errors["text"].isVisibleTo(window) and not prompts.problem.isVisibleTo(window)
    task = prompts.get()
    _ended(qtbot, [task])
    assert len(room.operations.tasks) == sent + 1


def test_a_resource_link_in_a_tools_answer_is_read_when_the_user_asks(qtbot, make_window) -> None:
    from tests.support.fault_server import Exchange, FaultServer

    asked = []

    def work(exchange: Exchange) -> None:
        method = exchange.request.rpc_method
        asked.append(method)
        if method == "tools/list":
            exchange.send_result({"tools": [{"name": "linker", "inputSchema": {"type": "object"}}]})
        elif method == "tools/call":
            exchange.send_result({"content": [
                {"type": "text", "text": "see the note"},
                {"type": "resource_link", "uri": "file:///notes/<1>.txt", "name": "note", "mimeType": "text/plain"},
                {"type": "resource_link", "uri": "file:///notes/<1>.txt", "name": "again"}]})
        elif method == "resources/read":
            exchange.send_result({"contents": [{"uri": "file:///notes/<1>.txt", "mimeType": "text/plain",
                                                "text": "<b>the note</b>"}]})
        else:
            exchange.send_rpc_error(-32601, "no such method")

    with FaultServer(work=work) as server:
        window = make_window((server.url, "linking"), era="handshake")
        room = window.workbench
        assert room.tools.select_tool("linker")
        task = room.run_current_tool()
        assert finished(qtbot, task).status == "ok"
        room.detail.show_task(task)
        links = room.detail.links
        assert links.isVisibleTo(window) and links.uris() == ["file:///notes/<1>.txt"]  # each link once
        assert "resources/read" not in asked  # nothing is read before the user asks
        with qtbot.waitSignal(room.engine.submitted, timeout=5000) as submitted:
            links.read_button.click()
        reading = submitted.args[0]
        assert finished(qtbot, reading).status == "ok" and reading.title == "resources/read file:///notes/<1>.txt"
        room.detail.show_task(reading)
        assert "<b>the note</b>" in room.result.text.toPlainText()
        assert not links.isVisibleTo(window)  # a read answer has no links to follow


def test_a_templates_variable_is_suggested_by_the_server_and_fills_the_uri(qtbot, make_window, demo_server) -> None:
    from inspector.gui.language import switch_language

    window = make_window((demo_server.url, "Demo server"))
    room = window.workbench
    choose_tool = room.tools.select_tool("write_note")
    assert choose_tool
    room.arguments.editor.setPlainText('{"text": "from a note"}')
    assert finished(qtbot, room.run_current_tool()).status == "ok"
    room.browse.setCurrentWidget(room.resources)
    room.resources.list_resources()
    qtbot.waitUntil(lambda: room.resources.items.count() == 4, timeout=10000)
    [template] = [index for index in range(4) if room.resources.items.item(index).text().startswith("template:")]
    room.resources.items.setCurrentRow(template)
    fields = room.resources.variables.fields
    assert list(fields) == ["index"] and room.resources.uri.text() == "demo://notes/{index}"
    # Read before the variable is filled in sends nothing (no server can read "demo://notes/{index}")
    # and says why, under the address and at the field.
    sent = len(room.operations.tasks)
    assert room.resources.read() is None and len(room.operations.tasks) == sent
    problem, error = room.resources.problem, room.resources.variables.errors["index"]
    assert problem.isVisibleTo(window) and problem.text() == (
        "Nothing was sent: the URI still has the template's {index} in it; fill them in.")
    assert error.isVisibleTo(window) and error.text() == "This field is required."
    switch_language("de")
    try:
        assert problem.text().startswith("Es wurde nichts gesendet: ") and "{index}" in problem.text()
    finally:
        switch_language("en")
    suggestion = room.resources.variables.suggest("index")
    assert finished(qtbot, suggestion).status == "ok"
    values = [fields["index"].itemText(i) for i in range(fields["index"].count())]
    assert values and values[-1].isdigit()
    fields["index"].setEditText(values[-1])
    assert room.resources.uri.text() == f"demo://notes/{values[-1]}"
    assert not problem.isVisibleTo(window) and not error.isVisibleTo(window)
    reading = room.resources.read()
    assert finished(qtbot, reading).status == "ok"
    room.detail.show_task(reading)
    assert "from a note" in room.result.text.toPlainText()


def test_uri_templates_are_filled_as_rfc_6570_says() -> None:
    from inspector.gui.workbench.suggesting_fields import expand_template, required_variables, template_variables

    assert template_variables("demo://notes/{index}") == ["index"]
    assert template_variables("file:///{+path}{?q,lang}") == ["path", "q", "lang"]
    assert expand_template("demo://notes/{index}", {"index": "a b/c"}) == "demo://notes/a%20b%2Fc"
    assert expand_template("file:///{+path}", {"path": "dir/a b"}) == "file:///dir/a%20b"
    assert expand_template("x://{a}/{b}", {"a": "1"}) == "x://1/{b}"  # a variable not given stays
    # Level 3: a query's variables may be left out; the other forms need theirs (else they stay, to be seen).
    assert expand_template("x://s{?q,lang}", {"q": "a b"}) == "x://s?q=a%20b"
    assert expand_template("x://s{?q,lang}", {}) == "x://s"
    assert expand_template("x://s?a=1{&page,size}", {"page": "2", "size": "10"}) == "x://s?a=1&page=2&size=10"
    assert expand_template("x://s{/dir,file}{.ext}", {"dir": "a b", "file": "c", "ext": "md"}) == "x://s/a%20b/c.md"
    assert expand_template("x://s{/dir}", {}) == "x://s{/dir}"
    assert expand_template("x://s{;v}{#part}", {"v": "1", "part": "a/b"}) == "x://s;v=1#a/b"
    assert required_variables("file:///{+path}{?q,lang}{&page}") == ["path"]


def test_the_resources_and_prompts_lists_say_what_to_do_and_when_the_server_has_none(qtbot, make_window) -> None:
    """The Resources and Prompts tabs showed a blank list until List was pressed, and a blank list
    again when the server had none: a new user could not tell "not asked yet" from "nothing"."""
    from inspector.gui.language import switch_language
    from tests.support.fault_server import Exchange, FaultServer

    def work(exchange: Exchange) -> None:
        answers = {"tools/list": {"tools": [{"name": "echo", "inputSchema": {"type": "object"}}]},
                   "resources/list": {"resources": []}, "resources/templates/list": {"resourceTemplates": []},
                   "prompts/list": {"prompts": []}}
        exchange.send_result(answers.get(exchange.request.rpc_method or "", {}))

    with FaultServer(work=work) as server:
        window = make_window((server.url, "bare"), era="handshake")
        room = window.workbench
        room.browse.setCurrentWidget(room.resources)
        resources, prompts = room.resources.empty.label, room.prompts.empty.label
        assert resources.isVisibleTo(window) and resources.text() == (
            "Press List to ask the server for its resources and templates.")
        assert prompts.text() == "Press List to ask the server for its prompts."
        switch_language("de")
        try:
            assert resources.text() == ("Drücken Sie „Auflisten“, um den Server nach seinen Ressourcen und "
                                        "Vorlagen zu fragen.")
            room.resources.list_resources()
            none = "Der Server hat keine Ressourcen und keine Vorlagen aufgelistet."
            qtbot.waitUntil(lambda: resources.text() == none, timeout=10000)
        finally:
            switch_language("en")
        room.prompts.list_prompts()
        qtbot.waitUntil(lambda: prompts.text() == "The server listed no prompts.", timeout=10000)
        assert resources.text() == "The server listed no resources and no templates."


def _lists_nothing(exchange) -> None:
    """A second server that offers nothing: an empty catalogue, empty answers."""
    exchange.send_result({"tools": []} if exchange.request.rpc_method == "tools/list" else {})


def _two_servers(make_window, demo_url: str, other_url: str):
    """A window with the demo server and another one, the demo server selected."""
    window = make_window((demo_url, "Demo server"), (other_url, "other"), era="handshake", wait_tools=False)
    window.admin.reload_servers(select_url=demo_url)
    return window


def test_another_server_chosen_lets_go_of_the_last_ones_resources_and_prompts(qtbot, make_window,
                                                                             demo_server) -> None:
    """The Resources and Prompts lists kept the previous server's entries when another server was
    selected, as if the new one offered them (its Read and Get then asked the wrong server)."""
    from tests.support.fault_server import FaultServer

    with FaultServer(work=_lists_nothing) as other:
        window = _two_servers(make_window, demo_server.url, other.url)
        room = window.workbench
        room.resources.list_resources()
        room.prompts.list_prompts()
        qtbot.waitUntil(lambda: room.resources.items.count() == 4 and room.prompts.items.count() == 2,
                        timeout=10000)
        window.admin.reload_servers(select_url=other.url)
        assert window.servers.current().url == other.url
        assert room.resources.items.count() == 0 and room.prompts.items.count() == 0
        assert room.resources.empty.label.text().startswith("Press List to ask the server")
        assert room.prompts.empty.label.text() == "Press List to ask the server for its prompts."


def test_another_server_chosen_lets_go_of_a_listing_in_flight_a_filled_address_and_the_skills(
        qtbot, make_window, demo_server) -> None:
    """A listing answered after another server was chosen is not shown as the new one's; the URI a
    chosen resource filled in goes, and so do the Skills tab's list and loaded skill."""
    from tests.gui.test_main_window import finished
    from tests.support.fault_server import FaultServer

    with FaultServer(work=_lists_nothing) as other:
        window = _two_servers(make_window, demo_server.url, other.url)
        room = window.workbench
        room.resources.list_resources()
        qtbot.waitUntil(lambda: room.resources.items.count() == 4, timeout=10000)
        room.resources.items.setCurrentRow(0)
        assert room.resources.uri.text()
        skills = room.skills.list_skills()
        assert finished(qtbot, skills).status == "ok"
        qtbot.waitUntil(lambda: room.skills.items.count() == 2, timeout=10000)
        room.skills.items.setCurrentRow(0)
        # Asked of the demo server, answered after the other one is chosen (the answers come
        # through the event loop, which has not turned yet).
        room.resources.list_resources()
        room.prompts.list_prompts()
        late = room.skills.list_skills()
        window.admin.reload_servers(select_url=other.url)
        assert finished(qtbot, late).status == "ok"
        qtbot.wait(300)
        assert room.resources.items.count() == room.prompts.items.count() == room.skills.items.count() == 0
        assert room.resources.uri.text() == "" and not room.skills.load_button.isEnabled()
        assert room.prompts.empty.label.text() == "Press List to ask the server for its prompts."
