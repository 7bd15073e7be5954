"""The operation a request step's stored sentence begins with, said in the reader's language.

A request step keeps its sentence in English ("sign-in: signed in with … as client …"), and beside it as
data (``wording``, :func:`inspector.agent.operations.wording_of`): the template :data:`OPERATION_SAID`
with the operation's name and what it found. The name is an MCP method for most ("tools/list", "ping":
a wire name, the same in every language); the sign-in is an operation of ours, named in words, and
those are said in the reader's language where the sentence is ("Anmeldung: angemeldet bei …"), as a
sign-in's legs are (``inspector.mcp.leg_names``). The stored English never changes.
"""

from __future__ import annotations

from typing import Any

from . import N_

#: The template of a request step's sentence: its operation, then what it found or why it failed.
OPERATION_SAID = "{operation}: {said}"
#: The operations of ours named in words (``inspector.mcp.signin.operation.SIGNIN_OPERATION``), by name.
_OWN_NAMES = {"sign-in": N_("sign-in")}


def own_operation(operation: Any) -> str | None:
    """The phrase to translate for ``operation`` (a stored name) where it is one of ours named in words;
    ``None`` for a method or anything else, said as it is."""
    return _OWN_NAMES.get(operation) if isinstance(operation, str) else None


__all__ = ["OPERATION_SAID", "own_operation"]
