"""Form-mode elicitation: reading the requested schema, checking an answer, the simple answers.

The requested schema is a flat object whose properties are the protocol's primitive schemas:
a string (optional ``format`` email/uri/date/date-time, min/max length), a number or integer
(min/max), a boolean, a single-select enum (``enum``, titled by ``oneOf`` ``const``/``title``
or the legacy ``enumNames``) and a multi-select enum (an array whose ``items`` carry ``enum``
or ``anyOf`` ``const``/``title``, with min/max items); each may carry a ``default``. A form
(the window's, or the terminal's) is built from :func:`form_fields`; a schema it cannot read
gives ``None``, and the window then falls back to a JSON editor.
"""

from __future__ import annotations

import datetime
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .messages import N_, NP_, Message
from .server_requests import ElicitationRequest

PRIMITIVE_TYPES = ("string", "number", "integer", "boolean")
#: The string formats the protocol allows; each is checked before an answer is sent.
STRING_FORMATS = ("email", "uri", "date", "date-time")


@dataclass(frozen=True)
class Choice:
    """One option of an enum: the value sent, and the words shown for it."""

    value: Any
    title: str


@dataclass(frozen=True)
class FormField:
    """One property of a requested schema."""

    name: str
    kind: str  # string, number, integer, boolean; array for a multi-select
    title: str
    description: str
    required: bool
    #: The allowed values of an enum (strings), else ``None``; for a multi-select, of its items.
    choices: tuple[str, ...] | None = None
    has_default: bool = False
    default: Any = None
    #: What each choice is shown as (the ``oneOf``/``anyOf`` titles, ``enumNames``, else the value).
    choice_titles: tuple[str, ...] | None = None
    format: str | None = None
    minimum: float | None = None
    maximum: float | None = None
    min_length: int | None = None
    max_length: int | None = None
    min_items: int | None = None
    max_items: int | None = None

    @property
    def multiple(self) -> bool:
        """A multi-select: the answer is the list of the chosen values."""
        return self.kind == "array"

    def title_of(self, value: Any) -> str:
        """The words shown for a choice's value (the value itself when it has none)."""
        if self.choices is not None and self.choice_titles is not None and value in self.choices:
            return self.choice_titles[self.choices.index(value)]
        return str(value)


def schema_choices(schema: Any) -> list[Choice] | None:
    """The options of an enum schema, titled where the schema titles them; ``None`` for no enum.

    Reads ``enum`` (with the legacy ``enumNames`` when it names every value) and a ``oneOf`` or
    ``anyOf`` whose every option is a ``const`` (with an optional ``title``)."""
    if not isinstance(schema, Mapping):
        return None
    values = schema.get("enum")
    if isinstance(values, list) and values:
        names = schema.get("enumNames")
        titled = isinstance(names, list) and len(names) == len(values) and all(isinstance(n, str) for n in names)
        return [Choice(value, names[index] if titled else _shown(value)) for index, value in enumerate(values)]
    for key in ("oneOf", "anyOf"):
        options = schema.get(key)
        if isinstance(options, list) and options and all(isinstance(o, Mapping) and "const" in o for o in options):
            return [Choice(o["const"], o["title"] if isinstance(o.get("title"), str) and o["title"].strip()
                           else _shown(o["const"])) for o in options]
    return None


