"""The sentences of an answer or an offer the client cannot use: malformed, of the wrong type, too
large, in a protocol version it does not speak, asking for input without end; a tool it must not
call, a skill that failed its check, a capability the server does not declare.

Each function gives the whole sentence of one :class:`~.errors.McpTransportError` factory, which
picks the kind; the words are here. No I/O.
"""

from __future__ import annotations

from .messages import N_, NP_, Message, Number, whole
from .sanitize import sanitize_remote_text


def malformed(server: str, method: str, what: str | Message) -> Message:
    return Message(N_("The server {server} sent a malformed answer to {method}: {what}."),
                   {"server": server, "method": method, "what": what})


def content_type(server: str, method: str, media_type: str) -> Message:
    shown = sanitize_remote_text(media_type, 80)
    params = {"server": server, "method": method, "type": shown}
    template = (N_("The server {server} answered {method} with content of type {type}; an MCP server must "
                   "answer with application/json or text/event-stream.") if shown else
                N_("The server {server} answered {method} with content of type an unknown type; an MCP server "
                   "must answer with application/json or text/event-stream."))
    return Message(template, params)


def too_large(server: str, method: str, cap_bytes: int) -> Message:
    return Message(N_("The answer of the server {server} to {method} is larger than the {mib} MiB limit "
                      "({bytes} bytes); it was refused, not cut."),
                   {"server": server, "method": method, "mib": whole(cap_bytes // (1024 * 1024)),
                    "bytes": whole(cap_bytes)})


def event_too_large(server: str, method: str, cap_bytes: int) -> Message:
    return Message(N_("The server {server} answered {method} with an event stream, one event of which is larger "
                      "than the {mib} MiB limit for one event ({bytes} bytes); the answer was refused, not cut."),
                   {"server": server, "method": method, "mib": whole(cap_bytes // (1024 * 1024)),
                    "bytes": whole(cap_bytes)})


def line_too_large(server: str, method: str, size: int, cap_bytes: int) -> Message:
    return Message(N_("The server {server} answered {method} with a message of {size} MB on stdout, over "
                      "the {mib} MB limit; it was dropped unread."),
                   {"server": server, "method": method, "mib": whole(cap_bytes // (1024 * 1024)),
                    "size": Number(round(size / 2**20, 1), f"{round(size / 2**20, 1):g}")})


def protocol_version(server: str, offered: str, supported: tuple[str, ...]) -> Message:
    shown = sanitize_remote_text(offered, 40)
    params = {"server": server, "offered": shown, "supported": ", ".join(supported)}
    template = (N_("The server {server} speaks MCP protocol version {offered}, which this client does not "
                   "support (supported: {supported}).") if shown else
                N_("The server {server} speaks MCP protocol version (none), which this client does not "
                   "support (supported: {supported})."))
    return Message(template, params)


def input_rounds(server: str, method: str, rounds: int) -> Message:
    return NP_("The server {server} asked for input on {method} {count} time without finishing; the client "
               "stops after that many rounds.",
               "The server {server} asked for input on {method} {count} times in a row without finishing; "
               "the client stops after that many rounds.",
               {"server": server, "method": method, "count": rounds}, count="count")


def excluded_tool(server: str, tool: str, problem: Message) -> Message:
    return Message(N_("The tool {tool} of the server {server} was not called: {problem}"),
                   {"tool": tool, "server": server, "problem": problem})


def skill_verification(server: str, problem: Message) -> Message:
    return Message(N_("The skill from the server {server} failed verification and was not loaded: "
                      "{problem}."), {"server": server, "problem": problem})


def not_offered(server: str, method: str, what: Message) -> Message:
    return Message(N_("The server {server} does not offer {what}: its capabilities do not declare it, so "
                      "{method} was not sent."), {"server": server, "what": what, "method": method})
