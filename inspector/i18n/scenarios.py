"""The shipped scenarios' titles and descriptions in the reader's language.

A shipped scenario's description is ours, so the catalogue carries it (marked here, where the
extraction finds it); a scenario file's description is its author's words and is shown as written.
"""

from __future__ import annotations

from . import N_, _

#: Each shipped scenario's description, word for word as its file says it.
SHIPPED_DESCRIPTIONS = frozenset({
    N_("A tool fails every second call; the model is told, retries, and carries on."),
    N_("Every call succeeds: echo, a sum with structured content, a note written and read back."),
    N_("The catalogue of 130 tools comes 10 to a page; the model walks it and calls one far down."),
    N_("The server takes 1.6 s per handshake message; a 3 s budget is spent before the call is sent."),
    N_("A tool asks the user a question (elicitation): the window asks you; the command line declines it."),
    N_("A note is written, then a call hangs until the user cancels the run after 2 seconds."),
})


#: Each shipped scenario's title, by its name (the name the command line takes).
SHIPPED_TITLES = {
    "flaky-server": N_("A flaky server"),
    "happy-path": N_("Everything works"),
    "long-catalogue": N_("A long catalogue"),
    "slow-handshake": N_("A slow handshake"),
    "user-answers": N_("The user answers a question"),
    "user-cancels": N_("The user cancels"),
}


def titled(name: str) -> str:
    """How a scenario is listed: a shipped one's title in the reader's language with its name (the
    command line's word for it); any other by its name alone."""
    title = SHIPPED_TITLES.get(name)
    return name if title is None else _("{title} ({name})").format(title=_(title), name=name)


def described(description: str) -> str:
    """``description`` in the reader's language when it is a shipped scenario's, else as written."""
    return _(description) if description in SHIPPED_DESCRIPTIONS else description


__all__ = ["SHIPPED_DESCRIPTIONS", "SHIPPED_TITLES", "described", "titled"]
