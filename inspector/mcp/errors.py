"""The one exception type for every way an MCP operation can fail or be stopped.

Each kind has a stable numeric code (stored, exported, printed by the command line) and a
sentence that names the server and says what happened in words a user understands.
"""

from __future__ import annotations

from enum import Enum
from typing import Any

from .messages import N_, NP_, Message, Number
from .sanitize import sanitize_remote_text
from .secrets import Secrets

#: The sentences of a cancel, stored in English with a cancelled step (and translated where shown).
CANCELLED_IN_FLIGHT = N_("You cancelled the operation after {method} had been sent to the server {server}, "
                         "before its answer arrived. Whether the server acted on it is unknown.")
CANCELLED_BEFORE_SEND = N_("You cancelled the operation before its request reached the server {server} "
                           "(during {method}); the work was not sent.")
#: Sentences no longer written but stored with older runs: kept in the catalogue, so that a step
#: recorded before their new wording is still said in the reader's language.
RETIRED_SENTENCES = (
    N_("{method} was not sent to the server {server}: the {budget}-second budget of this operation was used up "
       "by its earlier steps. The server was not asked; this is the configured operation budget (a setting you "
       "can raise), not a server that failed to answer."),
)


class ErrorKind(str, Enum):
    """What went wrong. The string values travel to JSON output, the store and exports."""

    UNREACHABLE = "unreachable"
    HTTP_STATUS = "http_status"
    MALFORMED = "malformed"
    RPC_ERROR = "rpc_error"
    CONTENT_TYPE = "content_type"
    TOO_LARGE = "too_large"
    PROTOCOL_VERSION = "protocol_version"
    SESSION_EXPIRED = "session_expired"
    EXHAUSTED_BUDGET = "exhausted_budget"
    TIMED_OUT = "timed_out"
    CANCELLED = "cancelled"
    OUTPUT_SCHEMA = "output_schema"
    SIGNIN_REQUIRED = "signin_required"
    SIGNIN_FAILED = "signin_failed"
    SKILL_VERIFICATION = "skill_verification"
    NOT_OFFERED = "not_offered"


#: Stable codes; never renumber, only append.
ERROR_CODES: dict[ErrorKind, int] = {
    ErrorKind.UNREACHABLE: 1001,
    ErrorKind.HTTP_STATUS: 1002,
    ErrorKind.MALFORMED: 1003,
    ErrorKind.RPC_ERROR: 1004,
    ErrorKind.CONTENT_TYPE: 1005,
    ErrorKind.TOO_LARGE: 1006,
    ErrorKind.PROTOCOL_VERSION: 1007,
    ErrorKind.SESSION_EXPIRED: 1008,
    ErrorKind.EXHAUSTED_BUDGET: 1009,
    ErrorKind.TIMED_OUT: 1010,
    ErrorKind.CANCELLED: 1011,
    ErrorKind.OUTPUT_SCHEMA: 1012,
    ErrorKind.SIGNIN_REQUIRED: 1013,
    ErrorKind.SIGNIN_FAILED: 1014,
    ErrorKind.SKILL_VERIFICATION: 1015,
    ErrorKind.NOT_OFFERED: 1016,
}


def _seconds(value: float) -> Number:
    return Number(value, f"{value:g}", "s")


def _decimals(value: float) -> Number:
    """At most two decimals, no trailing zeros: 0.4, 1.25, 2."""
    return Number(round(value, 2), f"{value:.2f}".rstrip("0").rstrip("."), "s")


def _whole(value: int) -> Number:
    return Number(value, str(value))


