"""The terminal's answers to a server's question, and the schema's defaults."""

from __future__ import annotations

import asyncio
import io

from inspector.cli.elicit import TerminalElicitor
from inspector.mcp import ElicitationRequest, defaults_content, form_fields

SCHEMA = {"type": "object", "properties": {
    "name": {"type": "string", "default": "Ada"},
    "age": {"type": "integer"},
    "status": {"type": "string", "enum": ["active", "inactive"]},
    "verified": {"type": "boolean"},
}, "required": ["age"]}


def ask(lines: list[str], schema=SCHEMA) -> tuple[dict, str]:
    feed = iter(lines)
    out = io.StringIO()
    elicitor = TerminalElicitor(lambda: next(feed, ""), out)
    answer = asyncio.run(elicitor(ElicitationRequest("Who are you?", schema, 12.0)))
    return answer, out.getvalue()


def test_the_terminal_fills_the_form_field_by_field() -> None:
    answer, said = ask(["a\n", "\n", "forty\n", "41\n", "unknown\n", "inactive\n", "y\n"])
    assert answer == {"action": "accept", "content": {"name": "Ada", "age": 41, "status": "inactive",
                                                      "verified": True}}
    assert "The server asks: Who are you?" in said
    assert "You have 12 seconds of the operation's budget left to answer." in said
    assert "Please type a whole number." in said and "Please type one of: active, inactive." in said


def test_decline_cancel_and_the_end_of_input() -> None:
    assert ask(["d\n"])[0] == {"action": "decline"}
    assert ask(["c\n"])[0] == {"action": "cancel"}
    assert ask(["a\n", "\n"])[0] == {"action": "cancel"}  # input ends in the middle of the form


def test_a_schema_the_terminal_cannot_show_is_declined() -> None:
    nested = {"type": "object", "properties": {"address": {"type": "object"}}}
    answer, said = ask([], nested)
    assert answer == {"action": "decline"} and "cannot be shown" in said
    assert form_fields(nested) is None


def test_defaults_need_every_required_field() -> None:
    assert defaults_content(SCHEMA) is None
    assert defaults_content({**SCHEMA, "required": []}) == {"name": "Ada"}


CHOICES = {"type": "object", "properties": {
    "hero": {"type": "string", "oneOf": [{"const": "hero-1", "title": "Superman"},
                                         {"const": "hero-2", "title": "Wonder Woman"}], "default": "hero-1"},
    "pet": {"type": "string", "enum": ["pet-1", "pet-2"], "enumNames": ["Cats", "Dogs"]},
    "fish": {"type": "array", "minItems": 1, "maxItems": 2,
             "items": {"anyOf": [{"const": "f1", "title": "Tuna"}, {"const": "f2", "title": "Salmon"},
                                 {"const": "f3", "title": "Trout"}]}, "default": ["f1"]},
    "count": {"type": "integer", "minimum": 1, "maximum": 10},
    "day": {"type": "string", "format": "date"},
}, "required": ["fish"]}


def test_the_terminal_shows_titles_answers_values_and_checks_the_rules() -> None:
    answer, said = ask(["a\n", "wonder woman\n", "Parrots\n", "dogs\n", "Tuna, Salmon, Trout\n", "Salmon,f3\n",
                        "11\n", "3\n", "1.12.2026\n", "2026-12-01\n"], CHOICES)
    assert answer == {"action": "accept", "content": {"hero": "hero-2", "pet": "pet-2", "fish": ["f2", "f3"],
                                                      "count": 3, "day": "2026-12-01"}}
    assert "Superman / Wonder Woman" in said and "[Superman]" in said and "[Tuna]" in said
    assert "Please type one of: Cats, Dogs." in said
    assert "Choose 1 to 2 options." in said
    assert "Enter a number from 1 to 10." in said
    assert "Enter a date as year-month-day, e.g. 2026-12-01." in said


def test_defaults_of_every_shape() -> None:
    assert defaults_content({**CHOICES, "required": []}) == {"hero": "hero-1", "fish": ["f1"]}
