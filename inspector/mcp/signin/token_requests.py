"""One request to a token endpoint: who the client says it is, what is sent, what is read back.

The client authenticates as its registration says (RFC 6749 §2.3, RFC 7523 §2.2): ``none``
(``client_id`` in the form), ``client_secret_basic`` (HTTP Basic, id and secret form-encoded
first, §2.3.1), ``client_secret_post`` (both in the form), ``private_key_jwt`` (a signed
assertion). Credentials go only to the token endpoint of the issuer the client is registered
with, and only over HTTPS (plain HTTP on this computer's loopback for development and tests).

The answer comes from a server that is not ours: at most :data:`MAX_RESPONSE_BYTES` are read
(also after decompression: a small gzip cannot grow into gigabytes), it must be a JSON object,
and a refusal becomes a :class:`~.token_errors.TokenRequestError`. With DPoP, a
``use_dpop_nonce`` refusal that brings a new nonce is answered once more with a proof holding it
(RFC 9449 §8).
"""

from __future__ import annotations

import base64
import ipaddress
import zlib
from typing import Any
from urllib.parse import quote, urlsplit

import httpx

from ..connect_reasons import connection_reason
from ..messages import N_, Message, Number
from ..secrets import Secrets
from ..text import load_wire_json
from .model import AuthorizationServer, ClientIdentity
from .proofs import JWT_BEARER_ASSERTION_TYPE, DpopKey, KeyFormatError, client_assertion
from .token_errors import error_code, failed, quoted, refused, with_sent

