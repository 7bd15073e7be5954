"""Checking a tool's arguments against its input schema (with ``jsonschema``), before anything is sent.

Pure Python: turns each validation error into the path of the field it belongs to and one
sentence a person can act on.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from inspector.i18n import _
from inspector.i18n.messages import translate
from inspector.mcp.json_words import decoder_reason

if TYPE_CHECKING:
    import jsonschema

Path = tuple[str | int, ...]


@dataclass(frozen=True)
class ArgumentProblem:
    """One thing wrong with the arguments: where (a path of keys and indexes) and what."""

    path: Path
    message: str

    def where(self) -> str:
        return ".".join(str(part) for part in self.path) or _("(the arguments)")


def schema_validator(schema: Mapping[str, Any] | None) -> Any:
    """A validator for a tool's input schema (checked once), or ``None`` for an unusable schema."""
    if not isinstance(schema, Mapping) or not schema:
        return None
    try:
        text = json.dumps(schema, allow_nan=False)  # its order kept: problems are told in it
    except (TypeError, ValueError):
        return _checked_validator(schema)
    # Remembered by the schema's text: choosing a tool again builds its form anew, and checking a
    # schema against its draft took 15 ms each time.
    return _validator_of(text)


@functools.lru_cache(maxsize=64)
def _validator_of(schema_text: str) -> Any:
    return _checked_validator(json.loads(schema_text))


def _checked_validator(schema: Mapping[str, Any]) -> Any:
    # JSON Schema loads with the first tool that declares a schema, not with the window.
    from jsonschema.exceptions import SchemaError

    from inspector.mcp.output_schema import offline_validator

    try:  # $ref resolved inside the schema only: a schema never makes the window fetch an address
        return offline_validator(schema, format_checker=True)
    except (SchemaError, RecursionError):  # nested too deep to check (a server's 400 levels): unusable
        return None


def validate_arguments(schema: Mapping[str, Any] | None, arguments: Any,
                       validator: Any = None) -> list[ArgumentProblem]:
    """Every way ``arguments`` breaks ``schema``; an unusable schema checks only that it is an object.

    ``validator`` (from :func:`schema_validator`) saves checking the schema itself every time."""
    if not isinstance(arguments, dict):
        return [ArgumentProblem((), _("The arguments must be a JSON object, e.g. {example}.").format(
            example='{"text": "hi"}'))]
    if validator is None:
        validator = schema_validator(schema)
    if validator is None:
        return []
    from referencing.exceptions import Unresolvable

    problems = []
    try:
        errors = sorted(validator.iter_errors(arguments), key=lambda e: list(map(str, e.absolute_path)))
    except Unresolvable:  # a $ref outside the schema (never fetched): the server checks what we cannot
        return []
    for error in errors:
        # jsonschema reports each missing required field as an error of its own, and each is explained
        # by naming every field missing there: two left empty were said twice each ("a, b, a, b").
        problems.extend(problem for problem in _explain(error) if problem not in problems)
    return problems


def _explain(error: jsonschema.ValidationError) -> list[ArgumentProblem]:
    path: Path = tuple(error.absolute_path)
    kind = error.validator
    if kind == "required" and isinstance(error.instance, dict):
        missing = [name for name in (error.validator_value or []) if name not in error.instance]
        return [ArgumentProblem(path + (name,), _("This field is required.")) for name in missing]
    if kind == "type":
        expected = error.validator_value
        names = " or ".join(expected) if isinstance(expected, list) else str(expected)
        return [ArgumentProblem(path, _("Enter a value of type {type}.").format(type=names))]
    if kind == "enum":
        choices = ", ".join(json.dumps(v, ensure_ascii=False) for v in error.validator_value or [])
        return [ArgumentProblem(path, _("Choose one of: {choices}.").format(choices=choices))]
    if kind in ("minimum", "exclusiveMinimum"):
        return [ArgumentProblem(path, _("Enter a number of at least {limit}.").format(limit=error.validator_value))]
    if kind in ("maximum", "exclusiveMaximum"):
        return [ArgumentProblem(path, _("Enter a number of at most {limit}.").format(limit=error.validator_value))]
    if kind == "additionalProperties":
        return [ArgumentProblem(path, _("This object has fields the tool does not accept: {detail}").format(
            detail=error.message))]
    return [ArgumentProblem(path, error.message)]


def parse_json_object(text: str) -> tuple[dict[str, Any] | None, str | None]:
    """The arguments typed as JSON, or ``None`` and a sentence naming where the JSON breaks."""
    def refuse(constant: str) -> Any:
        raise ValueError(constant)

    try:
        value = json.loads(text or "{}", parse_constant=refuse)
    except json.JSONDecodeError as exc:
        return None, _("The JSON does not parse: {reason} (line {line}, column {column}).").format(
            reason=translate(decoder_reason(exc.msg)), line=exc.lineno, column=exc.colno)
    except ValueError as exc:
        return None, _("The JSON does not parse: {constant} is not a JSON number.").format(constant=exc)
    if not isinstance(value, dict):
        return None, _("The arguments must be a JSON object, e.g. {example}.").format(example='{"text": "hi"}')
    return value, None


def simple_type(schema: Mapping[str, Any]) -> str | None:
    """The one JSON type a form field can edit: ``["string", "null"]`` and ``anyOf`` with null count."""
    kind = schema.get("type")
    if isinstance(kind, list):
        kinds = [k for k in kind if k != "null"]
        return kinds[0] if len(kinds) == 1 else None
    if isinstance(kind, str):
        return kind
    for key in ("anyOf", "oneOf"):
        options = schema.get(key)
        if isinstance(options, list):
            kinds = [simple_type(o) for o in options if isinstance(o, Mapping) and o.get("type") != "null"]
            if len(kinds) == 1:
                return kinds[0]
    if "enum" in schema:
        return "enum"
    if "properties" in schema:
        return "object"
    return None


def resolved(schema: Mapping[str, Any]) -> Mapping[str, Any]:
    """The alternative of an ``anyOf``/``oneOf`` with null that the form edits (else the schema)."""
    for key in ("anyOf", "oneOf"):
        options = schema.get(key)
        if isinstance(options, list):
            real = [o for o in options if isinstance(o, Mapping) and o.get("type") != "null"]
            if len(real) == 1:
                merged = dict(real[0])
                for inherited in ("description", "default", "title"):
                    if inherited in schema and inherited not in merged:
                        merged[inherited] = schema[inherited]
                return merged
    return schema
