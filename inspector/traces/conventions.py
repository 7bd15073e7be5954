"""What a foreign span means: the conventions agents and their instrumentations follow.

Read here (and documented in ``docs/trace-format.md``, "Foreign spans"):

- the OpenTelemetry MCP conventions, as the official ``mcp`` SDK writes them: ``mcp.method.name``
  (a ``tools/call`` span is a tool call; its tool from ``gen_ai.tool.name`` or the span name
  ``tools/call NAME`` / ``MCP send tools/call NAME``), ``jsonrpc.request.id``, ``mcp.session.id``;
  the span kind says the side (CLIENT: the agent's, SERVER: the server's);
- the GenAI conventions: ``gen_ai.tool.name``, ``gen_ai.operation.name``,
  ``gen_ai.tool.call.arguments`` / ``.result`` (also as JSON strings; a whole MCP ``CallToolResult`` as its
  content and ``isError``), model and token usage; Google ADK's first schema's ``gcp.vertex.agent.tool_call_args``
  / ``.tool_response`` where those are absent;
- Traceloop's (``opentelemetry-instrumentation-mcp``, OpenLLMetry): ``traceloop.span.kind``
  and ``traceloop.entity.name`` / ``.input`` / ``.output``; its stream wrappers
  (``ResponseStreamWriter``, ``RequestStreamWriter``) are *plumbing*;
- OpenInference's: ``openinference.span.kind``, ``input.value``, ``output.value``, ``tool.name``,
  ``llm.model_name``, ``llm.token_count.*``;
- Logfire's ``instrument_mcp()`` (on ``mcp`` 1.x; scope ``logfire…``): ``MCP request: METHOD [TOOL]`` (the
  client side) and ``MCP server handle request: METHOD`` (the server side), the request and the response
  as JSON in the attributes ``request`` / ``response``.
- OpenLIT's (``openlit.init()``; scope ``openlit.instrumentation.mcp``): ``mcp.operation.name``,
  ``mcp.request.payload`` / ``mcp.response.payload`` (read by :mod:`.openlit_spans`);
- Strands Agents' ``execute_tool`` spans (scope ``strands.telemetry.tracer``): the arguments and answer in its
  events, or its latest conventions' attributes (read by :mod:`.strands_spans`);
- MLflow's ``TOOL`` spans (``mlflow.spanType``, ``mlflow.spanInputs`` / ``mlflow.spanOutputs``) where no other
  convention makes the span a tool step (read by :mod:`.mlflow_spans`);
- Logfire's span names: ``logfire.span("calling {tool}", tool=...)`` names its span by the message template and
  keeps the message with its values in ``logfire.msg``, which is what :func:`shown_name` shows.

Nothing here changes a span: what is not understood stays a ``request`` step with all its
attributes. No I/O, no SQLite, no Qt.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from inspector.mcp.text import repair_text
from inspector.runs.nesting import nested_deeper

from .content_list import ContentList, read_content_list
from .mlflow_spans import is_mlflow_tool, mlflow_parts
from .openlit_spans import is_openlit, openlit_parts
from .strands_spans import STRANDS_SCOPE, strands_parts

KIND_SERVER, KIND_CLIENT = 2, 3
_KIND_NAMES = {"SPAN_KIND_SERVER": KIND_SERVER, "SPAN_KIND_CLIENT": KIND_CLIENT}
_LLM_OPERATIONS = frozenset({"chat", "text_completion", "generate_content"})
#: Traceloop's spans around the MCP streams: one per message, carrying no entity of their own.
PLUMBING_NAMES = frozenset({"ResponseStreamWriter", "RequestStreamWriter"})
_TRACELOOP_TOOL_KINDS = frozenset({"tool"})
_MAX_PARSED = 1_000_000  # characters of a JSON string attribute parsed for arguments or a result
# Levels a parsed value may nest, the value at the bottom counted too (80 lists and objects around a
# scalar): it lands inside a step payload (raw.otlp... is three levels down), which an export writes
# and an import reads again under MAX_DEPTH.
_MAX_PARSED_LEVELS = 81


@dataclass(frozen=True)
class Meaning:
    """What a span is, in our words.

    ``kind``: the step kind (``tool``, ``llm``, ``request``); ``convention``: whose words it
    spoke (``mcp``, ``gen_ai``, ``traceloop``, ``openinference``, ``logfire``, ``openlit``, ``strands``, ``mlflow``
    or ``""``);
    ``side``: ``client`` or ``server`` for one side of an MCP request, else ``""``; ``plumbing``: an
    instrumentation's internal span that carries nothing of its own.
    """

    kind: str = "request"
    convention: str = ""
    side: str = ""
    method: str = ""
    tool: str | None = None
    arguments: Any = None
    result: str | None = None
    #: The result as content blocks, when it was the JSON of an MCP content list (``result`` is its text).
    blocks: ContentList | None = None
    result_is_error: bool = False
    plumbing: bool = False
    model: str | None = None
    input_tokens: int | None = None
    output_tokens: int | None = None
    #: The source recorded that the call returned, without its answer (OpenLIT's ``mcp.client.operation.duration``,
    #: Strands' ``gen_ai.tool.status``).
    answered: bool = False

    @property
    def states_success(self) -> bool:
        """True when the source writes status OK for success (Traceloop, OpenInference), or records that a
        call returned (OpenLIT: its answer, or its duration), so an unset status without that means it
        recorded no outcome. The OpenTelemetry MCP and GenAI conventions leave the status unset on success
        and set ERROR (and ``error.type``) on a failure."""
        return self.convention in _STATES_SUCCESS


#: The conventions whose sources write status OK (or a mark of an answer) for success: Strands writes OK with
#: ``gen_ai.tool.status`` for a tool that answered, and OK without it for a call it abandoned.
_STATES_SUCCESS = frozenset({"traceloop", "openinference", "openlit", "strands", "mlflow"})


def span_kind(kind: int | str) -> int:
    """The span kind as its number (OTLP JSON may write the enum's name)."""
    if isinstance(kind, str):
        return _KIND_NAMES.get(kind, 0)
    return kind


def parse_json_text(value: Any) -> Any:
    """A JSON string attribute as the value it spells; anything else (bad JSON, a value nested
    deeper than a file may be, see ``MAX_DEPTH``, one holding ``NaN``, ``Infinity`` or a number
    too big for a float, which no JSON reader after us would take) as it is. A whole number beyond
    64 bits is read as it is: an import reads it back from the run's export exactly. A lone surrogate
    the text spells (``"\\ud800"``) is read as U+FFFD, as a server's answer is: the value is
    stored and printed as UTF-8."""
    if isinstance(value, str) and len(value) <= _MAX_PARSED and value[:1] in ("{", "["):
        try:
            parsed = json.loads(value, parse_constant=_not_a_number, parse_float=_finite)
        except (ValueError, RecursionError):
            return value
        if nested_deeper(parsed, _MAX_PARSED_LEVELS, scalars_count=True):
            return value
        return repair_text(parsed) if _SURROGATE_ESCAPE.search(value) else parsed
    return value


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def _not_a_number(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _finite(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        raise ValueError(f"{text} is too big for a float")
    return number


def _text(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _content_list(value: Any) -> ContentList | None:
    """A result attribute that is an MCP content list (as JSON text, or as an array attribute of
    key-value lists), read as one; ``None`` for anything else. One block alone, not in a list, is
    a list of one: the OpenAI Agents SDK hands its agent a lone block so (``{"type": "text", ...}``),
    and its instrumentations record that as the result."""
    if isinstance(value, str):
        if value[:1] not in ("[", "{"):
            return None
        value = parse_json_text(value)
    if isinstance(value, dict):
        value = [value]
    return read_content_list(value) if isinstance(value, list) else None


#: The keys of an MCP ``CallToolResult``: Google ADK records the whole answer as a tool span's result; FastMCP's
#: client hands its caller one with Python names (``structured_content``, ``is_error``) and ``data``, which Splunk's
#: FastMCP instrumentation records so.
_CALL_TOOL_RESULT_KEYS = frozenset({"content", "structuredContent", "isError", "_meta"})
_FASTMCP_RESULT_KEYS = frozenset({"content", "structured_content", "is_error", "meta", "data"})


def _result(value: Any) -> tuple[str | None, ContentList | None, bool]:
    """A tool's result attribute as text, as content blocks when it is a content list, and whether it
    says the tool failed: a whole ``CallToolResult`` (``{"content": [...], "isError": true}``, as Google
    ADK records it) is read as its content list and its ``isError``."""
    parsed = parse_json_text(value)
    if isinstance(parsed, dict) and isinstance(parsed.get("content"), list) \
            and (parsed.keys() <= _CALL_TOOL_RESULT_KEYS or parsed.keys() <= _FASTMCP_RESULT_KEYS):
        answer = read_content_list(parsed["content"])
        if answer is not None:
            return answer.text, answer, parsed.get("isError", parsed.get("is_error")) is True
    listed = None if isinstance(parsed, str) else _content_list(parsed)
    return (listed.text, listed, False) if listed is not None else (_text(value), None, False)


def _count(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def shown_name(name: str, attributes: Mapping[str, Any]) -> str:
    """The span's name as its source shows it: Logfire names a span by its message template (``calling {tool}``,
    the same for every call) and keeps the message with its values in ``logfire.msg`` (``calling lookup``), which
    is shown instead; any other name as it is. The span's own name is kept (``raw.otlp.name``)."""
    message = attributes.get("logfire.msg")
    if isinstance(message, str) and message.strip() and attributes.get("logfire.msg_template") == name:
        return message
    return name


def _tool_from_name(name: str, method: str) -> str | None:
    """``tools/call NAME`` (server) or ``MCP send tools/call NAME`` (client) → NAME."""
    for prefix in (f"MCP send {method} ", f"{method} "):
        if name.startswith(prefix) and name[len(prefix):].strip():
            return name[len(prefix):].strip()
    return None


def understand(name: str, kind: int | str, attributes: Mapping[str, Any], scope_name: str = "",
               events: list[dict[str, Any]] | None = None) -> Meaning:
    """The meaning of a span from its name, kind, attributes, scope name and events (read only where a source
    puts a call's arguments and answer there: Strands')."""
    if "traceloop.span.kind" in attributes or "traceloop.entity.input" in attributes \
            or "traceloop.entity.output" in attributes:
        return _traceloop(name, attributes)
    if name in PLUMBING_NAMES and scope_name.startswith("opentelemetry.instrumentation.mcp"):
        if "mcp.response.value" in attributes:  # the server's answer, as it was written to the stream
            return Meaning(convention="traceloop", plumbing=True, side="server",
                           result=_text(attributes["mcp.response.value"]))
        return Meaning(convention="traceloop", plumbing=True)
    if isinstance(attributes.get("openinference.span.kind"), str):
        return _openinference(attributes)
    if is_openlit(attributes, scope_name):
        return Meaning(convention="openlit", **openlit_parts(span_kind(kind), attributes, parse_json_text))
    method = attributes.get("mcp.method.name")
    if isinstance(method, str):
        return _mcp(name, kind, method, attributes)
    if scope_name.startswith("logfire"):
        logfire = _logfire(name, attributes)
        if logfire is not None:
            return logfire
    generic = _gen_ai(attributes)
    if generic.kind == "tool" and scope_name == STRANDS_SCOPE:
        return Meaning(kind="tool", convention="strands", tool=generic.tool,
                       **strands_parts(attributes, events or [], parse_json_text))
    if generic.kind == "request" and is_mlflow_tool(attributes):
        return Meaning(convention="mlflow", **mlflow_parts(name, attributes, parse_json_text, _result))
    return generic


def _mcp(name: str, kind: int | str, method: str, attributes: Mapping[str, Any]) -> Meaning:
    number = span_kind(kind)
    side = "client" if number == KIND_CLIENT else "server" if number == KIND_SERVER else ""
    if method != "tools/call":
        meaning = _MCP_MEANINGS.get((side, method))
        if meaning is None:  # (first made; kept while there are few)
            meaning = Meaning(convention="mcp", side=side, method=method)
            if len(_MCP_MEANINGS) < _MCP_MEANINGS_KEPT:
                _MCP_MEANINGS[(side, method)] = meaning
        return meaning
    tool = attributes.get("gen_ai.tool.name")
    arguments, result, blocks, is_error = None, None, None, False
    if _is_gen_ai_tool(tool, attributes):  # (else the GenAI conventions say nothing of its arguments or result)
        arguments, (result, blocks, is_error) = _gen_ai_call(attributes)
    tool = tool if isinstance(tool, str) else _tool_from_name(name, method)
    if arguments is not None or result is not None:
        return Meaning(kind="tool", convention="mcp", side=side, method=method, tool=tool,
                       arguments=arguments, result=result, blocks=blocks, result_is_error=is_error)
    meaning = _MCP_MEANINGS.get((side, method, tool))
    if meaning is None:
        meaning = Meaning(kind="tool", convention="mcp", side=side, method=method, tool=tool)
        if len(_MCP_MEANINGS) < _MCP_MEANINGS_KEPT:
            _MCP_MEANINGS[(side, method, tool)] = meaning
    return meaning


#: Meanings of MCP requests that carry nothing of their own (no arguments, no result), by side and
#: method (and tool): a file names a few, and an import asks for one per span. Each is immutable.
_MCP_MEANINGS: dict[tuple[str, ...], Meaning] = {}
_MCP_MEANINGS_KEPT = 256


#: What Google ADK's first schema (ADK 1.x; 2.x with ``ADK_TELEMETRY_SCHEMA_VERSION_OPT_IN=1``) writes for a tool
#: call's arguments and answer when it keeps no content, or had no answer: nothing was recorded.
_ADK_NOTHING = frozenset({"{}", '{"result": "<not specified>"}', "N/A"})


_ADK_KEYS = {key: f"gcp.vertex.agent.{key}" for key in ("tool_call_args", "tool_response")}


def _adk(attributes: Mapping[str, Any], key: str) -> Any:
    """``gcp.vertex.agent.KEY``, Google ADK's first schema's arguments or answer, unless it says nothing.
    A file may give it as an array or a key-value list too (read as a list or a dict, never a placeholder)."""
    value = attributes.get(_ADK_KEYS[key])
    return None if isinstance(value, str) and value in _ADK_NOTHING else value


def _gen_ai_call(attributes: Mapping[str, Any]) -> tuple[Any, tuple[str | None, ContentList | None, bool]]:
    """A tool call's arguments (a dict or a list, else ``None``) and its result as :func:`_result` reads it,
    by the GenAI conventions (or Google ADK's first schema)."""
    arguments = parse_json_text(attributes.get("gen_ai.tool.call.arguments", _adk(attributes, "tool_call_args")))
    given = attributes.get("gen_ai.tool.call.result", _adk(attributes, "tool_response"))
    return (arguments if isinstance(arguments, (dict, list)) else None,
            _result(given) if given is not None else (None, None, False))


def _is_gen_ai_tool(tool: Any, attributes: Mapping[str, Any]) -> bool:
    """A tool call to the GenAI conventions: a span naming its tool (``tool``: its ``gen_ai.tool.name``) or
    its operation ``execute_tool``."""
    return isinstance(tool, str) or attributes.get("gen_ai.operation.name") == "execute_tool"


def _gen_ai(attributes: Mapping[str, Any]) -> Meaning:
    operation = attributes.get("gen_ai.operation.name")
    tool = attributes.get("gen_ai.tool.name")
    if _is_gen_ai_tool(tool, attributes):
        arguments, (result, blocks, is_error) = _gen_ai_call(attributes)
        return Meaning(kind="tool", convention="gen_ai", tool=tool if isinstance(tool, str) else None,
                       arguments=arguments, result=result, blocks=blocks, result_is_error=is_error)
    model = attributes.get("gen_ai.request.model", attributes.get("gen_ai.response.model"))
    if isinstance(operation, str) and operation in _LLM_OPERATIONS or isinstance(model, str):
        return Meaning(kind="llm", convention="gen_ai", model=model if isinstance(model, str) else None,
                       input_tokens=_count(attributes.get("gen_ai.usage.input_tokens")),
                       output_tokens=_count(attributes.get("gen_ai.usage.output_tokens")))
    return _GEN_AI_OPERATION if isinstance(operation, str) else _NOTHING


_GEN_AI_OPERATION, _NOTHING = Meaning(convention="gen_ai"), Meaning()


#: Logfire's MCP span names, by the side of the request they are: a request the server sends its
#: client (``MCP client handle request``: sampling, elicitation) is no side of an agent's call.
_LOGFIRE_SIDES = (("MCP request: ", "client"), ("MCP server handle request: ", "server"),
                  ("MCP client handle request: ", ""))


def _logfire(name: str, attributes: Mapping[str, Any]) -> Meaning | None:
    """Logfire's ``instrument_mcp()`` span: the JSON-RPC request (and the answer's result) as JSON text."""
    side = next((side for prefix, side in _LOGFIRE_SIDES if name.startswith(prefix)), None)
    request = parse_json_text(attributes.get("request"))
    if side is None or not isinstance(request, dict):
        return None
    method = request.get("method", attributes.get("rpc.method"))
    if not isinstance(method, str):
        return None
    if method != "tools/call":
        return Meaning(convention="logfire", side=side, method=method)
    params = request.get("params") if isinstance(request.get("params"), dict) else {}
    tool, arguments = params.get("name"), params.get("arguments")
    response = parse_json_text(attributes.get("response"))
    result, blocks, is_error = None, None, False
    if isinstance(response, dict):
        result, blocks, _ = _result(response.get("content"))
        is_error = response.get("isError") is True
    elif response is not None:
        result = _text(response)
    return Meaning(kind="tool", convention="logfire", side=side, method=method,
                   tool=tool if isinstance(tool, str) else None,
                   arguments=arguments if isinstance(arguments, (dict, list)) else None,
                   result=result, blocks=blocks, result_is_error=is_error)


def _traceloop(name: str, attributes: Mapping[str, Any]) -> Meaning:
    # Respan's MCP plugin writes Traceloop's entity attributes with a kind of its own (``respan.entity.log_type``).
    span_kind_name = attributes.get("traceloop.span.kind", attributes.get("respan.entity.log_type"))
    entity = attributes.get("traceloop.entity.name")
    given = parse_json_text(attributes.get("traceloop.entity.input"))
    output = parse_json_text(attributes.get("traceloop.entity.output"))
    if isinstance(span_kind_name, str) and span_kind_name in _TRACELOOP_TOOL_KINDS:
        # Its MCP instrumentation writes {"tool_name": ..., "arguments": {...}} and {"result": ..., "is_error": ...}.
        arguments = given.get("arguments") if isinstance(given, dict) and "arguments" in given else given
        is_error = isinstance(output, dict) and output.get("is_error") is True
        result = output.get("result") if isinstance(output, dict) and "result" in output else output
        tool = entity if isinstance(entity, str) else name.removesuffix(".tool")
        text, blocks = _text(result), None
        if isinstance(output, dict) and isinstance(output.get("content"), list) and "result" not in output:
            # A whole CallToolResult (Respan's plugin writes the answer so): its content, and its isError (also where
            # its content is no block list, shown as written).
            text, blocks, answered_error = _result(output)
            is_error = is_error or answered_error or output.get("isError") is True
        if "traceloop.entity.output" not in attributes or "traceloop.entity.input" not in attributes:
            # Its OpenAI Agents instrumentation (0.62) writes the GenAI attributes instead of its own.
            generic = _gen_ai(attributes)
            if "traceloop.entity.input" not in attributes:
                arguments = generic.arguments
            if "traceloop.entity.output" not in attributes:
                text, blocks, is_error = generic.result, generic.blocks, generic.result_is_error
            tool = entity if isinstance(entity, str) else generic.tool or tool
        return Meaning(kind="tool", convention="traceloop", side="client", tool=tool,
                       arguments=arguments if isinstance(arguments, (dict, list)) else None,
                       result=text, blocks=blocks, result_is_error=is_error)
    method = name.removesuffix(".mcp") if name.endswith(".mcp") else ""
    return Meaning(convention="traceloop", side="client" if method else "", method=method, result=_text(output))


def _openinference(attributes: Mapping[str, Any]) -> Meaning:
    kind = str(attributes["openinference.span.kind"]).upper()
    given = parse_json_text(attributes.get("input.value"))
    if kind == "TOOL":
        tool = attributes.get("tool.name")
        result, blocks, _ = _result(attributes.get("output.value"))
        return Meaning(kind="tool", convention="openinference", tool=tool if isinstance(tool, str) else None,
                       arguments=given if isinstance(given, (dict, list)) else None, result=result, blocks=blocks)
    output = _text(attributes.get("output.value"))
    if kind == "LLM":
        model = attributes.get("llm.model_name")
        return Meaning(kind="llm", convention="openinference", model=model if isinstance(model, str) else None,
                       input_tokens=_count(attributes.get("llm.token_count.prompt")),
                       output_tokens=_count(attributes.get("llm.token_count.completion")), result=output)
    return Meaning(convention="openinference", result=output)
