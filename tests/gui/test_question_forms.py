"""A server's question is a form for every shape the protocol defines: server-everything's question
(strings with formats, numbers with ranges, a boolean, single- and multi-select enums, titled, untitled
and legacy-titled, defaults everywhere) asked by the official SDK server; the answer the server gets
has the values' types; the dialog is as wide as its form."""

from __future__ import annotations

import asyncio
import json

import pytest

from inspector.gui.dialogs.elicitation_dialog import MIN_WIDTH, ElicitationDialog
from inspector.gui.widgets.schema_form import BoolField, EnumField, MultiChoiceField, TextField
from inspector.gui.workbench.server_requests import PendingQuestion
from tests.support.sdk_server import EVERYTHING_SCHEMA


def ask_everything(qtbot, engine, answers, sdk_server):
    """Call ``ask_everything`` and return its task and the dialog the question opened."""
    opened: list[ElicitationDialog] = []

    def show(pending: PendingQuestion) -> None:
        dialog = ElicitationDialog(pending, server="sdk server")
        dialog.show()
        opened.append(dialog)

    answers.question.connect(show)
    task = engine.call_tool(sdk_server.endpoint, "ask_everything", {}, budget_s=30)
    qtbot.waitUntil(lambda: bool(opened), timeout=5000)
    qtbot.addWidget(opened[0])
    return task, opened[0]


def told(qtbot, task) -> dict:
    """What the server was told, as it reports it."""
    if task.running:
        with qtbot.waitSignal(task.finished, timeout=10000):
            pass
    return json.loads(task.outcome.record.result.content)


def test_every_shape_server_everything_asks_is_a_field_of_the_form(qtbot, engine, answers, sdk_server) -> None:
    _task, dialog = ask_everything(qtbot, engine, answers, sdk_server)
    assert dialog.json_editor is None and dialog.form is not None
    fields = dialog.form.root.fields
    kinds = {name: type(field) for name, field in fields.items()}
    assert kinds == {
        "name": TextField, "check": BoolField, "firstLine": TextField, "email": TextField, "homepage": TextField,
        "birthdate": TextField, "integer": TextField, "number": TextField,
        "untitledSingleSelectEnum": EnumField, "untitledMultipleSelectEnum": MultiChoiceField,
        "titledSingleSelectEnum": EnumField, "titledMultipleSelectEnum": MultiChoiceField,
        "legacyTitledEnum": EnumField}
    # The user reads titles, never the values sent.
    titled = fields["titledSingleSelectEnum"].combo
    assert [titled.itemText(i) for i in range(titled.count())] == [
        "(not set)", "Superman", "Green Lantern", "Wonder Woman"]
    assert titled.currentText() == "Superman"  # the default, preselected
    legacy = fields["legacyTitledEnum"].combo
    assert [legacy.itemText(i) for i in range(1, legacy.count())] == ["Cats", "Dogs", "Birds", "Fish", "Reptiles"]
    fish = fields["titledMultipleSelectEnum"].boxes
    assert [box.text() for box in fish] == ["Tuna", "Salmon", "Trout"]
    assert [box.isChecked() for box in fish] == [True, False, False]
    assert [box.isChecked() for box in fields["untitledMultipleSelectEnum"].boxes] == [True, False, False, False,
                                                                                        False]
    # Labels are the properties' titles; the required one is marked.
    labels = [label.text() for label in dialog.form.findChildren(type(dialog.message))]
    assert "String *" in labels and "Titled Multiple Select Enum" in labels and "name *" not in labels
    assert "Choose 1 to 3 options." in "\n".join(labels)
    assert fields["email"].edit.placeholderText() == "e.g. ada@example.com"
    assert fields["titledSingleSelectEnum"].combo.accessibleName() == "Titled Single Select Enum"
    dialog.cancel_button.click()