#: The most bytes of a token endpoint's answer read (a token response is a few kilobytes).
MAX_RESPONSE_BYTES = 64 * 1024
#: The error with which an endpoint asks for a DPoP proof holding its nonce (RFC 9449 §8).
USE_DPOP_NONCE = "use_dpop_nonce"
_GZIP = ("gzip", "x-gzip")
_LIMIT_KIB = Number(MAX_RESPONSE_BYTES // 1024, str(MAX_RESPONSE_BYTES // 1024))


class _TooLarge(Exception):
    pass


class _Undecodable(Exception):
    """A ``Content-Encoding`` not read here, or a compressed body that does not decompress."""


def is_loopback(url: str) -> bool:
    """Is ``url``'s host this computer (``localhost``, 127.0.0.0/8, ``::1``)?"""
    host = (urlsplit(url).hostname or "").lower()
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def token_endpoint(server: AuthorizationServer, grant: str, secrets: Secrets) -> str:
    """The endpoint credentials may be sent to: named by the metadata, HTTPS or on loopback."""
    endpoint = server.token_endpoint
    if endpoint is None:
        raise failed(Message(N_("The authorization server {issuer} names no token endpoint in its metadata."),
                             {"issuer": server.issuer}), secrets, grant=grant)
    scheme = urlsplit(endpoint).scheme.lower()
    if scheme != "https" and not (scheme == "http" and is_loopback(endpoint)):
        raise failed(Message(N_("The token endpoint {endpoint} is neither HTTPS nor on this computer, so no "
                                "credentials are sent to it."), {"endpoint": endpoint}), secrets, grant=grant)
    return endpoint


def _form_encoded(value: str) -> str:
    # RFC 6749 §2.3.1: id and secret are form-encoded before Basic; %20 for a space is read
    # right by a form decoder and by a plain percent decoder alike (a "+" is not).
    return quote(value, safe="")


def authenticate(server: AuthorizationServer, client: ClientIdentity, *, grant: str,
                 secrets: Secrets) -> tuple[dict[str, str], dict[str, str], Secrets]:
    """The form fields and headers that authenticate ``client`` at ``server`` by its
    ``auth_method``, and ``secrets`` with what they carry."""
    if client.issuer != server.issuer:
        raise failed(Message(N_("The client {client_id} is registered with {client_issuer}, not with {issuer}: its "
                                "credentials are not sent there."),
                             {"client_id": client.client_id, "client_issuer": client.issuer,
                              "issuer": server.issuer}), secrets, grant=grant)
    method = client.auth_method
    if method in ("client_secret_basic", "client_secret_post") and not client.client_secret:
        raise failed(Message(N_("The client {client_id} authenticates with {method}, but no client secret is "
                                "known for it."), {"client_id": client.client_id, "method": method}),
                     secrets, grant=grant)
    if method == "client_secret_basic":
        pair = f"{_form_encoded(client.client_id)}:{_form_encoded(client.client_secret or '')}"
        header = "Basic " + base64.b64encode(pair.encode("utf-8")).decode("ascii")
        # client_id in the form too: RFC 6749 lets it be left out, but servers built on the MCP SDK
        # (and fastmcp) read it before the header and answer "Missing client_id" without it.
        return {"client_id": client.client_id}, {"Authorization": header}, with_sent(secrets, client.client_secret,
                                                                                     header)
    if method == "client_secret_post":
        return ({"client_id": client.client_id, "client_secret": client.client_secret or ""}, {},
                with_sent(secrets, client.client_secret))
    if method == "private_key_jwt":
        if not client.private_key_pem:
            raise failed(Message(N_("The client {client_id} authenticates with {method}, but no private key is "
                                    "known for it."), {"client_id": client.client_id, "method": method}),
                         secrets, grant=grant)
        try:
            assertion = client_assertion(client.client_id, server.issuer, client.private_key_pem)
        except KeyFormatError as exc:
            raise failed(exc.sentence, secrets, grant=grant) from None
        return ({"client_id": client.client_id, "client_assertion_type": JWT_BEARER_ASSERTION_TYPE,
                 "client_assertion": assertion}, {}, with_sent(secrets, assertion, client.private_key_pem))
    return {"client_id": client.client_id}, {}, secrets


def _decoded(raw: bytes, encoding: str) -> bytes:
    encoding = encoding.strip().lower()
    if encoding in ("", "identity"):
        return raw
    if encoding in (*_GZIP, "deflate"):
        wbits = 16 + zlib.MAX_WBITS if encoding in _GZIP else (zlib.MAX_WBITS if raw[:1] == b"\x78" else
                                                               -zlib.MAX_WBITS)
        try:
            body = zlib.decompressobj(wbits).decompress(raw, MAX_RESPONSE_BYTES + 1)
        except zlib.error:
            raise _Undecodable(encoding) from None
        if len(body) > MAX_RESPONSE_BYTES:
            raise _TooLarge
        return body
    raise _Undecodable(encoding)


async def _exchange(http: httpx.AsyncClient, endpoint: str, form: dict[str, str],
                    headers: dict[str, str]) -> tuple[int, httpx.Headers, bytes]:
    sent = {"Accept": "application/json", "Accept-Encoding": "identity", **headers}
    async with http.stream("POST", endpoint, data=form, headers=sent) as response:
        declared = response.headers.get("content-length", "").strip()
        if declared.isdigit() and int(declared) > MAX_RESPONSE_BYTES:
            raise _TooLarge
        raw = bytearray()
        async for chunk in response.aiter_raw():
            raw += chunk
            if len(raw) > MAX_RESPONSE_BYTES:
                raise _TooLarge
        return response.status_code, response.headers, bytes(raw)


def _parsed(body: bytes) -> dict[str, Any] | None:
    try:
        value = load_wire_json(body)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


async def post(http: httpx.AsyncClient, server: AuthorizationServer, endpoint: str, form: dict[str, str],
               headers: dict[str, str], *, grant: str, secrets: Secrets,
               dpop: DpopKey | None = None) -> dict[str, Any]:
    """POST ``form`` to ``endpoint``; the answer's JSON object when it holds no error, else a
    :class:`TokenRequestError` whose sentence is scrubbed of ``secrets``."""
    for attempt in range(2):
        sent = dict(headers)
        if dpop is not None:
            sent["DPoP"] = dpop.proof("POST", endpoint)
        try:
            status, answer_headers, raw = await _exchange(http, endpoint, form, sent)
            body = _decoded(raw, answer_headers.get("content-encoding", ""))
        except _TooLarge:
            raise failed(Message(N_("The token endpoint {endpoint} answered with more than {limit} KiB; the answer "
                                    "was not read."), {"endpoint": endpoint, "limit": _LIMIT_KIB}),
                         secrets, grant=grant) from None
        except _Undecodable as exc:
            raise failed(Message(N_("The token endpoint {endpoint} encoded its answer as {encoding}, which could "
                                    "not be read."), {"endpoint": endpoint, "encoding": quoted(str(exc), secrets, 40)}),
                         secrets, grant=grant) from None
        except httpx.TimeoutException:
            raise failed(Message(N_("The token endpoint {endpoint} did not answer in time."),
                                 {"endpoint": endpoint}), secrets, grant=grant) from None
        except (httpx.HTTPError, httpx.InvalidURL) as exc:
            reason = connection_reason(exc) or quoted(str(exc) or type(exc).__name__, secrets, 120)
            raise failed(Message(N_("The token endpoint {endpoint} could not be reached: {reason}."),
                                 {"endpoint": endpoint, "reason": reason}), secrets, grant=grant) from None
        payload = _parsed(body)
        code = error_code(payload.get("error"), secrets) if payload is not None else None
        challenged = dpop is not None and dpop.observe(endpoint, status, answer_headers)
        if challenged and code == USE_DPOP_NONCE and attempt == 0:
            continue  # once more, with the nonce the endpoint just gave
        if 300 <= status < 400:
            raise failed(Message(N_("The token endpoint {endpoint} answered with a redirect (HTTP {status}); token "
                                    "requests are not redirected."), {"endpoint": endpoint, "status": status}),
                         secrets, grant=grant, status=status)
        if payload is not None and code is not None and "access_token" not in payload:
            raise refused(endpoint, server.issuer, grant, code, status, payload.get("error_description"), secrets)
        if payload is None:
            raise failed(Message(N_("The token endpoint {endpoint} answered HTTP {status} with something that is "
                                    "not a JSON object."), {"endpoint": endpoint, "status": status}),
                         secrets, grant=grant, status=status)
        if not 200 <= status < 300:
            raise failed(Message(N_("The token endpoint {endpoint} answered HTTP {status} without an OAuth error "
                                    "code."), {"endpoint": endpoint, "status": status}),
                         secrets, grant=grant, status=status)
        return payload
    raise AssertionError("unreachable: the second attempt always returns or raises")


__all__ = ["MAX_RESPONSE_BYTES", "USE_DPOP_NONCE", "authenticate", "is_loopback", "post", "token_endpoint"]
