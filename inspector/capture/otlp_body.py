"""The bodies of OTLP/HTTP trace requests and answers: protobuf or JSON, maybe gzip. No sockets.

A request (``ExportTraceServiceRequest``) becomes a list of :class:`~inspector.traces.span_batch.HeldSpan`:
each span as OTLP JSON (ids in hex, as the OTLP JSON encoding writes them) with the resource and
scope objects it came under, whatever the encoding it arrived in. Nothing is trusted: sizes are
bounded before and after unpacking, and a body that is not what it claims is a :class:`BadBody`.
"""

from __future__ import annotations

import json
import re
import zlib
from collections.abc import Iterator, Mapping
from typing import Any

from inspector.i18n import N_
from inspector.i18n.messages import Message
from inspector.mcp.secrets import Secrets
from inspector.runs.nesting import nested_deeper
from inspector.traces.format import MAX_RECORD_BYTES, format_path
from inspector.traces.json_reasons import TOO_MANY_DIGITS, parser_reason
from inspector.traces.span_batch import HeldSpan
from inspector.traces.wide_text import wide_encoding

PROTOBUF = "application/x-protobuf"
JSON = "application/json"
CONTENT_TYPES = (PROTOBUF, JSON)

MAX_BODY_BYTES = 16 * 1024 * 1024
"""The largest body taken as it travels (the OpenTelemetry Collector's default limit is 20 MiB;
an SDK's batch of 512 spans is a few hundred KiB)."""
MAX_UNPACKED_BYTES = 64 * 1024 * 1024
"""The largest body a gzip body may unpack to: a small body that unpacks to more is a gzip bomb."""
MAX_JSON_DEPTH = 64
"""Deepest nesting of a JSON body (an attribute value may nest; a span's own fields need 8 levels)."""
MAX_REQUEST_ESTIMATE = 512_000_000
"""The most memory a request's spans may take as Python objects, estimated as an import estimates a
record (160 bytes an object or list): a body within its 64 MiB of tiny attributes grows about forty
times (a 10 MB gzip body of one span with 3 million attributes took 2.6 GB and 36 s before). 400,000
tiny spans (a 1 MiB gzip body) are about 360 MB of it."""
OBJECT_ESTIMATE = 160
"""An object or list, as the importer counts it (MAX_RECORD_BYTES)."""
VALUE_ESTIMATE = 48
"""A value after a comma in a JSON body, as the importer counts a string without its characters: a short string
takes 59 bytes in its list, a number 32 (a 58 KB gzip body of 15 million numbers took 1.8 GB and 20 s)."""
class BadBody(Exception):
    """A body that cannot be used; ``sentence`` says why (the answer's Status message), ``status``
    is the HTTP status to answer with."""

    def __init__(self, sentence: Message, status: int = 400) -> None:
        super().__init__(str(sentence))
        self.sentence = sentence
        self.status = status


def media_type(header: str | None) -> str:
    """``application/json; charset=utf-8`` → ``application/json``."""
    return (header or "").split(";", 1)[0].strip().lower()


def unpack(body: bytes, encoding: str | None) -> bytes:
    """The body without its content encoding (none, ``identity``, ``gzip`` or ``deflate``: zlib's format, as
    HTTP names it and the OpenTelemetry Python SDK's exporter sends it), at most :data:`MAX_UNPACKED_BYTES` of it."""
    coding = (encoding or "identity").strip().lower()
    if coding == "identity":
        return body
    if coding not in _WINDOW_BITS:
        raise BadBody(Message(N_("The content encoding {encoding} is not supported: send the body as it is, "
                                 "gzip- or deflate-compressed."), {"encoding": repr(coding[:40])}), 415)
    try:
        return _inflated(body, coding)
    except zlib.error as error:
        raise BadBody(Message(N_("The body is not valid {encoding} ({reason})."),
                              {"encoding": coding, "reason": str(error)})) from None