class McpTransportError(Exception):
    """A failed or stopped MCP operation. Build it through the class-method factories only.

    ``message`` is the English sentence (for ``--json``, the store and exports); ``sentences``
    hold the same sentences as translatable :class:`~.messages.Message` objects, which display
    layers translate (``inspector.i18n.messages.translate``).
    """

    def __init__(self, kind: ErrorKind, server: str, message: str | Message, *, method: str | None = None,
                 http_status: int | None = None, rpc_code: int | None = None,
                 budget_s: float | None = None, in_flight: bool | None = None,
                 _cancellation: bool = False) -> None:
        sentence = message if isinstance(message, Message) else Message(N_("{text}"), {"text": message})
        self.sentences: tuple[Message, ...] = (sentence,)
        self.message = str(sentence)
        super().__init__(self.message)
        self.kind = kind
        self.code = ERROR_CODES[kind]
        self.server = server
        self.method = method
        self.http_status = http_status
        self.rpc_code = rpc_code
        self.budget_s = budget_s
        #: For a cancellation: had the work request gone out? (``None`` for other kinds.)
        self.in_flight = in_flight
        self._cancellation = _cancellation
        #: The task the operation ran as, once the server made one (``taskId``, ``server``, ...):
        #: kept so that a timed-out task can be looked up again.
        self.task: dict[str, Any] | None = None
        #: A JSON-RPC error's ``data`` as the server sent it (e.g. the versions it supports).
        self.rpc_data: Any = None
        #: For a sign-in the server asks for: its ``Bearer`` challenge (``signin.challenge.Challenge``),
        #: or ``None`` when it sent none; for a failed sign-in: the step that failed.
        self.challenge: Any = None
        self.signin_step: str | None = None

    @property
    def is_cancellation(self) -> bool:
        """True only for errors made by :meth:`cancelled`; callers never compare codes."""
        return self._cancellation

    def add_sentence(self, sentence: Message) -> None:
        """Say one more whole sentence after the others (e.g. what the server had asked before)."""
        self.sentences = (*self.sentences, sentence)
        self.message = f"{self.message} {sentence}"
        self.args = (self.message,)

    def scrub(self, secrets: Secrets) -> None:
        """Cut the known credentials out of the sentences: a server may quote what it was sent."""
        if not secrets:
            return
        self.sentences = tuple(secrets.scrub_message(sentence) for sentence in self.sentences)
        self.message = " ".join(str(sentence) for sentence in self.sentences)
        self.args = (self.message,)

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind.value, "code": self.code, "message": self.message}

    # -- factories ---------------------------------------------------------------------------

    @classmethod
    def unreachable(cls, server: str, method: str, detail: str | Message) -> McpTransportError:
        """``detail``: why, as the library said it, or in words of ours (``connect_reasons``)."""
        detail = sanitize_remote_text(detail) if isinstance(detail, str) else detail
        if detail:
            sentence = Message(N_("Could not reach the server {server} while sending {method}: {detail}. "
                                  "Check that the server is running and the address is right."),
                               {"server": server, "method": method, "detail": detail})
        else:
            sentence = Message(N_("Could not reach the server {server} while sending {method}: the connection "
                                  "failed. Check that the server is running and the address is right."),
                               {"server": server, "method": method})
        return cls(ErrorKind.UNREACHABLE, server, sentence, method=method)

    @classmethod
    def connection_lost(cls, server: str, method: str, detail: str | Message) -> McpTransportError:
        detail = sanitize_remote_text(detail) if isinstance(detail, str) else detail
        if detail:
            sentence = Message(N_("The connection to the server {server} broke during {method}: {detail}."),
                               {"server": server, "method": method, "detail": detail})
        else:
            sentence = Message(N_("The connection to the server {server} broke during {method}: the server "
                                  "closed it."), {"server": server, "method": method})
        return cls(ErrorKind.UNREACHABLE, server, sentence, method=method)

    @classmethod
    def not_started(cls, server: str, reason: Message) -> McpTransportError:
        """A server command that could not be started (missing program, folder, permission)."""
        sentence = Message(N_("Could not start the server {server}: {reason}."), {"server": server, "reason": reason})
        return cls(ErrorKind.UNREACHABLE, server, sentence, method="start")

    @classmethod
    def process_ended(cls, server: str, method: str, reason: Message) -> McpTransportError:
        """The line to the server (its process, its event stream) ended while ``method`` waited."""
        sentence = Message(N_("The server {server} stopped answering during {method}: {reason}."),
                           {"server": server, "method": method, "reason": reason})
        return cls(ErrorKind.UNREACHABLE, server, sentence, method=method)

    @classmethod
    def no_event_stream(cls, server: str, reason: Message) -> McpTransportError:
        """An address chosen for the older HTTP+SSE transport that does not serve it."""
        sentence = Message(N_("The server {server} does not serve the older HTTP+SSE transport at this address: "
                              "{reason}."), {"server": server, "reason": reason})
        return cls(ErrorKind.UNREACHABLE, server, sentence, method="connect")

    @classmethod
    def http_status(cls, server: str, method: str, status: int, reason: str = "",
                    location: str | None = None, *, credentials: bool = True) -> McpTransportError:
        """``credentials``: the request carried some (configured headers, a sign-in); a 401 or 403
        without is not said to have refused them."""
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
        elif status in (401, 403):
            template = (N_("The server {server} answered {method} with HTTP status {status} ({reason}). The "
                           "server refused the credentials; check the headers configured for it.") if reason else
                        N_("The server {server} answered {method} with HTTP status {status}. The server refused "
                           "the credentials; check the headers configured for it."))
        else:
            template = (N_("The server {server} answered {method} with HTTP status {status} ({reason}).")
                        if reason else N_("The server {server} answered {method} with HTTP status {status}."))
        return cls(ErrorKind.HTTP_STATUS, server, Message(template, params), method=method, http_status=status)

    @classmethod
    def signin_required(cls, server: str, method: str, status: int, challenge: Any, *,
                        sent_token: bool) -> McpTransportError:
        """The server wants a sign-in (401), or a sign-in with a larger scope (403 ``insufficient_scope``).
        ``challenge`` is its ``Bearer`` challenge, if it sent one; ``sent_token``: did this request
        carry a token (then it expired or was withdrawn)."""
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
        error = cls(ErrorKind.SIGNIN_REQUIRED, server, Message(template, params), method=method, http_status=status)
        error.challenge = challenge
        return error

    @classmethod
    def signin_failed(cls, server: str, step: str, reason: Message, *, whole: bool = False) -> McpTransportError:
        """Signing in to ``server`` failed at ``step`` (a leg of the sign-in operation), ``reason`` says
        why: a clause, or (``whole``) a sentence of its own, as a token endpoint's refusal is."""
        from .signin.flow import STEP_WORDS  # the flow raises these: imported when one is made

        template = (N_("Signing in to {server} failed at the step “{step}”. {reason}") if whole else
                    N_("Signing in to {server} failed at the step “{step}”: {reason}."))
        named = Message(STEP_WORDS[step]) if step in STEP_WORDS else step
        error = cls(ErrorKind.SIGNIN_FAILED, server, Message(template, {"server": server, "step": named,
                                                                        "reason": reason}), method=step)
        error.signin_step = step
        return error

    @classmethod
    def skill_verification(cls, server: str, method: str, problem: Message) -> McpTransportError:
        """A skill's file or entry that does not match what the listing said (SEP-2640): the skill
        is not loaded, and ``problem`` names the file and what differed."""
        return cls(ErrorKind.SKILL_VERIFICATION, server,
                   Message(N_("The skill from the server {server} failed verification and was not loaded: "
                              "{problem}."), {"server": server, "problem": problem}),
                   method=method)

    @classmethod
    def not_offered(cls, server: str, method: str, what: Message) -> McpTransportError:
        """The server's capabilities do not declare what the operation needs; nothing was asked."""
        return cls(ErrorKind.NOT_OFFERED, server,
                   Message(N_("The server {server} does not offer {what}: its capabilities do not declare it, so "
                              "{method} was not sent."), {"server": server, "what": what, "method": method}),
                   method=method)

    @classmethod
    def malformed(cls, server: str, method: str, what: str | Message) -> McpTransportError:
        """``what`` says what is wrong with the answer: a :class:`Message` of its own (translated
        inside the sentence where it is shown), or plain text shown as it is."""
        return cls(ErrorKind.MALFORMED, server,
                   Message(N_("The server {server} sent a malformed answer to {method}: {what}."),
                           {"server": server, "method": method, "what": what}),
                   method=method)

    @classmethod
    def output_schema(cls, server: str, tool: str, problem: Message) -> McpTransportError:
        """The server answered ``tools/call``, but the tool's structured result breaks the output
        schema the tool declares (``problem`` names the path and the rule)."""
        return cls(ErrorKind.OUTPUT_SCHEMA, server, problem, method="tools/call")

    @classmethod
    def rpc_error(cls, server: str, method: str, code: int, message: str, *, data: Any = None,
                  http_status: int | None = None) -> McpTransportError:
        detail = _inside_a_sentence(sanitize_remote_text(message))
        params: dict[str, object] = {"server": server, "method": method, "code": code, "detail": detail}
        worded = _worded_rpc_error(code, data, params)
        if worded is not None:
            template = worded
        else:
            template = (N_("The server {server} rejected {method} with JSON-RPC error {code}: {detail}.") if detail
                        else N_("The server {server} rejected {method} with JSON-RPC error {code}: no message."))
        error = cls(ErrorKind.RPC_ERROR, server, Message(template, params), method=method, rpc_code=code,
                    http_status=http_status)
        error.rpc_data = data
        return error

    @classmethod
    def excluded_tool(cls, server: str, tool: str, problem: Message) -> McpTransportError:
        """A tool the client must not call: its ``x-mcp-header`` annotations break the rules."""
        return cls(ErrorKind.MALFORMED, server,
                   Message(N_("The tool {tool} of the server {server} was not called: {problem}"),
                           {"tool": tool, "server": server, "problem": problem}),
                   method="tools/call")

    @classmethod
    def input_rounds(cls, server: str, method: str, rounds: int) -> McpTransportError:
        """A server that keeps asking for input (``input_required``) without ever finishing."""
        return cls(ErrorKind.MALFORMED, server,
                   NP_("The server {server} asked for input on {method} {count} time without finishing; the client "
                       "stops after that many rounds.",
                       "The server {server} asked for input on {method} {count} times in a row without finishing; "
                       "the client stops after that many rounds.",
                       {"server": server, "method": method, "count": rounds}, count="count"),
                   method=method)

    @classmethod
    def content_type(cls, server: str, method: str, media_type: str) -> McpTransportError:
        shown = sanitize_remote_text(media_type, 80)
        params = {"server": server, "method": method, "type": shown}
        template = (N_("The server {server} answered {method} with content of type {type}; an MCP server must "
                       "answer with application/json or text/event-stream.") if shown else
                    N_("The server {server} answered {method} with content of type an unknown type; an MCP server "
                       "must answer with application/json or text/event-stream."))
        return cls(ErrorKind.CONTENT_TYPE, server, Message(template, params), method=method)

    @classmethod
    def too_large(cls, server: str, method: str, cap_bytes: int) -> McpTransportError:
        return cls(ErrorKind.TOO_LARGE, server,
                   Message(N_("The answer of the server {server} to {method} is larger than the {mib} MiB limit "
                              "({bytes} bytes); it was refused, not cut."),
                           {"server": server, "method": method, "mib": _whole(cap_bytes // (1024 * 1024)),
                            "bytes": _whole(cap_bytes)}),
                   method=method)

    @classmethod
    def line_too_large(cls, server: str, method: str, size: int, cap_bytes: int) -> McpTransportError:
        """The answer came as one line on a server process's stdout, longer than the line's limit."""
        return cls(ErrorKind.TOO_LARGE, server,
                   Message(N_("The server {server} answered {method} with a message of {size} MB on stdout, over "
                              "the {mib} MB limit; it was dropped unread."),
                           {"server": server, "method": method, "mib": _whole(cap_bytes // (1024 * 1024)),
                            "size": Number(round(size / 2**20, 1), f"{round(size / 2**20, 1):g}")}),
                   method=method)

    @classmethod
    def protocol_version(cls, server: str, offered: str, supported: tuple[str, ...]) -> McpTransportError:
        shown = sanitize_remote_text(offered, 40)
        params = {"server": server, "offered": shown, "supported": ", ".join(supported)}
        template = (N_("The server {server} speaks MCP protocol version {offered}, which this client does not "
                       "support (supported: {supported}).") if shown else
                    N_("The server {server} speaks MCP protocol version (none), which this client does not "
                       "support (supported: {supported})."))
        return cls(ErrorKind.PROTOCOL_VERSION, server, Message(template, params), method="initialize")

    @classmethod
    def resume_too_late(cls, server: str, method: str, budget_s: float, delay_s: float,
                        remaining_s: float) -> McpTransportError:
        left = Number(round(remaining_s, 1), f"{remaining_s:.1f}", "s")
        params = {"server": server, "method": method, "delay": _seconds(delay_s), "left": left,
                  "budget": _seconds(budget_s)}
        # One plural per sentence: the form follows the time left; the delay is its own pair of sentences.
        if delay_s == 1:
            sentence = NP_(
                "The server {server} closed the answer stream of {method} before answering and asked the client "
                "to come back in 1 second, but only {left} second was left of the {budget}-second budget, so "
                "the client stopped waiting.",
                "The server {server} closed the answer stream of {method} before answering and asked the "
                "client to come back in 1 second, but only {left} seconds were left of the "
                "{budget}-second budget, so the client stopped waiting.", params, count="left")
        else:
            sentence = NP_(
                "The server {server} closed the answer stream of {method} before answering and asked the client "
                "to come back in {delay} seconds, but only {left} second was left of the {budget}-second "
                "budget, so the client stopped waiting.",
                "The server {server} closed the answer stream of {method} before answering and asked the "
                "client to come back in {delay} seconds, but only {left} seconds were left of the "
                "{budget}-second budget, so the client stopped waiting.", params, count="left")
        return cls(ErrorKind.TIMED_OUT, server, sentence, method=method, budget_s=budget_s)

    @classmethod
    def session_expired(cls, server: str, method: str) -> McpTransportError:
        return cls(ErrorKind.SESSION_EXPIRED, server,
                   Message(N_("The server {server} no longer knows the session of this operation "
                              "(HTTP 404 on {method}), also after one fresh start."),
                           {"server": server, "method": method}),
                   method=method, http_status=404)

    @classmethod
    def exhausted_budget(cls, server: str, method: str, budget_s: float) -> McpTransportError:
        # Legs, not steps: a step is a run's (the model's, a tool's), and the step this sentence
        # stands in was itself the one whose legs (a slow handshake, say) spent the budget.
        return cls(ErrorKind.EXHAUSTED_BUDGET, server,
                   Message(N_("{method} was not sent to the server {server}: the {budget}-second budget of this "
                              "operation was used up by its earlier legs. The server was not asked; this is the "
                              "configured operation budget (a setting you can raise), not a server that failed "
                              "to answer."),
                           {"server": server, "method": method, "budget": _seconds(budget_s)}),
                   method=method, budget_s=budget_s)

    @classmethod
    def timed_out(cls, server: str, method: str, budget_s: float, granted_s: int,
                  remaining_s: float | None = None) -> McpTransportError:
        """The leg's grant ran out. ``remaining_s``: what was left of the budget when it was granted.

        A grant is whole seconds, so it can be longer than what remained; the message then says so
        instead of claiming the budget held.
        """
        params: dict[str, object] = {"server": server, "method": method, "budget": _seconds(budget_s),
                                     "granted": _whole(granted_s)}
        if remaining_s is None or granted_s - remaining_s < 0.005:
            template = N_("The server {server} did not finish answering {method} within the {granted} s left of "
                          "the {budget}-second budget of this operation, so the request was stopped. The budget "
                          "is a setting you can raise if this server is slow but healthy.")
        elif budget_s - remaining_s < 0.005:
            template = N_("The server {server} did not finish answering {method} within the {granted} s granted "
                          "to it, so the request was stopped. The budget of this operation is {budget} s, but "
                          "each request is granted whole seconds (at least one), so it was given {granted} s and "
                          "the operation ran past its budget. The budget is a setting you can raise if this "
                          "server is slow but healthy.")
        else:
            params["remaining"] = _decimals(remaining_s)
            template = N_("The server {server} did not finish answering {method} within the {granted} s granted "
                          "to it, so the request was stopped. Only {remaining} s of the {budget}-second budget of "
                          "this operation were left when it was sent, but each request is granted whole seconds "
                          "(at least one), so it was given {granted} s and the operation ran past its budget. The "
                          "budget is a setting you can raise if this server is slow but healthy.")
        return cls(ErrorKind.TIMED_OUT, server, Message(template, params), method=method, budget_s=budget_s)

    @classmethod
    def cancelled(cls, server: str, method: str, in_flight: bool) -> McpTransportError:
        params = {"server": server, "method": method}
        # Sent but unanswered: the server may have been working on it for a while (progress notes
        # prove it), so "on its way" would understate what may have happened.
        template = CANCELLED_IN_FLIGHT if in_flight else CANCELLED_BEFORE_SEND
        return cls(ErrorKind.CANCELLED, server, Message(template, params), method=method, in_flight=in_flight,
                   _cancellation=True)


#: The stateless era's own error codes (2026-07-28), said in words rather than by number alone.
HEADER_MISMATCH = -32020
MISSING_CLIENT_CAPABILITY = -32021
UNSUPPORTED_PROTOCOL_VERSION = -32022


def _listed(value: Any) -> str:
    """A list the server sent (versions, capabilities), as clipped plain text."""
    if isinstance(value, list):
        items = [sanitize_remote_text(str(item), 40) for item in value[:10]]
        return ", ".join(item for item in items if item) or "(none)"
    if isinstance(value, dict):
        return _listed(list(value))
    return "(none)"


def _inside_a_sentence(text: str) -> str:
    """A server's message placed inside one of our sentences, which ends it: its own full stop
    goes (the sentence ended in "text.."); an ellipsis ("...") stays as it is."""
    return text[:-1].rstrip() if text.endswith(".") and not text.endswith("..") else text


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