def _shown(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _number(value: Any) -> float | None:
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def count_limit(value: Any) -> int | None:
    """A schema's count (minItems, maxLength, ...) when it is one: a whole number, not negative."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def form_fields(schema: Any) -> list[FormField] | None:
    """The fields of a flat requested schema, in order; ``None`` when it is not one."""
    if not isinstance(schema, dict) or schema.get("type", "object") != "object":
        return None
    properties = schema.get("properties", {})
    required = schema.get("required", [])
    if not isinstance(properties, dict) or not isinstance(required, list):
        return None
    fields = []
    for name, prop in properties.items():
        field = _form_field(str(name), prop, name in required)
        if field is None:
            return None
        fields.append(field)
    return fields


def _form_field(name: str, prop: Any, required: bool) -> FormField | None:
    """One property as a field, or ``None`` for a shape the protocol does not define."""
    if not isinstance(prop, dict):
        return None
    kind = prop.get("type")
    if kind == "array":
        choices = schema_choices(prop.get("items"))
    elif kind in PRIMITIVE_TYPES:
        choices = schema_choices(prop) if kind == "string" else None
    else:
        return None
    if choices is not None and not all(isinstance(c.value, str) for c in choices):
        return None
    if kind == "array" and choices is None:
        return None  # only arrays of enum values are defined
    fmt = prop.get("format") if kind == "string" and choices is None else None
    return FormField(
        name=name, kind=kind, title=str(prop.get("title") or name), description=str(prop.get("description") or ""),
        required=required, choices=tuple(c.value for c in choices) if choices is not None else None,
        has_default="default" in prop, default=prop.get("default"),
        choice_titles=tuple(c.title for c in choices) if choices is not None else None,
        format=fmt if fmt in STRING_FORMATS else None,
        minimum=_number(prop.get("minimum")), maximum=_number(prop.get("maximum")),
        min_length=count_limit(prop.get("minLength")), max_length=count_limit(prop.get("maxLength")),
        min_items=count_limit(prop.get("minItems")), max_items=count_limit(prop.get("maxItems")))


#: An example of each format, shown in the field and in the message when the text is not one.
FORMAT_EXAMPLES = {"email": "ada@example.com", "uri": "https://example.com/", "date": "2026-12-01",
                   "date-time": "2026-12-01T09:30:00Z"}

_EMAIL = re.compile(r"[^@\s]+@[^@\s]+")
_URI = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:\S+")
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_DATE_TIME = re.compile(r"(\d{4}-\d{2}-\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})")


def format_problem(fmt: str | None, text: str) -> Message | None:
    """What is wrong with ``text`` as a string of the format (``None``: nothing, or no such format)."""
    example = FORMAT_EXAMPLES.get(fmt or "")
    if fmt == "email" and not _EMAIL.fullmatch(text):
        return Message(N_("Enter an email address, e.g. {example}."), {"example": example})
    if fmt == "uri" and not _URI.fullmatch(text):
        return Message(N_("Enter an address that starts with its scheme, e.g. {example}."), {"example": example})
    if fmt == "date" and not (_DATE.fullmatch(text) and _is_date(text)):
        return Message(N_("Enter a date as year-month-day, e.g. {example}."), {"example": example})
    if fmt == "date-time":
        match = _DATE_TIME.fullmatch(text)
        if not (match and _is_date(match.group(1)) and int(match.group(2)) < 24 and int(match.group(3)) < 60
                and int(match.group(4)) < 61):
            return Message(N_("Enter a date and time with its time zone, e.g. {example}."), {"example": example})
    return None


def _is_date(text: str) -> bool:
    try:
        datetime.date.fromisoformat(text)
    except ValueError:
        return False
    return True


def _limit(number: float) -> str:
    return str(int(number)) if float(number).is_integer() else str(number)


def value_problem(field: FormField, value: Any) -> Message | None:
    """What is wrong with ``value`` as the answer to ``field`` (``None``: it may be sent)."""
    if field.multiple:
        return _items_problem(field, value)
    if field.choices is not None:
        if value not in field.choices:
            shown = ", ".join(field.choice_titles or field.choices)
            return Message(N_("Choose one of: {choices}."), {"choices": shown})
        return None
    if field.kind == "boolean":
        return None if isinstance(value, bool) else Message(N_("Choose yes or no."))
    if field.kind in ("integer", "number"):
        return _number_problem(field, value)
    if not isinstance(value, str):
        return Message(N_("Enter text."))
    if field.min_length is not None and len(value) < field.min_length:
        return NP_("Enter at least {count} character.", "Enter at least {count} characters.",
                   {"count": field.min_length}, "count")
    if field.max_length is not None and len(value) > field.max_length:
        return NP_("Enter at most {count} character.", "Enter at most {count} characters.",
                   {"count": field.max_length}, "count")
    return format_problem(field.format, value)


def _number_problem(field: FormField, value: Any) -> Message | None:
    if field.kind == "integer" and (isinstance(value, bool) or not isinstance(value, int)):
        return Message(N_("Enter a whole number, e.g. 3."))
    if _number(value) is None:
        return Message(N_("Enter a number, e.g. 2.5."))
    low, high = field.minimum, field.maximum
    if (low is not None and value < low) or (high is not None and value > high):
        if low is not None and high is not None:
            return Message(N_("Enter a number from {minimum} to {maximum}."),
                           {"minimum": _limit(low), "maximum": _limit(high)})
        if low is not None:
            return Message(N_("Enter a number of at least {limit}."), {"limit": _limit(low)})
        return Message(N_("Enter a number of at most {limit}."), {"limit": _limit(high)})
    return None


def _items_problem(field: FormField, value: Any) -> Message | None:
    if not isinstance(value, list) or any(item not in (field.choices or ()) for item in value):
        return Message(N_("Choose from: {choices}."), {"choices": ", ".join(field.choice_titles or ())})
    if len(set(value)) != len(value):
        return Message(N_("Choose each option at most once."))
    low, high = field.min_items, field.max_items
    if (low is not None and len(value) < low) or (high is not None and len(value) > high):
        return items_rule(low, high)
    return None


def items_rule(low: int | None, high: int | None) -> Message:
    """How many options a multi-select takes, as a sentence ("Choose 1 to 3 options.")."""
    if low is not None and high is not None:
        if low == high:
            return NP_("Choose exactly {count} option.", "Choose exactly {count} options.", {"count": low}, "count")
        return Message(N_("Choose {minimum} to {maximum} options."), {"minimum": low, "maximum": high})
    if low is not None:
        return NP_("Choose at least {count} option.", "Choose at least {count} options.", {"count": low}, "count")
    if high is not None:
        return NP_("Choose at most {count} option.", "Choose at most {count} options.", {"count": high}, "count")
    return Message(N_("Choose any of the options."))


def answer_problems(fields: list[FormField], content: Mapping[str, Any]) -> list[tuple[str, Message]]:
    """Every field of ``content`` that cannot be sent, with what to do: (field name, sentence)."""
    problems = []
    for field in fields:
        if field.name not in content:
            if field.required:
                problems.append((field.name, Message(N_("This field is required."))))
            continue
        problem = value_problem(field, content[field.name])
        if problem is not None:
            problems.append((field.name, problem))
    return problems


def defaults_content(schema: Any) -> dict[str, Any] | None:
    """The answer made of the schema's defaults; ``None`` when a required field has none
    (or the schema is not a flat form)."""
    fields = form_fields(schema)
    if fields is None:
        return None
    content: dict[str, Any] = {}
    for item in fields:
        if item.has_default:
            content[item.name] = item.default
        elif item.required:
            return None
    return content


async def decline_all(request: ElicitationRequest) -> dict[str, Any]:
    """Answer every question with ``decline``."""
    return {"action": "decline"}


async def cancel_all(request: ElicitationRequest) -> dict[str, Any]:
    """Answer every question with ``cancel``."""
    return {"action": "cancel"}


async def accept_defaults(request: ElicitationRequest) -> dict[str, Any]:
    """Accept with the schema's defaults; decline when a required field has no default."""
    content = defaults_content(request.schema)
    if content is None:
        return {"action": "decline"}
    return {"action": "accept", "content": content}
