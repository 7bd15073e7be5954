"""MLflow's own tool spans (``@mlflow.trace(span_type="TOOL")``, its autologging's tool spans), read for what they say.

MLflow (``mlflow-skinny`` 3.18) writes its span attributes as JSON text: ``mlflow.spanType`` (``"TOOL"``, ``"AGENT"``,
``"LLM"``, …, the JSON of a string), ``mlflow.spanInputs`` (the function's arguments by name: ``{"city": "Berlin"}``)
and ``mlflow.spanOutputs`` (what it returned: ``"Berlin: 21 °C, clear"`` as a JSON string); a span is named after its
function (or the ``name`` given), and ends with status OK, or ERROR with an ``exception`` event when the function
raised (then there are no outputs). A ``TOOL`` span is a tool step: its name the tool's, its inputs the arguments,
its outputs the result (a string as it is; an MCP content list as its blocks; anything else as MLflow wrote it).

Where MLflow traces an agent whose own spans speak another convention (Strands' ``execute_tool`` spans, the ``mcp``
SDK's), its attributes sit beside theirs and the span is read as theirs: this reads a span no other convention
makes a tool step. No I/O, no SQLite, no Qt.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from inspector.mcp.text import repair_text

__all__ = ["MLFLOW_TOOL", "is_mlflow_tool", "mlflow_parts"]

#: ``mlflow.spanType`` of a tool's span, as MLflow writes it (the JSON text of the string ``TOOL``).
MLFLOW_TOOL = '"TOOL"'


def is_mlflow_tool(attributes: Mapping[str, Any]) -> bool:
    """True for MLflow's span of a tool (its ``mlflow.spanType``, also where a file gives it as a bare string)."""
    span_type = attributes.get("mlflow.spanType")
    return span_type == MLFLOW_TOOL or span_type == "TOOL"


def mlflow_parts(name: str, attributes: Mapping[str, Any], parse: Any, result: Any) -> dict[str, Any]:
    """What MLflow's tool span named ``name`` says, as :class:`~.conventions.Meaning`'s fields (``parse`` reads a JSON
    string attribute, :func:`~.conventions.parse_json_text`; ``result`` reads an answer as text and content blocks,
    ``conventions._result``)."""
    arguments = parse(attributes.get("mlflow.spanInputs"))
    parts: dict[str, Any] = {"kind": "tool", "tool": name or None,
                             "arguments": arguments if isinstance(arguments, (dict, list)) else None}
    outputs = attributes.get("mlflow.spanOutputs")
    if isinstance(outputs, str):
        answer = _json_string(outputs)
        if answer is not None:  # the function returned a string: the string
            parts["result"] = answer
        else:
            parts["result"], parts["blocks"], parts["result_is_error"] = result(outputs)
    return parts


def _json_string(text: str) -> str | None:
    """The string a JSON string literal spells (``"\\"Berlin\\""`` → ``Berlin``); ``None`` for any other text."""
    if not (len(text) >= 2 and text.startswith('"') and text.endswith('"')):
        return None
    try:
        value = json.loads(text)
    except ValueError:
        return None
    return repair_text(value) if isinstance(value, str) else None  # a lone surrogate it spells: U+FFFD
