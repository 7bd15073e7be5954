"""One OTLP/HTTP export request and what its answer means for the outbox.

``POST {endpoint}/v1/traces`` with OTLP JSON (``Content-Type: application/json``, as the OTLP/HTTP
specification allows beside protobuf). The answer decides the row's next state:

- 2xx: sent (a ``partialSuccess`` with rejected spans is kept as the reason, still sent: sending
  it again would be rejected again);
- a connection error, a timeout, 408, 429 or 5xx: try again later (``Retry-After`` honoured);
- any other answer (400, 401, 403, 404, 413, a redirect, ...): failed for good, with the reason.

A reason is kept in English (the outbox, ``--json``); the sentences of ours in it are said in the
reader's language where a person reads it (:func:`reason_said`); the collector's words stay as they are.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from urllib.parse import urlunsplit

import httpx

from inspector.i18n import N_, _
from inspector.i18n.messages import Message, translate
from inspector.mcp.address_credentials import basic_authorization, has_authorization
from inspector.mcp.address_query import address_query, query_secrets, without_query
from inspector.mcp.connect_reasons import CONNECTION_REASONS, connection_reason
from inspector.mcp.messages import Message as ClientMessage
from inspector.mcp.secrets import Secrets, url_secrets
from inspector.mcp.url_parts import readable_parts
from inspector.mcp.user_info import without_user_info
from inspector.traces.redact import redact_text

TRACES_PATH = "/v1/traces"
#: How long one request may take (connecting, sending a large run, the collector's answer).
REQUEST_TIMEOUT_S = 30.0
#: The collector's words kept in a reason, at most.
REASON_CHARS = 300
#: The most of an answer's body read: its status decides; the body only gives a reason's words or a
#: partialSuccess (an answer of gigabytes, or one sent a byte at a time, is not read to its end).
ANSWER_BYTES = 64 * 1024
_RETRIED_STATUSES = frozenset({408, 429})
#: Our reasons for trying again later (kept in English, said by :func:`reason_said`).
UNREACHABLE = N_("cannot reach the collector: {reason}")
NO_ANSWER = N_("the collector did not answer in time")
#: A redirect the pusher does not follow: the collector's answer, then where it pointed.
REDIRECT = N_("{answer} (a redirect to {location}, not followed)")
_REDIRECT_MIDDLE, _REDIRECT_END = " (a redirect to ", ", not followed)"
#: Why a queued run was given up: it was deleted while it waited (kept in English, said by :func:`reason_said`).
REMOVED = N_("the run was removed before it was sent")
#: A 2xx whose ``partialSuccess`` rejected spans (then ``: `` and the collector's words, when it gave some).
PARTIAL = N_("the collector took the run but rejected {count} of its spans")
_PARTIAL_HEAD, _PARTIAL_END = PARTIAL.split("{count}")


class EndpointError(ValueError):
    """The collector address cannot be used (not http or https, no host, not read as an address: an unclosed
    ``[``, a port that is no number in range)."""


def traces_url(endpoint: str) -> str:
    """The address requests go to: ``endpoint`` itself when it names a path, else with ``/v1/traces``
    (as OTEL_EXPORTER_OTLP_ENDPOINT is read)."""
    parts = readable_parts(endpoint.strip())  # an unclosed "[", a port that is no number in range: no host
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise EndpointError(endpoint)
    path = parts.path if parts.path not in ("", "/") else TRACES_PATH
    return urlunsplit((parts.scheme, parts.netloc, path, parts.query, ""))


def collector_address(endpoint: str, headers: Mapping[str, str]) -> tuple[str, dict[str, str], str | None]:
    """The collector as the outbox keys it and messages name it (:func:`traces_url` without the
    ``user:password@`` or the query it may carry), the headers to send (``headers``, and that user info
    as ``Authorization: Basic`` when they name no ``Authorization`` themselves) and the query (``None``:
    none), which goes on the address only where requests are sent (:class:`~.pusher.Pusher`). The password
    and the query (a collector's API key, ``?api_key=…``) are sent, never stored or shown."""
    url = traces_url(endpoint)
    basic = basic_authorization(url)
    sent = dict(headers) if basic is None or has_authorization(headers) else {"Authorization": basic, **headers}
    return without_query(without_user_info(url)), sent, address_query(url)


@dataclass(frozen=True)
class Delivery:
    """What one request achieved: ``sent``, ``retry`` (later) or ``failed`` (for good)."""

    state: str
    reason: str = ""
    #: What the collector's Retry-After asked for (the raw header), on ``retry``.
    retry_after: str | None = None


def send(client: httpx.Client, url: str, body: bytes, headers: Mapping[str, str],
         deadline_s: float = REQUEST_TIMEOUT_S) -> Delivery:
    """POST one export request; never raises for what the network or the collector does. The answer's
    body is read for at most ``deadline_s`` seconds from the request's start (and :data:`ANSWER_BYTES`)."""
    until = time.monotonic() + deadline_s
    try:
        with client.stream("POST", url, content=body,
                           headers={**headers, "Content-Type": "application/json"}) as response:
            content = _answer_start(response, until)
    except httpx.TimeoutException:
        return Delivery("retry", NO_ANSWER)
    except httpx.TransportError as error:
        said = connection_reason(error)  # words, not "[Errno 111] Connection refused"
        reason = said if said is not None else _short(str(error) or type(error).__name__)
        return Delivery("retry", str(Message(UNREACHABLE, {"reason": reason})))
    # What the collector says may quote what it was sent (an API key it refuses): never kept, never shown.
    query = address_query(url)
    scrub = Secrets([*headers.values(), *url_secrets(url), *(query_secrets(query) if query else [])],
                    patterns=redact_text).scrub
    status = response.status_code
    if 200 <= status < 300:
        return Delivery("sent", _partial_success(content, scrub))
    said = _short(scrub(content.decode("utf-8", "replace")))
    reason = f"HTTP {status} {response.reason_phrase}".rstrip() + (f": {said}" if said else "")
    if status in _RETRIED_STATUSES or status >= 500:
        return Delivery("retry", reason, response.headers.get("Retry-After"))
    if 300 <= status < 400:
        location = _short(scrub(response.headers.get("Location", "")))
        reason = str(Message(REDIRECT, {"answer": reason, "location": location}))
    return Delivery("failed", reason)


def reason_said(reason: str) -> str:
    """A reason kept in the outbox (English) in the reader's language: our sentences said in its words
    (that the collector cannot be reached, and why, when the reason is one of ours; that it did not
    answer in time; that the run was removed; that a redirect was not followed; that the collector
    rejected some of the run's spans), anything else (the collector's answer) as it is."""
    if reason in (NO_ANSWER, REMOVED):
        return _(reason)
    count, end, words = reason.removeprefix(_PARTIAL_HEAD).partition(_PARTIAL_END)
    if reason.startswith(_PARTIAL_HEAD) and end and count.isdigit():  # the collector's words as they are
        return translate(Message(PARTIAL, {"count": int(count)})) + words
    answer, middle, location = reason.rpartition(_REDIRECT_MIDDLE)
    if middle and location.endswith(_REDIRECT_END):  # the collector's answer and address as they are
        return translate(Message(REDIRECT, {"answer": answer, "location": location[:-len(_REDIRECT_END)]}))
    head = UNREACHABLE.split("{reason}", 1)[0]
    if not reason.startswith(head):
        return reason
    why = reason[len(head):]
    known = next((ClientMessage(sentence) for sentence in CONNECTION_REASONS if sentence == why), None)
    return translate(Message(UNREACHABLE, {"reason": known if known is not None else why}))


def _answer_start(response: httpx.Response, until: float) -> bytes:
    """The body as far as it came by ``until`` (at most :data:`ANSWER_BYTES`): the status is the answer,
    so a body cut short or broken off after it changes nothing (a 2xx stays sent: sending the run again
    would store it twice where spans are not keyed by id)."""
    chunks, size = [], 0
    try:
        for chunk in response.iter_bytes():
            chunks.append(chunk)
            size += len(chunk)
            if size >= ANSWER_BYTES or time.monotonic() > until:
                break
    except httpx.HTTPError:
        pass
    return b"".join(chunks)[:ANSWER_BYTES]


def _partial_success(content: bytes, scrub: Callable[[str], str]) -> str:
    """The collector's word on spans it rejected although it answered 2xx ('' when none)."""
    try:
        answer = json.loads(content) if content else {}
    except ValueError:
        return ""  # a protobuf or empty answer: nothing rejected that we can read
    partial = answer.get("partialSuccess") if isinstance(answer, dict) else None
    if not isinstance(partial, dict):
        return ""
    try:
        rejected = int(partial.get("rejectedSpans", 0))  # an int64: a string in OTLP JSON
    except (TypeError, ValueError):
        return ""
    if rejected <= 0:
        return ""  # all kept (an errorMessage alone is a warning)
    said = _short(scrub(str(partial.get("errorMessage") or "")))
    return str(Message(PARTIAL, {"count": rejected})) + (f": {said}" if said else "")


def _short(text: str) -> str:
    """One line of at most :data:`REASON_CHARS` characters."""
    line = " ".join(text.split())
    return line if len(line) <= REASON_CHARS else line[:REASON_CHARS - 1] + "…"
