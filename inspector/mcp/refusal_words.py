"""The sentences of a server that said no: an HTTP status (a redirect not followed, credentials
refused or never sent), a sign-in it wants or one that failed, a JSON-RPC error (the stateless
era's own codes said in words), a session it no longer knows.

Each function gives the whole sentence of one :class:`~.errors.McpTransportError` factory, which
picks the kind; the words are here, and what the server sent is clipped and made safe first.
"""

from __future__ import annotations

from typing import Any

from .messages import N_, NP_, Message
from .sanitize import inside_a_sentence, sanitize_remote_text

#: The stateless era's own error codes (2026-07-28), said in words rather than by number alone.
HEADER_MISMATCH = -32020
MISSING_CLIENT_CAPABILITY = -32021
UNSUPPORTED_PROTOCOL_VERSION = -32022
#: The error codes only a server of the stateless era sends.
STATELESS_ERRORS = (HEADER_MISMATCH, MISSING_CLIENT_CAPABILITY, UNSUPPORTED_PROTOCOL_VERSION)
#: JSON-RPC's "method not found": a server of the stateless era answers ``initialize`` so (on HTTP, with 404).
METHOD_NOT_FOUND = -32601


def http_status(server: str, method: str, status: int, reason: str, location: str | None, *,
                credentials: bool, in_address: bool = False) -> Message:
    reason = sanitize_remote_text(reason, 80) if reason else ""
    params: dict[str, object] = {"server": server, "method": method, "status": status, "reason": reason}
    if 300 <= status < 400 and location:
        params["location"] = sanitize_remote_text(location, 120)
        template = (N_("The server {server} answered {method} with HTTP status {status} ({reason}). Redirects "
                       "are not followed, so that credentials never reach another host; it pointed to "
                       "{location}.") if reason else
                    N_("The server {server} answered {method} with HTTP status {status}. Redirects are not "
                       "followed, so that credentials never reach another host; it pointed to {location}."))
    elif 300 <= status < 400:
        template = (N_("The server {server} answered {method} with HTTP status {status} ({reason}). Redirects "
                       "are not followed, so that credentials never reach another host.") if reason else
                    N_("The server {server} answered {method} with HTTP status {status}. Redirects are not "
                       "followed, so that credentials never reach another host."))
    elif status in (401, 403) and not credentials:
        template = (N_("The server {server} answered {method} with HTTP status {status} ({reason}). It was "
                       "sent no credentials: if it needs some, give them as the server's headers, or sign "
                       "in.") if reason else
                    N_("The server {server} answered {method} with HTTP status {status}. It was sent no "
                       "credentials: if it needs some, give them as the server's headers, or sign in."))
    elif status in (401, 403) and in_address:
        template = (N_("The server {server} answered {method} with HTTP status {status} ({reason}). The "
                       "server refused the user name and password of its address (sent as HTTP Basic); check "
                       "them.") if reason else
                    N_("The server {server} answered {method} with HTTP status {status}. The server refused the "
                       "user name and password of its address (sent as HTTP Basic); check them."))
    elif status in (401, 403):
        template = (N_("The server {server} answered {method} with HTTP status {status} ({reason}). The "
                       "server refused the credentials; check the headers configured for it.") if reason else
                    N_("The server {server} answered {method} with HTTP status {status}. The server refused "
                       "the credentials; check the headers configured for it."))
    else:
        template = (N_("The server {server} answered {method} with HTTP status {status} ({reason}).")
                    if reason else N_("The server {server} answered {method} with HTTP status {status}."))
    return Message(template, params)


#: Said after an address's refusal of ``initialize`` (HTTP 404 or 405) when it opens no event stream
#: of the older transport either: most often the address's path is wrong (the server's root, a typo).
NO_SERVER_AT_ADDRESS = Message(N_("It opens no event stream of the older HTTP+SSE transport either: no MCP server "
                                  "answers at this address. Check the address's path (servers often answer at /mcp, "
                                  "those of the older transport at /sse)."))


def unkept_secrets(server: str, method: str, status: int, headers: list[str]) -> Message:
    """The server refused a request sent without secret headers of its settings whose values no keyring
    kept (the window, after a restart without a keyring): they are to be given again."""
    return NP_("The server {server} answered {method} with HTTP status {status}: its secret header {names} was "
               "not sent, as no system keyring kept its value. Give it again: press Edit… with the server selected.",
               "The server {server} answered {method} with HTTP status {status}: its secret headers {names} were "
               "not sent, as no system keyring kept their values. Give them again: press Edit… with the server "
               "selected.",
               {"server": server, "method": method, "status": status, "names": ", ".join(headers),
                "count": len(headers)}, "count")


