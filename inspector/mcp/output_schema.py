"""A tool's structured result checked against its ``outputSchema``, without ever using the network.

A tool that declares an ``outputSchema`` promises ``structuredContent`` that conforms to it (the
specification says servers MUST return it, clients SHOULD check it). The schema is JSON Schema
(2020-12 unless its ``$schema`` says otherwise); ``$ref`` is resolved inside the schema only
(``#/$defs/...``, ``$anchor``, ``$id`` of its own parts): a reference anywhere else is refused,
never fetched (SEP-2106: a schema must not make the client reach out to an address).

A broken promise is one sentence naming the JSON path and the rule, e.g. *the result of the
tool quote breaks its output schema at $.items[2].price: -1 is less than the minimum of 0*.
"""

from __future__ import annotations

import functools
import itertools
import json
import re
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from .messages import N_, NP_, Message

if TYPE_CHECKING:
    from jsonschema.exceptions import ValidationError

# jsonschema (and referencing) load on first use, inside the functions below: most tools declare
# no output schema, and a `call` should not pay some 40 ms at start-up for a check it never makes.

#: How many violations are counted at most (a huge result may break a schema everywhere).
MAX_COUNTED = 1000
_VALUE_CHARS = 60
_IDENTIFIER = re.compile(r"^[A-Za-z_$][A-Za-z0-9_$]*$")
#: Keywords whose failure says least (the alternatives failed): named only when nothing else failed.
_WEAK = ("anyOf", "oneOf")


def _refuse(uri: str) -> Any:
    raise LookupError(uri)  # never fetched: the registry wraps it as unretrievable


@functools.cache
def offline_registry() -> Any:
    """The registry every validator gets: it knows no schema beyond the one checked, and fetches none."""
    from referencing import Registry

    return Registry(retrieve=_refuse)  # type: ignore[call-arg]


def offline_validator(schema: Mapping[str, Any], *, format_checker: bool = False) -> Any:
    """A validator for ``schema`` (its own draft, 2020-12 by default) that resolves ``$ref`` only
    inside it; raises :class:`SchemaError` for a schema that is not valid JSON Schema."""
    from jsonschema.validators import Draft202012Validator, validator_for

    cls = validator_for(schema, default=Draft202012Validator)
    cls.check_schema(schema)
    return cls(schema, registry=offline_registry(),
               format_checker=cls.FORMAT_CHECKER if format_checker else None)


def json_path(path: Iterable[Any]) -> str:
    """A location inside a JSON value as JSONPath: ``$``, ``$.items[2].price``, ``$["a b"]``."""
    parts = ["$"]
    for part in path:
        if isinstance(part, int):
            parts.append(f"[{part}]")
        elif _IDENTIFIER.match(str(part)):
            parts.append(f".{part}")
        else:
            parts.append(f"[{json.dumps(str(part), ensure_ascii=False)}]")
    return "".join(parts)


