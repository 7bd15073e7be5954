"""The one exception type for every way an MCP operation can fail or be stopped.

Each kind has a stable numeric code (stored, exported, printed by the command line) and a
sentence that names the server and says what happened in words a user understands. This module
holds the type: the kinds, their codes, and one factory for each way to fail, which picks the kind
and keeps what a caller may ask of the error. The sentences are worded by the ``*_words`` modules
(:mod:`.connection_words`, :mod:`.answer_words`, :mod:`.refusal_words`, :mod:`.budget_words`).
"""

from __future__ import annotations

from enum import Enum
from typing import Any

from . import answer_words, budget_words, connection_words, refusal_words
from .budget_words import CANCELLED_BEFORE_SEND, CANCELLED_IN_FLIGHT, RETIRED_SENTENCES
from .messages import N_, Message
from .refusal_words import (
    HEADER_MISMATCH,
    METHOD_NOT_FOUND,
    MISSING_CLIENT_CAPABILITY,
    STATELESS_ERRORS,
    UNSUPPORTED_PROTOCOL_VERSION,
)
from .secrets import Secrets

__all__ = [
    "CANCELLED_BEFORE_SEND", "CANCELLED_IN_FLIGHT", "ERROR_CODES", "HEADER_MISMATCH", "METHOD_NOT_FOUND",
    "MISSING_CLIENT_CAPABILITY", "RETIRED_SENTENCES", "STATELESS_ERRORS", "UNSUPPORTED_PROTOCOL_VERSION", "ErrorKind",
    "McpTransportError",
]


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
        #: For a leg that timed out: the whole seconds it was granted.
        self.granted_s: int | None = None

    @property
    def is_cancellation(self) -> bool:
        """True only for errors made by :meth:`cancelled`; callers never compare codes."""
        return self._cancellation

    @property
    def is_redirect(self) -> bool:
        """An HTTP redirect (3xx), which is not followed: an answer about the address, not about the request."""
        return self.kind is ErrorKind.HTTP_STATUS and self.http_status is not None and 300 <= self.http_status < 400

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

    # -- factories: the kind and what is kept; the words come from the *_words modules -------

    @classmethod
    def unreachable(cls, server: str, method: str, detail: str | Message) -> McpTransportError:
        """``detail``: why, as the library said it, or in words of ours (``connect_reasons``)."""
        return cls(ErrorKind.UNREACHABLE, server, connection_words.unreachable(server, method, detail), method=method)

    @classmethod
    def connection_lost(cls, server: str, method: str, detail: str | Message) -> McpTransportError:
        return cls(ErrorKind.UNREACHABLE, server, connection_words.connection_lost(server, method, detail),
                   method=method)

    @classmethod
    def not_started(cls, server: str, reason: Message) -> McpTransportError:
        """A server command that could not be started (missing program, folder, permission)."""
        return cls(ErrorKind.UNREACHABLE, server, connection_words.not_started(server, reason), method="start")

    @classmethod
    def process_ended(cls, server: str, method: str, reason: Message) -> McpTransportError:
        """The line to the server (its process, its event stream) ended while ``method`` waited."""
        return cls(ErrorKind.UNREACHABLE, server, connection_words.process_ended(server, method, reason),
                   method=method)

    @classmethod
    def no_event_stream(cls, server: str, reason: Message) -> McpTransportError:
        """An address chosen for the older HTTP+SSE transport that does not serve it."""
        return cls(ErrorKind.UNREACHABLE, server, connection_words.no_event_stream(server, reason), method="connect")

    @classmethod
    def http_status(cls, server: str, method: str, status: int, reason: str = "",
                    location: str | None = None, *, credentials: bool = True,
                    in_address: bool = False) -> McpTransportError:
        """``credentials``: the request carried some (configured headers, a sign-in, the address's user
        name and password: ``in_address``); a 401 or 403 without is not said to have refused them."""
        sentence = refusal_words.http_status(server, method, status, reason, location, credentials=credentials,
                                             in_address=in_address)
        return cls(ErrorKind.HTTP_STATUS, server, sentence, method=method, http_status=status)

    @classmethod
    def unkept_secrets(cls, server: str, method: str, status: int, headers: list[str]) -> McpTransportError:
        """A 401 (no OAuth challenge) to a request sent without secret headers no keyring kept."""
        return cls(ErrorKind.HTTP_STATUS, server, refusal_words.unkept_secrets(server, method, status, headers),
                   method=method, http_status=status)

    @classmethod
    def signin_required(cls, server: str, method: str, status: int, challenge: Any, *,
                        sent_token: bool) -> McpTransportError:
        """The server wants a sign-in (401), or a sign-in with a larger scope (403 ``insufficient_scope``).
        ``challenge`` is its ``Bearer`` challenge, if it sent one; ``sent_token``: did this request
        carry a token (then it expired or was withdrawn)."""
        sentence = refusal_words.signin_required(server, method, status, challenge, sent_token=sent_token)
        error = cls(ErrorKind.SIGNIN_REQUIRED, server, sentence, method=method, http_status=status)
        error.challenge = challenge
        return error

    @classmethod
    def signin_failed(cls, server: str, step: str, reason: Message, *, whole: bool = False) -> McpTransportError:
        """Signing in to ``server`` failed at ``step`` (a leg of the sign-in operation), ``reason`` says
        why: a clause, or (``whole``) a sentence of its own, as a token endpoint's refusal is."""
        error = cls(ErrorKind.SIGNIN_FAILED, server, refusal_words.signin_failed(server, step, reason, whole=whole),
                    method=step)
        error.signin_step = step
        return error

    @classmethod
    def skill_verification(cls, server: str, method: str, problem: Message) -> McpTransportError:
        """A skill's file or entry that does not match what the listing said (SEP-2640): the skill
        is not loaded, and ``problem`` names the file and what differed."""
        return cls(ErrorKind.SKILL_VERIFICATION, server, answer_words.skill_verification(server, problem),
                   method=method)

    @classmethod
    def not_offered(cls, server: str, method: str, what: Message) -> McpTransportError:
        """The server's capabilities do not declare what the operation needs; nothing was asked."""
        return cls(ErrorKind.NOT_OFFERED, server, answer_words.not_offered(server, method, what), method=method)

    @classmethod
    def malformed(cls, server: str, method: str, what: str | Message) -> McpTransportError:
        """``what`` says what is wrong with the answer: a :class:`Message` of its own (translated
        inside the sentence where it is shown), or plain text shown as it is."""
        return cls(ErrorKind.MALFORMED, server, answer_words.malformed(server, method, what), method=method)

    @classmethod
    def output_schema(cls, server: str, tool: str, problem: Message) -> McpTransportError:
        """The server answered ``tools/call``, but the tool's structured result breaks the output
        schema the tool declares (``problem`` names the path and the rule)."""
        return cls(ErrorKind.OUTPUT_SCHEMA, server, problem, method="tools/call")

    @classmethod
    def rpc_error(cls, server: str, method: str, code: int, message: str, *, data: Any = None,
                  http_status: int | None = None, code_sent: str | None = None) -> McpTransportError:
        """``code_sent``: the code as the server sent it when it is no integer (``code`` is then 0)."""
        error = cls(ErrorKind.RPC_ERROR, server,
                    refusal_words.rpc_error(server, method, code, message, data, code_sent=code_sent),
                    method=method, rpc_code=code, http_status=http_status)
        error.rpc_data = data
        return error

    @classmethod
    def excluded_tool(cls, server: str, tool: str, problem: Message) -> McpTransportError:
        """A tool the client must not call: its ``x-mcp-header`` annotations break the rules."""
        return cls(ErrorKind.MALFORMED, server, answer_words.excluded_tool(server, tool, problem), method="tools/call")

    @classmethod
    def input_rounds(cls, server: str, method: str, rounds: int) -> McpTransportError:
        """A server that keeps asking for input (``input_required``) without ever finishing."""
        return cls(ErrorKind.MALFORMED, server, answer_words.input_rounds(server, method, rounds), method=method)

    @classmethod
    def content_type(cls, server: str, method: str, media_type: str) -> McpTransportError:
        return cls(ErrorKind.CONTENT_TYPE, server, answer_words.content_type(server, method, media_type),
                   method=method)

    @classmethod
    def too_large(cls, server: str, method: str, cap_bytes: int) -> McpTransportError:
        return cls(ErrorKind.TOO_LARGE, server, answer_words.too_large(server, method, cap_bytes), method=method)

    @classmethod
    def event_too_large(cls, server: str, method: str, cap_bytes: int) -> McpTransportError:
        """One event of the answer's event stream is larger than the limit (the stream as a whole is not bounded)."""
        return cls(ErrorKind.TOO_LARGE, server, answer_words.event_too_large(server, method, cap_bytes), method=method)

    @classmethod
    def line_too_large(cls, server: str, method: str, size: int, cap_bytes: int) -> McpTransportError:
        """The answer came as one line on a server process's stdout, longer than the line's limit."""
        return cls(ErrorKind.TOO_LARGE, server, answer_words.line_too_large(server, method, size, cap_bytes),
                   method=method)

    @classmethod
    def protocol_version(cls, server: str, offered: str, supported: tuple[str, ...]) -> McpTransportError:
        return cls(ErrorKind.PROTOCOL_VERSION, server, answer_words.protocol_version(server, offered, supported),
                   method="initialize")

    @classmethod
    def resume_too_late(cls, server: str, method: str, budget_s: float, delay_s: float,
                        remaining_s: float) -> McpTransportError:
        sentence = budget_words.resume_too_late(server, method, budget_s, delay_s, remaining_s)
        return cls(ErrorKind.TIMED_OUT, server, sentence, method=method, budget_s=budget_s)

    @classmethod
    def session_expired(cls, server: str, method: str) -> McpTransportError:
        return cls(ErrorKind.SESSION_EXPIRED, server, refusal_words.session_expired(server, method), method=method,
                   http_status=404)

    @classmethod
    def exhausted_budget(cls, server: str, method: str, budget_s: float) -> McpTransportError:
        return cls(ErrorKind.EXHAUSTED_BUDGET, server, budget_words.exhausted_budget(server, method, budget_s),
                   method=method, budget_s=budget_s)

    @classmethod
    def timed_out(cls, server: str, method: str, budget_s: float, granted_s: int,
                  remaining_s: float | None = None) -> McpTransportError:
        """The leg's grant ran out. ``remaining_s``: what was left of the budget when it was granted."""
        sentence = budget_words.timed_out(server, method, budget_s, granted_s, remaining_s)
        error = cls(ErrorKind.TIMED_OUT, server, sentence, method=method, budget_s=budget_s)
        error.granted_s = granted_s
        return error

    @classmethod
    def refresh_timed_out(cls, server: str, step: str, issuer: str, budget_s: float,
                          granted_s: int) -> McpTransportError:
        """The leg ``step`` that refreshes the sign-in to ``server`` ran out of its grant: the authorization
        server ``issuer`` did not answer, not ``server``."""
        sentence = budget_words.refresh_timed_out(server, issuer, budget_s, granted_s)
        error = cls(ErrorKind.TIMED_OUT, server, sentence, method=step, budget_s=budget_s)
        error.granted_s = granted_s
        return error

    @classmethod
    def cancelled(cls, server: str, method: str, in_flight: bool) -> McpTransportError:
        return cls(ErrorKind.CANCELLED, server, budget_words.cancelled(server, method, in_flight), method=method,
                   in_flight=in_flight, _cancellation=True)
