"""Open a trace by its id from a team's Jaeger or Tempo, through the normal OTLP import.

``GET {base}/api/v3/traces/{id}`` (Jaeger: OTLP JSON wrapped as ``{"result": {...}}``, one such
object per line when streamed) or ``GET {base}/api/traces/{id}`` (Tempo: ``{"batches": [...]}`` in
older versions, ``resourceSpans`` in newer ones, ``{"trace": {...}}`` from its v2 API). The answer is
bounded (:data:`MAX_TRACE_BYTES`), redirects are not followed, and the trace, unwrapped, is kept
as a file in the cache folder: the import reads that file (checking all of it before anything is
written) and a second open of the same id reads it again instead of asking the backend.
"""

from __future__ import annotations

import hashlib
import re
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlunsplit

import httpx

from inspector.i18n import N_
from inspector.i18n.messages import Message
from inspector.i18n.os_reasons import os_reason
from inspector.mcp.address_query import without_query
from inspector.mcp.connect_reasons import connection_reason
from inspector.mcp.url_parts import readable_parts
from inspector.mcp.user_info import address_shown
from inspector.store import RunStore
from inspector.traces.format import TraceError, TraceImportError, dump_json
from inspector.traces.writer import replacing
from inspector.transfer import ImportReport, import_trace
from inspector.transfer.importing import Progress

from .otlp_body import MAX_REQUEST_ESTIMATE, json_estimate
from .trace_shapes import NotOtlpError, otlp_document, trace_ids_in

#: The kinds of query service, and the path of one trace in each.
BACKENDS = {"jaeger": "/api/v3/traces/{id}", "tempo": "/api/traces/{id}"}
#: A trace answer larger than this (64 MiB) is refused before it is all read.
MAX_TRACE_BYTES = 64 * 1024 * 1024
REQUEST_TIMEOUT_S = 30.0
#: The whole answer must arrive within this (a service sending a byte now and then, each within the
#: request timeout, is not waited for without end).
ANSWER_DEADLINE_S = 300.0
#: The folder beside the run database where pulled traces are kept.
CACHE_FOLDER = "pulled-traces"
_TRACE_ID = re.compile(r"[0-9a-fA-F]{1,32}")


class PullError(TraceError):
    """The trace could not be opened; ``sentence`` says why and what to do. Nothing was imported."""


@dataclass(frozen=True)
class PulledTrace:
    """What opening a trace by id did: the import's report, and whether the cache answered."""

    trace_id: str
    report: ImportReport
    cached: bool
    path: Path


def trace_id_of(text: str) -> str:
    """The 32 hex digits of a trace id as typed (a shorter one, e.g. 64-bit, is padded with zeros)."""
    value = text.strip()
    if not _TRACE_ID.fullmatch(value) or not value.strip("0"):
        raise PullError(Message(N_("{value} is not a trace id: a trace id is up to 32 hexadecimal digits, "
                                   "e.g. 4bf92f3577b34da6a3ce929d0e0e4736."), {"value": repr(value[:80])}))
    return value.lower().rjust(32, "0")


def trace_query_url(backend: str, base: str, trace_id: str) -> str:
    """Where ``backend`` at ``base`` answers for the trace ``trace_id`` (already checked)."""
    if backend not in BACKENDS:
        raise ValueError(f"unknown trace backend {backend!r}; use one of {list(BACKENDS)}")
    address = base.strip()
    # An unclosed "[" of an IPv6 host, a port that is no number in range: no host.
    parts = readable_parts(address) if re.match(r"https?://[^/\s]+", address) else None
    if parts is None or not parts.hostname:
        raise PullError(Message(N_("{address} is not a query address: give the http:// or https:// address of "
                                   "the Jaeger or Tempo query service, e.g. http://127.0.0.1:16686."),
                                {"address": repr(_shown(address)[:200])}))
    # The trace's path goes before a query the address carries (``?token=…``, a gateway's key), not after it.
    path = parts.path.rstrip("/") + BACKENDS[backend].format(id=trace_id)
    return urlunsplit((parts.scheme, parts.netloc, path, parts.query, ""))


def cache_path(cache_dir: Path, backend: str, base: str, trace_id: str) -> Path:
    """The cached file of one trace of one backend."""
    where = hashlib.sha256(f"{backend} {base.strip().rstrip('/')}".encode()).hexdigest()[:10]
    return cache_dir / f"{backend}-{trace_id}-{where}.json"


def pull_trace(store: RunStore, backend: str, base: str, trace_text: str, cache_dir: Path,
               headers: Mapping[str, str] | None = None, *, limit: int = MAX_TRACE_BYTES,
               timeout_s: float = REQUEST_TIMEOUT_S, deadline_s: float = ANSWER_DEADLINE_S,
               progress: Progress | None = None) -> PulledTrace:
    """Open the trace ``trace_text`` of ``backend`` at ``base`` into ``store`` (cached in ``cache_dir``)."""
    trace_id = trace_id_of(trace_text)
    url = trace_query_url(backend, base, trace_id)
    path = cache_path(cache_dir, backend, base, trace_id)
    cached = path.is_file()
    if not cached:
        document = _fetch_document(backend, url, trace_id, headers or {}, limit, (timeout_s, deadline_s))
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            with replacing(path) as out:
                out.write(dump_json(document))
        except OSError as error:
            raise PullError(Message(N_("The trace could not be kept in {folder} ({reason}). Nothing was imported."),
                                    {"folder": cache_dir, "reason": os_reason(error)})) from None
    try:
        report = import_trace(store, path, progress)
    except TraceImportError as error:
        path.unlink(missing_ok=True)  # never cache what cannot be imported
        raise PullError(Message(N_("The trace {id} from {url} is not a trace Run Inspector can read: {reason}"),
                                {"id": trace_id, "url": _shown(url), "reason": error.sentence})) from None
    return PulledTrace(trace_id, report, cached, path)


