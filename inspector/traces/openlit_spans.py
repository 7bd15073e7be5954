"""OpenLIT's MCP spans (``openlit.init()``, scope ``openlit.instrumentation.mcp``), read for what they mean.

OpenLIT wraps the ``mcp`` SDK's functions and names each span ``mcp OPERATION`` (``mcp tools/call``), with
``mcp.system = "mcp"``, ``mcp.operation.name`` (``tools_call``, ``transport_request``, ...) and, its content
capture on (its default), the call's arguments and its answer as JSON in ``mcp.request.payload`` and
``mcp.response.payload``. Every span of a request is of kind CLIENT, the server's too (the server's outermost
carries ``mcp.server.name``: it is read as the server side; the others say no side), and no trace context goes
to the server, so the two sides of a call are traces of their own. Its spans of kind SERVER are the server's
set-up (``mcp tools/call`` there is the registration of the tool handler, with no tool) and its ``mcp server/run``.

What it writes, and how it is read:

- the request: ``{"method": "call_tool", "params": {"args": [NAME, ARGUMENTS]}}`` (a call with positional
  arguments) or ``{"params": {"name": NAME, "arguments": ARGUMENTS}}`` (with keywords; also ``mcp.tool.name``);
- the answer: the ``CallToolResult`` with each content block as its Python ``repr``
  (``"type='text' text='Berlin: 21 °C, clear' annotations=None meta=None"``) and ``isError``; on the server, the
  tool's ``(content, structured)`` pair as a list; a text block's text is read out of its ``repr``
  (:func:`~.python_text.python_string`), any other block stays the text OpenLIT wrote, an answer that is no content
  list (an item of no known kind, no content) is the result as written; on ``mcp`` 2.x the answer's keys are the
  SDK's Python names (``is_error``);
- the status: unset on success, ERROR with ``error.type`` and an ``exception`` event on an exception (a
  time-out among them); a call that returned records ``mcp.client.operation.duration`` (and its answer), one
  whose caller cancelled it neither: then no outcome is recorded;
- the span OpenLIT makes around the *making* of the call's coroutine (its answer
  ``{"type": "mcp_coroutine", ...}``, a fraction of a millisecond) and the ``mcp transport/request`` under the
  call (the SDK's ``send_request``, the same request again) are plumbing; so is the server's set-up (its spans of
  kind SERVER but ``mcp server/run``: the registration of a handler; ``mcp fastmcp/add_tool``) and its ``mcp
  session/init`` (the wrapper of each message a session dispatches: on ``mcp`` 2.x, nine traces of one span each
  beside the agent's). A trace of those alone is a *plumbing trace* (:mod:`inspector.store.plumbing_traces`).

No I/O, no SQLite, no Qt.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from .content_list import read_content_list
from .python_text import python_string

__all__ = ["OPENLIT_SCOPE", "is_openlit", "openlit_parts"]

OPENLIT_SCOPE = "openlit.instrumentation.mcp"
_TOOL_CALL, _TRANSPORT, _SERVER_RUN = "tools_call", "transport_request", "server_run"
#: Its spans of the server's set-up and sessions: the registration of a tool (``mcp fastmcp/add_tool``) and the
#: wrapper of each message a session dispatches (``mcp session/init``: on ``mcp`` 2.x each a trace of its own).
_SET_UP = frozenset({"fastmcp_add_tool", "session_init"})
_KIND_SERVER = 2
#: A text block as its ``repr``: ``type='text' text='…' annotations=None meta=None`` (the text a Python string literal).
_TEXT_BLOCK = re.compile(r"type='text' text=('(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\")(?= |$)")


def is_openlit(attributes: Mapping[str, Any], scope_name: str) -> bool:
    """True for a span of OpenLIT's MCP instrumentation (by its scope, or by its ``mcp.system`` and
    ``mcp.operation.name`` where a file names no scope)."""
    if not isinstance(attributes.get("mcp.operation.name"), str):
        return False
    return scope_name.startswith(OPENLIT_SCOPE) or (not scope_name and attributes.get("mcp.system") == "mcp")


def openlit_parts(kind: int, attributes: Mapping[str, Any], parse: Any) -> dict[str, Any]:
    """What an OpenLIT span of kind ``kind`` (its number) says, as :class:`~.conventions.Meaning`'s fields
    (``parse`` reads a JSON string attribute, :func:`~.conventions.parse_json_text`)."""
    operation = attributes["mcp.operation.name"]
    side = "server" if "mcp.server.name" in attributes else ""
    response = parse(attributes.get("mcp.response.payload"))
    if operation == _TRANSPORT or isinstance(response, dict) and response.get("type") == "mcp_coroutine" \
            or operation in _SET_UP or kind == _KIND_SERVER and operation != _SERVER_RUN:
        return {"plumbing": True}
    if operation != _TOOL_CALL or kind == _KIND_SERVER:
        return {"side": side, "method": operation}
    request = parse(attributes.get("mcp.request.payload"))
    params = request.get("params") if isinstance(request, dict) and isinstance(request.get("params"), dict) else {}
    given = params.get("args") if isinstance(params.get("args"), list) else []
    tool = attributes.get("mcp.tool.name", params.get("name", given[0] if given else None))
    arguments = params.get("arguments", given[1] if len(given) > 1 else None)
    parts: dict[str, Any] = {"kind": "tool", "side": side, "method": "tools/call",
                             "tool": tool if isinstance(tool, str) else None,
                             "arguments": arguments if isinstance(arguments, (dict, list)) else None}
    if isinstance(response, list) and len(response) == 2 and isinstance(response[0], list):
        response = {"content": response[0]}  # the server's (content, structured) pair
    if isinstance(response, dict) and isinstance(response.get("content"), list):
        blocks = read_content_list([_block(item) for item in response["content"]])
        if blocks is not None:
            parts.update(result=blocks.text, blocks=blocks)
        parts["result_is_error"] = response.get("isError") is True or response.get("is_error") is True
    if "result" not in parts and isinstance(attributes.get("mcp.response.payload"), str):
        # An answer that is no content list OpenLIT writes (no content, a block of no known kind): as written.
        parts["result"] = attributes["mcp.response.payload"]
    parts["answered"] = "mcp.client.operation.duration" in attributes or "result" in parts
    return parts


def _block(item: Any) -> Any:
    """A content block as OpenLIT wrote it: a text block's ``repr`` as the block; any other text as a text block
    of that text (nothing is lost); a block written as an object as it is."""
    if not isinstance(item, str):
        return item
    found = _TEXT_BLOCK.match(item)
    text = python_string(found.group(1)) if found is not None else None
    return {"type": "text", "text": item if text is None else text}
