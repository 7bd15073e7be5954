"""How a stored step's server was reached, said in the user's language: its transport and
agreed revision, a command server's command line, and what the server wrote on stderr.

Shared by ``runs show`` and the window's step detail. Everything quoted came from a server or a
file: callers show it as plain text (and the command line keeps it on one line)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import _, ngettext


def transport_name(transport: object) -> str | None:
    """The name of a step's transport ("stdio", "Streamable HTTP", ...), or ``None`` when unknown."""
    names = {"http": _("Streamable HTTP"), "sse": _("HTTP+SSE (the older transport)"), "stdio": _("stdio")}
    return names.get(transport) if isinstance(transport, str) else None


def transport_line(payload: Mapping[str, Any]) -> str | None:
    """"Reached over stdio, MCP 2025-06-18, handshake era"; ``None`` for a step that does not say
    (older steps; one stored before eras were recorded says no era)."""
    name = transport_name(payload.get("transport"))
    legs = payload.get("legs")
    if name is None or _signing_in(legs):
        return None
    if payload.get("transport") in ("http", "sse") and not server_answered(payload):
        # Nothing came back: the version and era are only what the client would have spoken.
        if _cancelled(legs):  # not the server's fault: the user cancelled before it answered
            return _("Tried over {transport}: cancelled before the server answered").format(transport=name)
        return _("Tried over {transport}: no answer from the server").format(transport=name)
    if payload.get("transport") == "stdio":
        if _not_started(legs):
            return _("Tried over {transport}: the server's command did not start").format(transport=name)
        if not server_answered(payload):
            return _("Tried over {transport}: no answer from the server").format(transport=name)
    version = payload.get("protocolVersion")
    era = payload.get("era")
    if isinstance(version, str) and version:
        if era == "handshake":
            return _("Reached over {transport}, MCP {version}, handshake era").format(transport=name, version=version)
        if era == "stateless":
            return _("Reached over {transport}, MCP {version}, stateless era").format(transport=name, version=version)
        return _("Reached over {transport}, MCP {version}").format(transport=name, version=version)
    if era == "handshake":
        return _("Reached over {transport}, handshake era").format(transport=name)
    if era == "stateless":
        return _("Reached over {transport}, stateless era").format(transport=name)
    return _("Reached over {transport}").format(transport=name)


def server_answered(payload: Mapping[str, Any]) -> bool:
    """Whether the server of a step answered any of its requests: when none did, the step's protocol
    version and era are only what the client would have spoken (a step that says nothing of its
    transport or its legs is taken as answered)."""
    legs = payload.get("legs")
    if payload.get("transport") in ("http", "sse"):
        return _answered_over_http(legs)
    if payload.get("transport") == "stdio":
        return _answered_over_stdio(legs)
    return True


#: How a sign-in's legs are named where they are kept (``inspector.mcp.leg_names``: "sign-in: token", ...).
_SIGNIN_LEG = "sign-in"


def _signing_in(legs: object) -> bool:
    """Whether a step's legs are a sign-in's alone: they went to the server's resource metadata and its
    authorization server, and asked the MCP server nothing, so the step's transport says nothing of how that
    server was reached ("Tried over Streamable HTTP: no answer from the server" under a sign-in that stood)."""
    return isinstance(legs, list) and bool(legs) and all(
        isinstance(leg, Mapping) and isinstance(leg.get("method"), str)
        and (leg["method"] == _SIGNIN_LEG or leg["method"].startswith(f"{_SIGNIN_LEG}: ")) for leg in legs)


def _answered_over_http(legs: object) -> bool:
    """Whether any leg got an HTTP answer (a step that says nothing of its legs is taken as answered)."""
    if not isinstance(legs, list) or not legs:
        return True
    return any(isinstance(leg, Mapping) and isinstance(leg.get("httpStatus"), int) for leg in legs)


def _cancelled(legs: object) -> bool:
    """Whether a leg was cancelled (the operation's cancel tore it down)."""
    return isinstance(legs, list) and any(isinstance(leg, Mapping) and leg.get("outcome") == "cancelled"
                                          for leg in legs)


def _not_started(legs: object) -> bool:
    """Whether a command server's ``start`` leg failed: its program never ran (not found, not allowed)."""
    return isinstance(legs, list) and any(
        isinstance(leg, Mapping) and leg.get("method") == "start" and leg.get("outcome") == "failed" for leg in legs)


def _answered_over_stdio(legs: object) -> bool:
    """Whether a command server answered any request: a leg after its start that went well, or that
    kept an answer (an error is an answer). A step that says nothing of its legs, or whose legs kept
    nothing of what travelled (the wire level off), is taken as answered unless no request was made."""
    if not isinstance(legs, list) or not legs:
        return True
    sent = [leg for leg in legs if isinstance(leg, Mapping) and leg.get("method") != "start"]
    if not sent:
        return False
    if any(leg.get("outcome") == "ok" for leg in sent):
        return True
    kept = [leg.get("exchange") for leg in sent if isinstance(leg.get("exchange"), Mapping)]
    return not kept or any(exchange.get("answer") is not None for exchange in kept)


def command_line(payload: Mapping[str, Any]) -> str | None:
    """"Command: npx -y …" for a command server's step (environment variables by name only)."""
    command = payload.get("serverCommand")
    return _("Command: {command}").format(command=command) if isinstance(command, str) else None


def stderr_lines(payload: Mapping[str, Any]) -> list[str]:
    """The server's stderr during the step: a heading, then its lines as written."""
    lines = [line for line in payload.get("stderr") or () if isinstance(line, str)]
    dropped = payload.get("stderrDropped")
    dropped = dropped if isinstance(dropped, int) and not isinstance(dropped, bool) and dropped > 0 else 0
    if not lines:
        return []
    if dropped:
        heading = ngettext("The server wrote on stderr (the last {kept} lines; {count} earlier line not kept):",
                           "The server wrote on stderr (the last {kept} lines; {count} earlier lines not kept):",
                           dropped).format(kept=len(lines), count=dropped)
    else:
        heading = _("The server wrote on stderr:")
    return [heading, *lines]


def line_problem_lines(payload: Mapping[str, Any]) -> list[str]:
    """The faults of the line to a command server (not JSON on stdout, a line over the limit)."""
    problems = [problem for problem in payload.get("lineProblems") or () if isinstance(problem, str)]
    return [_("Fault of the line: {problem}").format(problem=problem) for problem in problems]


__all__ = ["command_line", "line_problem_lines", "server_answered", "stderr_lines", "transport_line", "transport_name"]