def signin_required(server: str, method: str, status: int, challenge: Any, *, sent_token: bool) -> Message:
    scope = sanitize_remote_text(getattr(challenge, "scope", None) or "", 120)
    params: dict[str, object] = {"server": server, "method": method, "status": status, "scope": scope}
    if status == 403 and scope:
        template = N_("The server {server} needs a larger scope ({scope}) for {method} (HTTP status {status}): "
                      "sign in again to grant it.")
    elif status == 403:
        template = N_("The server {server} refused {method} to this sign-in (HTTP status {status}): the signed-in "
                      "account may not use it.")
    elif sent_token:
        template = N_("The server {server} refused the sign-in sent with {method} (HTTP status {status}): it has "
                      "expired or was withdrawn. Sign in again.")
    else:
        template = N_("The server {server} needs a sign-in for {method} (HTTP status {status}). Sign in to it "
                      "and try again.")
    return Message(template, params)


def signin_failed(server: str, step: str, reason: Message, *, whole: bool) -> Message:
    from .signin.flow import STEP_WORDS  # the flow raises these: imported when one is made

    template = (N_("Signing in to {server} failed at the step “{step}”. {reason}") if whole else
                N_("Signing in to {server} failed at the step “{step}”: {reason}."))
    named = Message(STEP_WORDS[step]) if step in STEP_WORDS else step
    return Message(template, {"server": server, "step": named, "reason": reason})


def refresh_kept(server: str) -> Message:
    """Said after a refresh of the sign-in that failed but was not refused: what stays, and the way on."""
    return Message(N_("The sign-in is kept, and the next operation tries to refresh it again; if this keeps "
                      "failing, sign in again (the window's Sign in, or: run-inspector signin \"{server}\")."),
                   {"server": server})


def rpc_error(server: str, method: str, code: int, message: str, data: Any, *,
              code_sent: str | None = None) -> Message:
    """``code_sent``: the error's code as the server sent it, when it is not an integer (JSON text: ``"x"``)."""
    detail = inside_a_sentence(sanitize_remote_text(message))
    params: dict[str, object] = {"server": server, "method": method, "code": code, "detail": detail}
    if code_sent is not None:
        params["sent"] = sanitize_remote_text(code_sent, 48)
        template = (N_("The server {server} rejected {method} with a JSON-RPC error whose code, {sent}, is not an "
                       "integer: {detail}.") if detail else
                    N_("The server {server} rejected {method} with a JSON-RPC error whose code, {sent}, is not an "
                       "integer: no message."))
    elif (worded := _worded_rpc_error(code, data, params)) is not None:
        template = worded
    else:
        template = (N_("The server {server} rejected {method} with JSON-RPC error {code}: {detail}.") if detail
                    else N_("The server {server} rejected {method} with JSON-RPC error {code}: no message."))
    return Message(template, params)


def session_expired(server: str, method: str) -> Message:
    return Message(N_("The server {server} no longer knows the session of this operation "
                      "(HTTP 404 on {method}), also after one fresh start."),
                   {"server": server, "method": method})


def _listed(value: Any) -> str:
    """A list the server sent (versions, capabilities), as clipped plain text."""
    if isinstance(value, list):
        items = [sanitize_remote_text(str(item), 40) for item in value[:10]]
        return ", ".join(item for item in items if item) or "(none)"
    if isinstance(value, dict):
        return _listed(list(value))
    return "(none)"


def _worded_rpc_error(code: int, data: Any, params: dict[str, object]) -> str | None:
    """The sentence template of an error code the protocol names, with its data in ``params``."""
    data = data if isinstance(data, dict) else {}
    if code == UNSUPPORTED_PROTOCOL_VERSION:
        params["requested"] = sanitize_remote_text(str(data.get("requested") or ""), 40) or "(none)"
        params["supported"] = _listed(data.get("supported"))
        return N_("The server {server} does not speak the MCP protocol version {requested} that {method} was sent "
                  "in (error {code}); it speaks {supported}.")
    if code == MISSING_CLIENT_CAPABILITY:
        params["capabilities"] = _listed(data.get("requiredCapabilities"))
        return N_("The server {server} refused {method} because the client did not declare a capability it "
                  "requires (error {code}): {capabilities}.")
    if code == HEADER_MISMATCH:
        return N_("The server {server} refused {method} because its HTTP headers do not match its body "
                  "(error {code}: {detail}).")
    return None
