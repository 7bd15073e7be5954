"""The arguments form for every schema type, defaults, required fields, bad input, the JSON editor."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt

from inspector.gui.language import switch_language
from inspector.gui.widgets.schema_form import ArrayField, BoolField, EnumField, ObjectField, SchemaForm, TextField
from inspector.gui.workbench.arguments_panel import JSON_TAB, ArgumentsPanel

SCHEMA = {
    "type": "object",
    "properties": {
        "text": {"type": "string", "description": "What to say"},
        "times": {"type": "integer", "default": 1},
        "ratio": {"type": "number"},
        "loud": {"type": "boolean", "default": False},
        "mode": {"type": "string", "enum": ["plain", "fancy"]},
        "tags": {"type": "array", "items": {"type": "string"}},
        "options": {"type": "object", "properties": {"depth": {"type": "integer"}},
                    "required": ["depth"]},
        "maybe": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None},
    },
    "required": ["text"],
}


@pytest.fixture
def panel(qtbot) -> ArgumentsPanel:
    panel = ArgumentsPanel()
    qtbot.addWidget(panel)
    panel.set_schema(SCHEMA)
    return panel


def test_every_schema_type_gets_its_field(panel) -> None:
    form = panel.form
    kinds = {name: type(field) for name, field in form.root.fields.items()}
    assert kinds == {"text": TextField, "times": TextField, "ratio": TextField, "loud": BoolField,
                     "mode": EnumField, "tags": ArrayField, "options": ObjectField, "maybe": TextField}
    assert form.root.fields["times"].kind == "integer"
    assert form.root.fields["ratio"].kind == "number"


def test_defaults_prefill_and_required_marks_and_hints_show(panel) -> None:
    assert panel.form.value() == {"times": 1, "loud": False}
    texts = [label.text() for label in panel.form.findChildren(type(panel.summary))]
    assert "text *" in texts
    assert "What to say" in texts
    assert any("default 1" in t for t in texts)


def test_filled_form_gives_the_arguments_and_the_json_follows(panel, qtbot) -> None:
    fields = panel.form.root.fields
    qtbot.keyClicks(fields["text"].edit, "hi <img src=x>")
    qtbot.keyClicks(fields["ratio"].edit, "2.5")
    fields["mode"].combo.setCurrentIndex(2)
    fields["tags"].add_item("a")
    fields["tags"].add_item("b")
    qtbot.keyClicks(fields["options"].fields["depth"].edit, "3")
    fields["loud"].box.setChecked(True)
    expected = {"text": "hi <img src=x>", "times": 1, "ratio": 2.5, "loud": True, "mode": "fancy",
                "tags": ["a", "b"], "options": {"depth": 3}}
    assert panel.arguments() == expected
    assert json.loads(panel.editor.toPlainText()) == expected


def test_json_edits_fill_the_form(panel) -> None:
    panel.editor.setPlainText('{"text": "from json", "tags": ["x"], "options": {"depth": 2}, "mode": "plain"}')
    fields = panel.form.root.fields
    assert fields["text"].edit.text() == "from json"
    assert [item.value() for item in fields["tags"].items] == ["x"]
    assert fields["options"].fields["depth"].edit.text() == "2"
    assert fields["mode"].value() == "plain"


def test_a_required_field_left_empty_is_refused_at_the_field(panel) -> None:
    assert panel.arguments() is None
    error = panel.form.root.fields["text"].error
    assert not error.isHidden() and error.text() == "This field is required."
    assert "Nothing was sent" in panel.summary.text()


def test_required_fields_left_empty_are_each_named_once(qtbot) -> None:
    """The demo's add with a and b empty: "a: This field is required." and b's line were each said twice
    under "Nothing was sent" (one schema error per missing field, each naming every missing field)."""
    panel = ArgumentsPanel()
    qtbot.addWidget(panel)
    panel.set_schema({"type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "number"},
                                                       "c": {"type": "number"}}, "required": ["a", "b", "c"]})
    panel.form.root.fields["b"].edit.setText("2")
    assert panel.arguments() is None
    assert panel.summary.text().splitlines() == ["Nothing was sent: the arguments do not match the tool's schema.",
                                                 "a: This field is required.", "c: This field is required."]


def test_a_nested_required_field_and_a_bad_integer_point_at_their_fields(panel, qtbot) -> None:
    fields = panel.form.root.fields
    qtbot.keyClicks(fields["text"].edit, "x")
    qtbot.keyClicks(fields["times"].edit, "x")  # "1x" is not a whole number
    assert panel.arguments() is None
    assert fields["times"].error.text() == "Enter a whole number, e.g. 3."
    fields["times"].edit.setText("2")
    panel.editor.setPlainText('{"text": "x", "options": {}}')
    panel.tabs.setCurrentIndex(0)
    assert panel.arguments() is None
    assert fields["options"].fields["depth"].error.text() == "This field is required."


def test_bad_json_is_refused_under_the_editor(panel) -> None:
    panel.tabs.setCurrentIndex(JSON_TAB)
    panel.editor.setPlainText('{"text": ')
    assert panel.arguments() is None
    assert panel.json_error.text().startswith("The JSON does not parse")
    # Python's own reason ("Expecting value") is said in words of ours, in German too.
    assert panel.json_error.text() == ("The JSON does not parse: a JSON value expected here (nothing is "
                                       "there, or something that is not JSON) (line 1, column 10).")
    switch_language("de")
    try:
        panel.editor.setPlainText('{"text": "x",}')
        assert panel.arguments() is None
        assert panel.json_error.text() == ("Das JSON ist ungültig: hier wird der Schlüssel eines Objekts in "
                                           "doppelten Anführungszeichen erwartet (ein Komma zu viel?) (Zeile 1, "
                                           "Spalte 14).")
    finally:
        switch_language("en")
    panel.editor.setPlainText('{"text": 5}')
    assert panel.arguments() is None
    assert "Enter a value of type string." in panel.json_error.text()
    panel.editor.setPlainText('[1]')
    assert panel.arguments() is None
    assert "must be a JSON object" in panel.json_error.text()


def test_labels_show_schema_text_as_plain_text(qtbot) -> None:
    form = SchemaForm({"type": "object", "properties": {"x": {"type": "string", "description": "<img src=x>"}}})
    qtbot.addWidget(form)
    hints = [label for label in form.findChildren(type(form.root.error)) if label.text() == "<img src=x>"]
    assert hints and hints[0].textFormat() == Qt.TextFormat.PlainText


def test_a_tool_without_arguments_says_so(qtbot) -> None:
    form = SchemaForm({"type": "object"})
    qtbot.addWidget(form)
    assert form.value() == {}
    assert any(label.text() == "This tool takes no arguments." for label in form.findChildren(type(form.root.error)))


def test_run_pressed_again_with_the_same_arguments_checks_them_once(panel, monkeypatch) -> None:
    from inspector.gui.workbench import arguments_panel

    checked = []
    real = arguments_panel.validate_arguments
    monkeypatch.setattr(arguments_panel, "validate_arguments",
                        lambda *args: checked.append(args[1]) or real(*args))
    panel.tabs.setCurrentIndex(JSON_TAB)
    panel.editor.setPlainText('{"text": "hi", "options": {"depth": 2}}')
    for _ in range(3):
        assert panel.arguments() == {"text": "hi", "options": {"depth": 2}}
    assert len(checked) == 1  # twenty Run presses in a row: one schema check
    panel.editor.setPlainText('{"text": "hi", "options": {"depth": 3}}')  # a nested value changed
    assert panel.arguments() == {"text": "hi", "options": {"depth": 3}}
    assert len(checked) == 2
    panel.editor.setPlainText('{"text": 5}')  # a bad value is refused, every time, with its reason
    for _ in range(2):
        assert panel.arguments() is None
        assert "Enter a value of type string." in panel.json_error.text()
    assert len(checked) == 4
    panel.set_schema({"type": "object", "properties": {"text": {"type": "integer"}}})
    panel.tabs.setCurrentIndex(JSON_TAB)
    panel.editor.setPlainText('{"text": "hi", "options": {"depth": 3}}')  # passed before, not under this schema
    assert panel.arguments() is None
    assert len(checked) == 5


@pytest.mark.parametrize(("language", "summary"), [("en", "From 1 to 10. (integer, default 1)"),
                                                   ("de", "Von 1 bis 10. (integer, Standard 1)")])
def test_the_server_s_description_and_the_window_s_summary_are_set_apart(qtbot, language, summary) -> None:
    """A hint read "How many times to return it, one per line. Von 1 bis 10. (integer, Standard 1)":
    whose words were whose? The server's description is a label of its own, as sent; the window's
    summary another, in italics."""
    switch_language(language)
    try:
        form = SchemaForm({"type": "object", "properties": {"repeat": {
            "type": "integer", "minimum": 1, "maximum": 10, "default": 1,
            "description": "  How many times to return it, one per line."}}})
        qtbot.addWidget(form)
    finally:
        switch_language("en")
    labels = {label.text(): label for label in form.findChildren(type(form.root.error)) if label.text()}
    described = labels["How many times to return it, one per line."]
    said = labels[summary]
    assert not described.font().italic() and said.font().italic()
    assert said.textFormat() == Qt.TextFormat.PlainText
