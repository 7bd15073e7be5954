"""What the Wire tab says about a leg's kept exchange (``inspector.mcp.wire``): its titles, the text
of a request, an answer and an event, and the leg as JSON or as a ``curl`` command.

All of it is plain text made from what a server sent: it is shown in plain-text widgets only. The
exchange was redacted when it was kept; the ``curl`` command leaves out every header whose value
was redacted (a command with a placeholder for a secret would fail, or be run as it stands).
No Qt.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Mapping, Sequence
from typing import Any

from inspector.i18n import _, ngettext
from inspector.i18n.formatting import format_duration, format_number
from inspector.i18n.refused_probe import (
    LegSeen,
    is_refused_probe,
    is_unanswered_probe,
    is_unserved_probe,
    refused_probe_word,
    unanswered_probe_word,
    unserved_probe_word,
)
from inspector.i18n.transport_probe import is_transport_found, transport_found_word
from inspector.mcp.secrets import REDACTED

from .budget_bar_words import leg_said
from .plain_text import cell_text, pretty_json

#: How many characters of a body or an event the tree's title line shows.
TITLE_CHARS = 80


def exchange_of(leg: Any) -> Mapping[str, Any] | None:
    """The leg's kept exchange, when it is a JSON object with a request (else ``None``)."""
    exchange = getattr(leg, "exchange", None)
    if isinstance(exchange, Mapping) and isinstance(exchange.get("request"), Mapping):
        return exchange
    return None


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _headers(value: Any) -> list[tuple[str, str]]:
    pairs = value if isinstance(value, list) else []
    return [(_text(pair[0]), _text(pair[1])) for pair in pairs
            if isinstance(pair, list) and len(pair) == 2]


def _pretty(text: str) -> str:
    """A body as JSON pretty-printed when it is JSON, else as it came."""
    try:
        return pretty_json(json.loads(text))
    except (ValueError, RecursionError):
        return text


def leg_title(number: int, method: str, leg: Any, exchange: Mapping[str, Any] | None,
              next_method: str | None = None, next_outcome: str | None = None,
              following: Sequence[LegSeen] = ()) -> str:
    """"2. tools/call · HTTP 200 · 14 ms" (or what is known of a leg that kept nothing); a probe the
    server refused says so: "1. server/discover · HTTP 400 · 26 ms · not offered: …", and one a
    command server never answered too, given the method of the leg after it (``initialize``), and the
    POST refused with 404 or 405 that found the older HTTP+SSE transport, given that leg's outcome too;
    given all the legs after it (``following``), a probe refused where no server answered says what it saw."""
    parts = [f"{format_number(number)}. {cell_text(leg_said(method), 60)}"]
    answer = exchange.get("answer") if exchange is not None else None
    status = answer.get("status") if isinstance(answer, Mapping) else getattr(leg, "http_status", None)
    if isinstance(status, int) and not isinstance(status, bool):
        parts.append(_("HTTP {status}").format(status=status))
    elif exchange is not None and not isinstance(answer, Mapping):
        parts.append(_("no answer"))
    elapsed = getattr(leg, "elapsed_ms", None)
    if elapsed is not None:
        parts.append(format_duration(elapsed / 1000))
    if is_refused_probe(method, getattr(leg, "outcome", None), getattr(leg, "http_status", None), exchange,
                        following):
        parts.append(refused_probe_word())
    elif is_unserved_probe(method, getattr(leg, "outcome", None), getattr(leg, "http_status", None), following):
        parts.append(unserved_probe_word(getattr(leg, "http_status", None)))
    elif is_unanswered_probe(method, getattr(leg, "outcome", None), getattr(leg, "http_status", None), exchange,
                             next_method):
        parts.append(unanswered_probe_word())
    elif is_transport_found(method, getattr(leg, "outcome", None), getattr(leg, "http_status", None), next_method,
                            next_outcome):
        parts.append(transport_found_word(getattr(leg, "http_status", None)))
    if exchange is None:
        parts.append(_("nothing kept"))
    return " · ".join(parts)


def request_title(exchange: Mapping[str, Any]) -> str:
    request = exchange["request"]
    where = _text(request.get("url"))
    if where:
        return _("Request: {method} {url}").format(method=cell_text(_text(request.get("method")), 12),
                                                   url=cell_text(where, TITLE_CHARS))
    return _("Request: a line on the server's stdin")