def test_the_answer_has_the_values_and_their_types(qtbot, engine, answers, sdk_server) -> None:
    task, dialog = ask_everything(qtbot, engine, answers, sdk_server)
    fields = dialog.form.root.fields
    qtbot.keyClicks(fields["name"].edit, "Ada Lovelace")
    fields["check"].box.setChecked(True)
    qtbot.keyClicks(fields["email"].edit, "ada@example.com")
    qtbot.keyClicks(fields["homepage"].edit, "https://example.com/ada")
    qtbot.keyClicks(fields["birthdate"].edit, "1815-12-10")
    fields["integer"].edit.setText("")
    qtbot.keyClicks(fields["integer"].edit, "7")
    hero = fields["titledSingleSelectEnum"].combo
    hero.setCurrentIndex(hero.findText("Wonder Woman"))
    pet = fields["legacyTitledEnum"].combo
    pet.setCurrentIndex(pet.findText("Birds"))
    friend = fields["untitledSingleSelectEnum"].combo
    friend.setCurrentIndex(friend.findText("Joey"))
    instruments = fields["untitledMultipleSelectEnum"].boxes
    instruments[1].click()  # Piano, beside the default Guitar
    instruments[3].click()  # Drums
    assert not instruments[4].isEnabled()  # maxItems 3 reached: Bass cannot be ticked
    fish = fields["titledMultipleSelectEnum"].boxes
    fish[0].click()  # Tuna off
    fish[1].click()  # Salmon on
    fish[2].click()  # Trout on
    dialog.accept_button.click()
    assert told(qtbot, task) == {"action": "accept", "content": {
        "name": "Ada Lovelace", "check": True, "firstLine": "It was a dark and stormy night.",
        "email": "ada@example.com", "homepage": "https://example.com/ada", "birthdate": "1815-12-10",
        "integer": 7, "number": 3.14, "untitledSingleSelectEnum": "Joey",
        "untitledMultipleSelectEnum": ["Guitar", "Piano", "Drums"], "titledSingleSelectEnum": "hero-3",
        "titledMultipleSelectEnum": ["fish-2", "fish-3"], "legacyTitledEnum": "pet-3"}}
    answered = dialog.answered["content"]
    assert type(answered["integer"]) is int and type(answered["number"]) is float
    # The question is too long to keep whole with the step, but its words are kept for the summary.
    [exchange] = task.outcome.record.step.to_payload()["serverRequests"][0]["exchanges"]
    assert "clippedJson" in exchange["asked"]
    assert exchange["asked"]["message"] == "Please provide inputs for the following fields:"


def test_the_defaults_alone_are_an_answer_once_the_required_field_is_filled(qtbot, engine, answers,
                                                                            sdk_server) -> None:
    task, dialog = ask_everything(qtbot, engine, answers, sdk_server)
    dialog.accept_button.click()
    assert dialog.answered is None  # the required name is empty
    name = dialog.form.root.fields["name"]
    assert name.error.text() == "This field is required." and name.error.isVisibleTo(dialog)
    assert "1 field needs a change" in dialog.problem.text()
    assert dialog.focusWidget() is name.edit  # the field to fix is where typing goes
    qtbot.keyClicks(name.edit, "Ada")
    assert name.error.isHidden()  # the problem goes as it is fixed
    dialog.accept_button.click()
    assert told(qtbot, task) == {"action": "accept", "content": {
        "name": "Ada", "firstLine": "It was a dark and stormy night.", "integer": 42, "number": 3.14,
        "untitledSingleSelectEnum": "Monica", "untitledMultipleSelectEnum": ["Guitar"],
        "titledSingleSelectEnum": "hero-1", "titledMultipleSelectEnum": ["fish-1"], "legacyTitledEnum": "pet-1"}}


QUESTION = {"type": "object", "properties": {
    "email": {"type": "string", "format": "email", "title": "Email"},
    "homepage": {"type": "string", "format": "uri"},
    "day": {"type": "string", "format": "date"},
    "when": {"type": "string", "format": "date-time"},
    "count": {"type": "integer", "minimum": 1, "maximum": 100},
    "code": {"type": "string", "minLength": 2, "maxLength": 3},
    "fish": {"type": "array", "minItems": 2, "maxItems": 2,
             "items": {"anyOf": [{"const": "f1", "title": "Tuna"}, {"const": "f2", "title": "Salmon"},
                                 {"const": "f3", "title": "Trout"}]}},
}, "required": ["fish"]}


