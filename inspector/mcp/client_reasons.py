"""The client's own reasons for declining a server's request, recognised again where a person reads them.

When the client declines a request of the server (sampling not allowed, no roots, a question it cannot
ask), the error it sends carries one of these sentences, in English: the server reads it, and the step
keeps the reply as it was sent, so exports and ``--json`` never change with the language. A display
layer asks :func:`own_reason` for the sentence as a :class:`Message` and says it in the reader's
language; a text that is not one of ours (another client's, seen through the proxy) gives ``None``
and is shown as it is.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from .messages import N_, Message
from .sampling_limits import limit_reached

SAMPLING_NOT_ALLOWED = N_("The user of this client has not allowed servers to use a model (sampling), or no model "
                          "is configured for it.")
SAMPLING_NEEDS_MESSAGES = N_("sampling/createMessage needs a list of messages.")
NO_ROOTS = N_("This client offers no roots.")
NOT_SUPPORTED = N_("This client does not support {method}.")
NO_QUESTIONS = N_("This client does not answer questions (elicitation).")
FORM_MODE_ONLY = N_("This client answers questions in form mode only.")
QUESTION_MALFORMED = N_("elicitation/create needs a message and a requested schema.")
NO_VALID_ACTION = N_("The client's answer had no valid action.")
NOT_JSON_RPC = N_("The request is not a valid JSON-RPC 2.0 request (it needs \"jsonrpc\": \"2.0\", a method name "
                  "and, if any, parameters as an object).")
COULD_NOT_ANSWER = N_("The client could not answer {method}: {reason}")
STOPPED_WAITING = N_("The client stopped waiting for an answer: its time budget for the operation ran out.")
SENT_NO_ANSWER = N_("The client sent no answer: the operation ended (cancelled, or answered without it) while the "
                    "client was answering.")
#: The window's: the user pressed "stop asking" for the operation, or refused a sampling request.
USER_STOPPED_ASKING = N_("The user told the client to stop asking for this operation.")
USER_REFUSED_MODEL = N_("The user refused to let the server use the model.")
#: Why a question or a sampling request on the listening stream is declined.
NO_OPERATION_REFUSAL = N_("Run Inspector answers questions (elicitation) and sampling requests only within an "
                          "operation, whose time budget bounds the answer; this request arrived on the listening "
                          "stream, outside any operation, and is declined.")
#: The model sampler's (``inspector.agent.sampling``): a request it cannot pass to its model.
MAX_TOKENS_INVALID = N_("maxTokens must be a whole number of at least 1.")
ROLE_INVALID = N_("Each sampling message needs the role user or assistant.")
TEXT_ONLY = N_("This client can pass only text messages to its model.")

#: Every reason of ours, as the error's ``message`` carries it filled in.
OWN_REASONS = (SAMPLING_NOT_ALLOWED, SAMPLING_NEEDS_MESSAGES, NO_ROOTS, NOT_SUPPORTED, NO_QUESTIONS, FORM_MODE_ONLY,
               QUESTION_MALFORMED, NO_VALID_ACTION, NOT_JSON_RPC, COULD_NOT_ANSWER, STOPPED_WAITING, SENT_NO_ANSWER,
               USER_STOPPED_ASKING, USER_REFUSED_MODEL, MAX_TOKENS_INVALID, ROLE_INVALID, TEXT_ONLY,
               NO_OPERATION_REFUSAL)

_PLACEHOLDER = re.compile(r"\\\{(\w+)\\\}")


#: The longest text read as a sentence of ours filled in: ours are a few hundred characters (a server's
#: address among them); a longer text is no such sentence, and the lazy groups of a template's pattern
#: take time growing with the square of the text's length (a 120,000-character text: seconds).
MAX_FILLED_CHARS = 4_000


def filled(template: str, text: str) -> re.Match[str] | None:
    """``text`` matched whole against ``template`` filled in (its placeholders' values in the groups), or
    ``None``; a text longer than :data:`MAX_FILLED_CHARS` is not matched."""
    return template_pattern(template).fullmatch(text) if len(text) <= MAX_FILLED_CHARS else None


@cache
def template_pattern(template: str) -> re.Pattern[str]:
    """A pattern that matches ``template`` filled in: each ``{name}`` the shortest text that lets the whole
    sentence match (use ``fullmatch``)."""
    return re.compile(_PLACEHOLDER.sub(lambda found: f"(?P<{found.group(1)}>.+?)", re.escape(template)), re.DOTALL)


def own_reason(answered: Any) -> Message | None:
    """The reason of ours an error reply of the client carries (its ``answered`` as a step keeps it), as a
    sentence to say in the reader's language; ``None`` when the reason is not one of ours."""
    limited = limit_reached(answered)
    if limited is not None:
        return limited
    text = answered.get("message") if isinstance(answered, dict) else None
    if not isinstance(text, str):
        return None
    for template in OWN_REASONS:
        found = filled(template, text)
        if found is not None:
            return Message(template, found.groupdict())
    return None


__all__ = ["MAX_FILLED_CHARS", "OWN_REASONS", "filled", "own_reason", "template_pattern"]