def answer_title(answer: Mapping[str, Any]) -> str:
    status = answer.get("status")
    events = answer.get("events")
    if isinstance(events, list):
        head = ngettext("an event stream of {count} event", "an event stream of {count} events",
                        len(events)).format(count=format_number(len(events)))
    elif isinstance(status, int) and not isinstance(status, bool):
        head = _("HTTP {status}").format(status=status)
    else:
        head = _("a line on the server's stdout")
    return _("Answer: {what}").format(what=head)


def event_title(event: Mapping[str, Any]) -> str:
    """"+12.5 ms · the server asked: sampling/createMessage" (what kind of message the event held)."""
    at = event.get("atMs")
    offset = "+" + format_duration(at / 1000) if isinstance(at, (int, float)) and not isinstance(at, bool) else "?"
    return f"{offset} · {message_kind(_text(event.get('data')))}"


def message_kind(data: str) -> str:
    """What a JSON-RPC message is, in words: an answer, a notification, a request from the server."""
    try:
        message = json.loads(data)
    except (ValueError, RecursionError):
        return cell_text(data, TITLE_CHARS) or _("(empty)")
    if not isinstance(message, dict):
        return cell_text(data, TITLE_CHARS)
    method = message.get("method")
    if isinstance(method, str):
        if "id" in message:
            return _("the server asked: {method}").format(method=cell_text(method, 60))
        return _("notification {method}").format(method=cell_text(method, 60))
    if "error" in message:
        return _("an error answer")
    if "result" in message:
        return _("the answer")
    return cell_text(data, TITLE_CHARS)


def _head_lines(first: str, headers: list[tuple[str, str]]) -> list[str]:
    return [first, *(f"{name}: {value}" for name, value in headers)]


def request_text(exchange: Mapping[str, Any]) -> str:
    request = exchange["request"]
    lines = _head_lines(f"{_text(request.get('method'))} {_text(request.get('url'))}".strip(),
                        _headers(request.get("headers")))
    body = request.get("body")
    if isinstance(body, str):
        lines += ["", _pretty(body)]
    return "\n".join(lines)


def answer_text(answer: Mapping[str, Any]) -> str:
    status = answer.get("status")
    first = _("HTTP {status}").format(status=status) if isinstance(status, int) else _("(a line: no status)")
    lines = _head_lines(first, _headers(answer.get("headers")))
    body = answer.get("body")
    if isinstance(body, str):
        lines += ["", _pretty(body)]
    events = answer.get("events")
    if isinstance(events, list):
        lines += ["", _("The events are listed under the answer, each at its time from the leg's start.")]
    return "\n".join(lines)


def event_text(event: Mapping[str, Any]) -> str:
    return _pretty(_text(event.get("data")))


def cut_text(exchange: Mapping[str, Any]) -> str:
    """A sentence on what the leg did not keep, or ''."""
    cut = exchange.get("cut")
    if not isinstance(cut, Mapping):
        return ""
    cut_bytes, events = cut.get("bytes"), cut.get("events")
    parts = []
    if isinstance(cut_bytes, int) and cut_bytes > 0:
        parts.append(ngettext("{count} byte", "{count} bytes", cut_bytes).format(count=format_number(cut_bytes)))
    if isinstance(events, int) and events > 0:
        parts.append(ngettext("{count} event", "{count} events", events).format(count=format_number(events)))
    if not parts:
        return ""
    return _("Not kept (over the limit of what a leg keeps): {what}").format(what=", ".join(parts))


def exchange_json(method: str, exchange: Mapping[str, Any]) -> str:
    """The leg's exchange as JSON (as kept: redacted and bounded)."""
    return pretty_json({"method": method, **exchange})


def curl_command(exchange: Mapping[str, Any]) -> str | None:
    """The request as a ``curl`` command without its secrets; ``None`` for a leg sent on a line."""
    request = exchange["request"]
    url = _text(request.get("url"))
    if not url.startswith(("http://", "https://")):
        return None
    words = ["curl", "-sS", "-X", _text(request.get("method")) or "POST", url]
    for name, value in _headers(request.get("headers")):
        if value == REDACTED or name.lower() in ("content-length", "host"):
            continue  # a secret, or what curl works out itself
        words += ["-H", f"{name}: {value}"]
    body = request.get("body")
    if isinstance(body, str):
        words += ["--data-raw", body]
    return " ".join(shlex.quote(word) for word in words)


def any_exchange(legs: Sequence[Any]) -> bool:
    return any(exchange_of(leg) is not None for leg in legs)


__all__ = ["answer_text", "answer_title", "any_exchange", "curl_command", "cut_text", "event_text", "event_title",
           "exchange_json", "exchange_of", "leg_title", "message_kind", "request_text", "request_title"]