def _inflated(body: bytes, coding: str) -> bytes:
    """``body`` inflated: every member of a gzip body (``cat a.gz b.gz``, as gzip reads it; only the first was
    read before, the rest taken for trailing bytes), deflate's one stream; at most :data:`MAX_UNPACKED_BYTES`
    in all. The first member is given the whole body, as before; a later one a growing piece at a time, so
    what it leaves over (zlib copies it) is short, never the rest of the body again (16 MiB of empty members,
    838,000 of them, take 1.5 s)."""
    pieces: list[bytes] = []
    view, at, feed, size = memoryview(body), 0, len(body), 0
    while True:  # a member a round
        inflater = zlib.decompressobj(_WINDOW_BITS[coding])
        while not inflater.eof:
            if at >= len(view):
                raise BadBody(Message(N_("The {encoding} body ends before its end: it was cut short."),
                                      {"encoding": coding}))
            piece = view[at:at + feed]
            at, feed = at + len(piece), min(feed * 2, _MOST_FEED)
            pieces.append(inflater.decompress(piece, MAX_UNPACKED_BYTES + 1 - size))
            size += len(pieces[-1])
            if size > MAX_UNPACKED_BYTES or inflater.unconsumed_tail:
                raise BadBody(Message(N_("The {encoding} body unpacks to more than {limit} MiB and was refused (a "
                                         "request is at most {limit} MiB unpacked)."),
                                      {"encoding": coding, "limit": MAX_UNPACKED_BYTES // 1024 // 1024}), 413)
        at -= len(inflater.unused_data)
        if coding != "gzip" or at >= len(view):
            return b"".join(pieces)
        feed = _FIRST_FEED


_FIRST_FEED, _MOST_FEED = 256, 64 * 1024
"""How much of the body a later gzip member's reader is given first, and at most (doubling meanwhile)."""


#: The content encodings taken, and the window bits of zlib's reader for each (gzip's header, zlib's).
_WINDOW_BITS = {"gzip": 16 + zlib.MAX_WBITS, "deflate": zlib.MAX_WBITS}


def read_request(body: bytes, content_type: str, refused: list[Message] | None = None) -> list[HeldSpan]:
    """The spans of an ``ExportTraceServiceRequest`` in ``content_type``'s encoding (unpacked).

    A span larger than an import takes (:data:`MAX_RECORD_BYTES`, estimated as an import estimates a
    record; a protobuf span before it is built) is left out and said in ``refused`` (without that list:
    the body is refused, 413); a body whose spans would take more than :data:`MAX_REQUEST_ESTIMATE` is
    refused (413) before they are built."""
    if content_type == PROTOBUF:
        from .otlp_protobuf import from_protobuf

        return from_protobuf(body, [] if refused is None else refused, strict=refused is None)
    if json_estimate(body) > MAX_REQUEST_ESTIMATE:
        raise too_many_objects()
    spans = _from_json(body)
    if len(body) * _MOST_PER_BYTE <= MAX_RECORD_BYTES:
        return spans  # too short to hold a span that large (the common case: nothing to count)
    return _within_limit(spans, refused)


def json_estimate(body: bytes) -> int:
    """What a JSON body would take in memory once read, told before it is read (as the importer estimates a
    record): its objects and lists by their brackets, its other values by the commas before them."""
    return (body.count(b"{") + body.count(b"[")) * OBJECT_ESTIMATE + body.count(b",") * VALUE_ESTIMATE


def span_too_big(index: int) -> Message:
    """What is said of the span at ``index`` of a request when it is larger than an import takes."""
    return Message(N_("spans[{index}]: the span is larger than the limit of {limit} MB (estimated in memory)"),
                   {"index": index, "limit": MAX_RECORD_BYTES // 1_000_000})


def too_many_objects() -> BadBody:
    """The refusal of a body whose spans would take more than :data:`MAX_REQUEST_ESTIMATE`."""
    sentence = N_("The body holds more spans and attributes than the receiver builds at once (over {limit} MB in "
                  "memory): send smaller batches.")
    return BadBody(Message(sentence, {"limit": MAX_REQUEST_ESTIMATE // 1_000_000}), 413)


# -- JSON ---------------------------------------------------------------------------------------------

_MOST_PER_BYTE = OBJECT_ESTIMATE // 2
"""The most a byte of JSON can add to a record's estimate (``[]``: two bytes, one list)."""


def _within_limit(spans: list[HeldSpan], refused: list[Message] | None) -> list[HeldSpan]:
    """The spans an import would take: one whose estimate passes :data:`MAX_RECORD_BYTES` is said in
    ``refused`` and left out (without ``refused``: the body is refused, 413), as the protobuf path does."""
    kept = []
    for index, held in enumerate(spans):
        if _estimate(held.span) <= MAX_RECORD_BYTES:
            kept.append(held)
        elif refused is None:
            raise BadBody(span_too_big(index), 413)
        else:
            refused.append(span_too_big(index))
    return kept


def _estimate(record: Any) -> int:
    """The memory an import estimates ``record`` takes (:data:`MAX_RECORD_BYTES`: 160 a list or object, 8
    plus its characters a key, 48 plus its characters a string, 24 any other value); counting stops
    once past the limit."""
    total, stack = 0, [record]
    while stack and total <= MAX_RECORD_BYTES:
        value = stack.pop()
        if isinstance(value, dict):
            total += OBJECT_ESTIMATE + sum(8 + len(key) for key in value)
            stack.extend(value.values())
        elif isinstance(value, list):
            total += OBJECT_ESTIMATE
            stack.extend(value)
        elif isinstance(value, str):
            total += 48 + len(value)
        else:
            total += 24
    return total

#: Python's words for a whole number of more digits than int() reads ("Exceeds the limit (4300 digits) for integer
#: string conversion: ..."); a hook per number to count them would take as long again as the parse.
_INT_DIGITS = "for integer string conversion"


def _not_json(name: str) -> None:
    """json.loads takes NaN and Infinity for numbers; JSON has neither (an import refuses them), and
    neither can be stored or exported (a run holding one could no longer be exported)."""
    raise ValueError(f"{name} is not a JSON value")


def _utf8_text(body: bytes) -> str:
    """The body as text. JSON is UTF-8, as an import reads it: json.loads reads bytes as UTF-16 or UTF-32 too
    (their zero bytes tell), and UTF-8's shape of a lone surrogate ("\\xed\\xb0\\x80", which no text holds and
    SQLite refused: 500), both refused here. A UTF-8 byte order mark is skipped, as json.loads and an import do."""
    wide = wide_encoding(body[:4])
    if wide is not None:
        raise BadBody(Message(N_("The body is {encoding} text, not UTF-8: send the JSON as UTF-8."),
                              {"encoding": wide}))
    try:
        return body.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise BadBody(Message(N_("The body is not UTF-8 text (at byte {offset}): send the JSON as UTF-8."),
                              {"offset": error.start})) from None


def _from_json(body: bytes) -> list[HeldSpan]:
    text = _utf8_text(body)
    try:
        document = json.loads(text, parse_constant=_not_json)
    except RecursionError:
        raise BadBody(Message(N_("The JSON body nests too deeply."))) from None
    except ValueError as error:
        # Python's int() past its digits (its advice, sys.set_int_max_str_digits(), means nothing to the sender):
        # said in the words an import says it with
        reason = parser_reason(TOO_MANY_DIGITS) if _INT_DIGITS in str(error) else str(error)[:200]
        raise BadBody(Message(N_("The body is not valid JSON ({reason})."), {"reason": reason})) from None
    if nested_deeper(document, MAX_JSON_DEPTH, scalars_count=True):  # the top 1, a scalar inside 2
        raise BadBody(Message(N_("The JSON body nests more than {depth} levels deep."), {"depth": MAX_JSON_DEPTH}))
    if not isinstance(document, Mapping):
        raise BadBody(Message(N_("The body must be a JSON object (an ExportTraceServiceRequest).")))
    if _SURROGATE_ESCAPE.search(body):
        _refuse_lone_surrogates(document)
    spans: list[HeldSpan] = []
    for resource_spans in _list(document.get("resourceSpans"), "resourceSpans"):
        resource_spans = _object(resource_spans, "resourceSpans[]")
        resource = resource_spans.get("resource") or {}
        for scope_spans in _list(resource_spans.get("scopeSpans"), "scopeSpans"):
            scope_spans = _object(scope_spans, "scopeSpans[]")
            scope = scope_spans.get("scope") or {}
            for span in _list(scope_spans.get("spans"), "spans"):
                spans.append(HeldSpan(resource, scope, _object(span, "spans[]")))
    return spans


# json.loads takes "\udc00" for a character; an import (yajl) refuses it as not text, and SQLite cannot store
# it (the body was answered 500 with a UnicodeEncodeError). Looked for only where the bytes spell one.
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _refuse_lone_surrogates(document: Mapping[str, Any]) -> None:
    """Refuse the body, naming the first place, when a string (or key) of it holds a lone surrogate: a
    pair of them json.loads makes one character, so one left is alone. The lists and objects on the way
    down are held, never a list's items with their places (ten million numbers before one such string made
    as many places: 2.9 GB and 89 s)."""
    path: list[str | int] = []
    stack = [_places(document, path)]
    while stack:
        place = next(stack[-1], None)
        if place is None:
            stack.pop()
            if stack:
                path.pop()
            continue
        key, value = place
        if isinstance(value, str):
            if _LONE_SURROGATE.search(value):
                raise _not_text([*path, key])
        elif isinstance(value, (dict, list)):
            path.append(key)
            stack.append(_places(value, path))


def _places(container: Mapping[str, Any] | list[Any], path: list[str | int]) -> Iterator[tuple[str | int, Any]]:
    """The keys (or indexes) and values of ``container``, found at ``path``; its keys looked at first."""
    if isinstance(container, Mapping):
        if any(_LONE_SURROGATE.search(key) for key in container):
            raise _not_text(path)
        return iter(container.items())
    return enumerate(container)


def _not_text(path: list[str | int]) -> BadBody:
    return BadBody(Message(N_("The body holds a string that is not text (an escaped lone surrogate) at {place}: "
                              "nothing of it was stored."), {"place": format_path(tuple(path)) or "the top"}))


def _list(value: Any, name: str) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise BadBody(Message(N_("{field} must be a list."), {"field": name}))
    return value


def _object(value: Any, name: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise BadBody(Message(N_("Each item of {field} must be an object."), {"field": name}))
    return value


def without_secrets(spans: list[HeldSpan], secrets: Secrets, body: bytes) -> list[HeldSpan]:
    """``spans`` (read from the unpacked ``body``) with ``secrets`` (the receiver's own token) cut out
    of every string: a span that quotes the request's headers must not keep the token. Walked only
    when the body's text can hold one of them (a substring search, once); each resource and scope
    object shared by many spans is scrubbed once."""
    if not secrets or not spans:
        return spans
    probe: list[Any] = []
    if secrets.scrub_parsed(probe, body) is probe:  # the text holds no shape of a secret
        return spans
    done: dict[int, Any] = {}

    def once(value: Mapping[str, Any]) -> Any:
        if id(value) not in done:
            done[id(value)] = secrets.scrub_json(value)
        return done[id(value)]

    return [HeldSpan(once(held.resource), once(held.scope), secrets.scrub_json(held.span)) for held in spans]


# -- answers ------------------------------------------------------------------------------------------

def success_body(content_type: str, rejected: int = 0, message: str = "") -> bytes:
    """An ``ExportTraceServiceResponse``: empty when every span was taken, else its ``partial_success``."""
    if content_type == PROTOBUF:
        from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
            ExportTracePartialSuccess,
            ExportTraceServiceResponse,
        )

        response = ExportTraceServiceResponse()
        if rejected or message:
            response.partial_success.CopyFrom(ExportTracePartialSuccess(rejected_spans=rejected,
                                                                        error_message=message))
        return response.SerializeToString()
    document: dict[str, Any] = {}
    if rejected or message:
        document["partialSuccess"] = {"rejectedSpans": str(rejected), "errorMessage": message}
    return json.dumps(document).encode()


#: google.rpc.Code INVALID_ARGUMENT, the code of a Status answering a request that cannot be used.
INVALID_ARGUMENT = 3


def status_body(content_type: str, message: str, code: int = INVALID_ARGUMENT) -> bytes:
    """A ``google.rpc.Status`` (what OTLP/HTTP answers an error with) in the request's encoding;
    JSON for a request whose encoding is not known. Encoded by hand: two fields, no dependency."""
    if content_type == PROTOBUF:
        text = message.encode()
        return b"\x08" + _varint(code) + b"\x12" + _varint(len(text)) + text
    return json.dumps({"code": code, "message": message}).encode()


def _varint(number: int) -> bytes:
    out = bytearray()
    while True:
        low, number = number & 0x7F, number >> 7
        out.append(low | (0x80 if number else 0))
        if not number:
            return bytes(out)