@pytest.fixture
def question(qtbot):
    """The dialog for ``QUESTION``, and the future its answer settles."""
    loop = asyncio.new_event_loop()
    future = loop.create_future()
    dialog = ElicitationDialog(PendingQuestion(loop, future, 30, "Tell us.", QUESTION))
    qtbot.addWidget(dialog)
    yield dialog, future, loop
    loop.close()


def test_formats_ranges_lengths_and_counts_are_checked_with_a_sentence(question, qtbot) -> None:
    dialog, future, loop = question
    fields = dialog.form.root.fields
    for name, text in (("email", "ada at example"), ("homepage", "example.com"), ("day", "2026-02-30"),
                       ("when", "2026-12-01 9:30"), ("count", "101"), ("code", "abcd")):
        fields[name].edit.setText(text)
    fields["fish"].boxes[0].click()
    dialog.accept_button.click()
    assert dialog.answered is None
    said = {name: field.error.text() for name, field in fields.items() if not field.error.isHidden()}
    assert said == {
        "email": "Enter an email address, e.g. ada@example.com.",
        "homepage": "Enter an address that starts with its scheme, e.g. https://example.com/.",
        "day": "Enter a date as year-month-day, e.g. 2026-12-01.",
        "when": "Enter a date and time with its time zone, e.g. 2026-12-01T09:30:00Z.",
        "count": "Enter a number from 1 to 100.",
        "code": "Enter at most 3 characters.",
        "fish": "Choose exactly 2 options."}
    for name, text in (("email", "ada@example.com"), ("homepage", "mailto:ada@example.com"), ("day", "2026-02-28"),
                       ("when", "2026-12-01T09:30:00+01:00"), ("count", "100"), ("code", "ab")):
        fields[name].edit.setText(text)
    fields["fish"].boxes[2].click()
    assert not fields["fish"].boxes[1].isEnabled()  # two chosen: the third cannot be
    dialog.accept_button.click()
    loop.run_until_complete(asyncio.sleep(0))
    assert future.result() == {"action": "accept", "content": {
        "email": "ada@example.com", "homepage": "mailto:ada@example.com", "day": "2026-02-28",
        "when": "2026-12-01T09:30:00+01:00", "count": 100, "code": "ab", "fish": ["f1", "f3"]}}


def test_the_dialog_is_as_wide_as_its_form(qtbot, engine, answers, sdk_server) -> None:
    _task, dialog = ask_everything(qtbot, engine, answers, sdk_server)
    form = dialog.form
    assert dialog.width() >= form.sizeHint().width() + dialog.layout().contentsMargins().left()
    assert dialog.width() >= MIN_WIDTH > 255
    assert dialog.scroll.width() >= form.sizeHint().width()
    # Taller than two thirds of the screen: the form scrolls inside a dialog that fits the screen.
    screen = dialog.screen().availableGeometry()
    if form.sizeHint().height() > screen.height() * 2 / 3:
        assert dialog.height() <= screen.height() and dialog.scroll.verticalScrollBar().maximum() > 0
    # Every label is on one line: the labels' column is not squeezed.
    labels = [label for label in form.findChildren(type(dialog.message)) if label.text() ==
              "Legacy Titled Single Select Enum"]
    assert labels and labels[0].height() < 2 * labels[0].fontMetrics().height()
    dialog.cancel_button.click()


def test_everythings_schema_is_read_as_the_protocol_defines_it() -> None:
    from inspector.mcp.elicitation import defaults_content, form_fields

    fields = {field.name: field for field in form_fields(EVERYTHING_SCHEMA)}
    fish = fields["titledMultipleSelectEnum"]
    assert fish.multiple and fish.choices == ("fish-1", "fish-2", "fish-3") and fish.title_of("fish-2") == "Salmon"
    assert (fish.min_items, fish.max_items) == (1, 3)
    assert fields["legacyTitledEnum"].choice_titles == ("Cats", "Dogs", "Birds", "Fish", "Reptiles")
    assert fields["integer"].minimum == 1 and fields["email"].format == "email"
    assert defaults_content(EVERYTHING_SCHEMA) is None  # name is required and has no default
    assert defaults_content({**EVERYTHING_SCHEMA, "required": []})["titledMultipleSelectEnum"] == ["fish-1"]