def _json(value: Any) -> str:
    """A value as JSON, clipped: what a sentence quotes of the result or the schema."""
    try:
        text = json.dumps(value, ensure_ascii=False, sort_keys=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= _VALUE_CHARS else text[:_VALUE_CHARS - 1] + "…"


def _rule(error: ValidationError) -> Message:
    """What the value at the error's place breaks, in words (JSON spelling: null, true, "text")."""
    kind, limit, value = error.validator, error.validator_value, error.instance
    shown = _json(value)
    if kind == "type":
        expected = " or ".join(limit) if isinstance(limit, list) else str(limit)
        return Message(N_("{value} is not of type {type}"), {"value": shown, "type": expected})
    if kind == "required" and isinstance(value, dict) and isinstance(limit, list):
        missing = [name for name in limit if name not in value]
        return Message(N_("the required property {name} is missing"), {"name": _json(missing[0] if missing else "")})
    if kind == "minimum":
        return Message(N_("{value} is less than the minimum of {limit}"), {"value": shown, "limit": _json(limit)})
    if kind == "exclusiveMinimum":
        return Message(N_("{value} is not greater than the exclusive minimum of {limit}"),
                       {"value": shown, "limit": _json(limit)})
    if kind == "maximum":
        return Message(N_("{value} is more than the maximum of {limit}"), {"value": shown, "limit": _json(limit)})
    if kind == "exclusiveMaximum":
        return Message(N_("{value} is not less than the exclusive maximum of {limit}"),
                       {"value": shown, "limit": _json(limit)})
    if kind == "enum":
        return Message(N_("{value} is not one of {choices}"), {"value": shown, "choices": _json(limit)})
    if kind == "const":
        return Message(N_("{value} is not the required value {expected}"), {"value": shown, "expected": _json(limit)})
    if kind in ("additionalProperties", "unevaluatedProperties") and isinstance(value, dict):
        return Message(N_("it has properties the schema does not allow ({rule}: false)"), {"rule": kind})
    return Message(N_("{value} breaks the rule {rule}: {detail}"),
                   {"value": shown, "rule": str(kind), "detail": error.message[:200]})


def _structured(result: Any) -> tuple[bool, Any, bool]:
    """(is an error, the structured content, whether it was present) of a raw ``tools/call``
    result or of a :class:`~.results.ToolCallResult`."""
    if isinstance(result, Mapping):
        return result.get("isError") is True, result.get("structuredContent"), "structuredContent" in result
    content = getattr(result, "structured_content", None)
    return bool(getattr(result, "is_error", False)), content, content is not None


def check_structured(tool: Mapping[str, Any], result: Any, *, server: str | None = None) -> Message | None:
    """Why the result breaks the tool's ``outputSchema`` (one sentence), or ``None`` when it keeps
    it, the tool declares none, or the tool reported an error (``isError`` results are not checked).
    ``server``: the server's name or address, named in the sentence beside the tool."""
    schema = tool.get("outputSchema")
    name: str | Message = str(tool.get("name", ""))
    if server is not None:
        name = Message(N_("{tool} on the server {server}"), {"tool": name, "server": server})
    if not isinstance(schema, Mapping):
        return None
    is_error, content, present = _structured(result)
    if is_error:
        return None
    if not present or content is None:
        return Message(N_("The tool {tool} declares an output schema but returned no structured content "
                          "(a server must return it)."), {"tool": name})
    from jsonschema.exceptions import SchemaError, best_match
    from referencing.exceptions import Unresolvable

    try:
        validator = offline_validator(schema)
    except SchemaError as exc:
        return Message(N_("The output schema of the tool {tool} is not a valid JSON Schema, so its result cannot "
                          "be checked: {reason}"), {"tool": name, "reason": exc.message[:200]})
    try:
        errors = list(itertools.islice(validator.iter_errors(content), MAX_COUNTED))
    except Unresolvable as exc:
        return Message(N_("The output schema of the tool {tool} refers to {ref}, outside the schema itself; "
                          "Run Inspector never fetches a schema from the network, so the result cannot be "
                          "checked."), {"tool": name, "ref": _json(getattr(exc, "ref", str(exc)))})
    except RecursionError:
        return Message(N_("The result of the tool {tool} cannot be checked: its output schema refers to itself "
                          "without end, or the result is nested too deeply."), {"tool": name})
    if not errors:
        return None
    # The first problem in the result's own order (an anyOf/oneOf only when nothing plainer), and
    # inside such an alternative its most telling branch.
    first = best_match([min(errors, key=lambda error: error.validator in _WEAK)]) or errors[0]
    params = {"tool": name, "path": json_path(first.absolute_path), "rule": _rule(first), "count": len(errors) - 1}
    if len(errors) == 1:
        return Message(N_("The result of the tool {tool} breaks its output schema at {path}: {rule}."), params)
    if len(errors) >= MAX_COUNTED:
        return Message(N_("The result of the tool {tool} breaks its output schema at {path}: {rule} (and at least "
                          "{more} more problems)."), {**params, "more": MAX_COUNTED - 1})
    return NP_("The result of the tool {tool} breaks its output schema at {path}: {rule} (and {count} more "
               "problem).",
               "The result of the tool {tool} breaks its output schema at {path}: {rule} (and {count} more "
               "problems).", params, "count")


__all__ = ["check_structured", "json_path", "offline_registry", "offline_validator"]