def _fetch_document(backend: str, url: str, trace_id: str, headers: Mapping[str, str], limit: int,
                    times: tuple[float, float]) -> dict[str, Any]:
    body = _fetch(url, trace_id, headers, limit, times)
    if json_estimate(body) > MAX_REQUEST_ESTIMATE:
        # Read whole, such an answer would take gigabytes (64 MB of "{}" took 1.7 GB before).
        raise PullError(Message(N_("The answer of {url} holds more objects than can be read at once (over {size} MB "
                                   "in memory). Nothing was imported."),
                                {"url": _shown(url), "size": MAX_REQUEST_ESTIMATE // 1_000_000}))
    try:
        document = otlp_document(backend, body)
    except NotOtlpError as error:
        raise PullError(Message(N_("{url} answered, but not with an OpenTelemetry trace ({reason}). Check that "
                                   "the query address is a {backend} query service. Nothing was imported."),
                                {"url": _shown(url), "reason": error.sentence,
                                 "backend": backend.capitalize()})) from None
    named = trace_ids_in(document)
    if named and trace_id not in named:  # a gateway or cache that mixed up its answers: not kept under this id
        raise PullError(Message(N_("{url} answered with the spans of another trace ({other}), none of trace {id}. "
                                   "Nothing was imported."),
                                {"url": _shown(url), "other": ", ".join(sorted(named)[:3]), "id": trace_id}))
    return document


def _fetch(url: str, trace_id: str, headers: Mapping[str, str], limit: int, times: tuple[float, float]) -> bytes:
    asked = {"Accept": "application/json", **headers}
    timeout_s, deadline_s = times
    until = time.monotonic() + deadline_s
    try:
        with httpx.Client(timeout=timeout_s, follow_redirects=False, trust_env=False) as client, \
                client.stream("GET", url, headers=asked) as response:
            _check_status(response, url, trace_id)
            declared = response.headers.get("Content-Length", "")
            if declared.isdigit() and int(declared) > limit:
                raise _too_big(url, limit)
            chunks, size = [], 0
            for chunk in response.iter_bytes():
                size += len(chunk)
                if size > limit:
                    raise _too_big(url, limit)
                if time.monotonic() > until:
                    raise PullError(Message(N_("{url} did not send its whole answer within {seconds} s. Nothing "
                                               "was imported."), {"url": _shown(url), "seconds": f"{deadline_s:g}"}))
                chunks.append(chunk)
            return b"".join(chunks)
    except httpx.TimeoutException:
        raise PullError(Message(N_("{url} did not answer in time. Nothing was imported."),
                                {"url": _shown(url)})) from None
    except httpx.DecodingError:  # it was reached: its answer is not packed as its Content-Encoding says
        raise PullError(Message(N_("{url} answered, but its answer cannot be unpacked as its Content-Encoding "
                                   "header says (the answer is damaged, or a proxy changed it). Nothing was "
                                   "imported."), {"url": _shown(url)})) from None
    except httpx.HTTPError as error:
        reason = connection_reason(error) or (
            # httpx's own words ("Server disconnected without sending a response.") are English only.
            Message(N_("the query service closed the connection without an answer"), {})
            if isinstance(error, httpx.RemoteProtocolError) and "disconnected" in str(error).lower()
            else str(error) or type(error).__name__)
        raise PullError(Message(N_("{url} cannot be reached: {reason}. Check the query address. "
                                   "Nothing was imported."), {"url": _shown(url), "reason": reason})) from None


def _check_status(response: httpx.Response, url: str, trace_id: str) -> None:
    status = response.status_code
    if status == 200:
        return
    if status == 404:
        raise PullError(Message(N_("There is no trace {id} at {url} (HTTP 404). Check the id and the query "
                                   "address; nothing was imported."), {"id": trace_id, "url": _shown(url)}))
    if 300 <= status < 400:
        raise PullError(Message(N_("{url} answered with a redirect to {location} (HTTP {status}), which is not "
                                   "followed: query the address it names instead if you trust it. Nothing was "
                                   "imported."), {"url": _shown(url), "status": status,
                                                  "location": _shown(response.headers.get("Location", "?"))[:300]}))
    raise PullError(Message(N_("{url} answered HTTP {status} instead of the trace. Nothing was imported."),
                            {"url": _shown(url), "status": status}))


def _shown(url: str) -> str:
    """The query address as sentences name it: without a ``user:password@`` or a query it may carry (as Run
    Inspector names any server), so that no message, log line or dialog repeats the password or a key."""
    return without_query(address_shown(url))


def _too_big(url: str, limit: int) -> PullError:
    return PullError(Message(N_("The answer of {url} is larger than {size} MB and was not read to the end. "
                                "Nothing was imported."), {"url": _shown(url), "size": limit // (1024 * 1024)}))


__all__ = ["BACKENDS", "CACHE_FOLDER", "MAX_TRACE_BYTES", "PullError", "PulledTrace", "cache_path", "pull_trace",
           "trace_id_of", "trace_query_url"]
