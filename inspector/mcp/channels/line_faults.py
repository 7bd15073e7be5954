"""What a faulty line on a server's stdout means: what to say of it, what can still be read, and
which request lost its answer to it.

Three faults: a line over the limit (dropped unread, :class:`~.pipe_lines.TooLong`); a line that
is not JSON (or not UTF-8 text, which JSON on stdio must be, and said so: such a line may look
like JSON); and the special case of that, a line with something before a whole message: a message
broken off without its newline (half written, the rest never) or a banner printed without one,
then a whole message. That message is the JSON object that ends the line: its closing brace is
the line's last character, and matching back from it through its strings and brackets finds its
opening brace without reading anything before it (:func:`~.line_glimpse.last_object_start`). It
is read when that part parses as a JSON-RPC message; what stood before it is named and dropped. A
request whose answer a fault swallowed, when the line shows whose it was (:mod:`.line_glimpse`),
fails at once with the fault named, instead of waiting for its deadline.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..messages import N_, Message, Number
from ..text import load_wire_json
from .line_glimpse import EDGE_BYTES, glimpse, last_object_start
from .pipe_lines import TooLong

#: How much of a faulty line a sentence shows.
SHOWN_BYTES = 120


class AnswerLost(Exception):  # noqa: N818 - it is what happened to the answer
    """The answer to a request arrived but cannot be read: ``sentence`` says why; ``size`` is the
    size of a message over the limit (``None``: a broken answer); ``problem`` what the server's log
    says of the line (the failure says it already: not repeated beside it)."""

    def __init__(self, sentence: Message, problem: Message, size: int | None = None, limit: int | None = None) -> None:
        super().__init__(str(sentence))
        self.sentence = sentence
        self.problem = problem
        self.size = size
        self.limit = limit


@dataclass(frozen=True)
class LineFault:
    """A faulty line: ``problem`` for the server's log, ``message`` a whole message still read
    from it (or ``None``), ``lost``: the wire id of the request whose answer it swallowed (or
    ``None``) and what that request fails with."""

    problem: Message
    message: dict[str, Any] | None = None
    lost: Any = None
    error: AnswerLost | None = None


def megabytes(size: int) -> Number:
    """A size in MB (2^20 bytes), to one decimal, none when it is whole: 20, 16.5."""
    value = round(size / 2**20, 1)
    return Number(value, f"{value:g}")


def too_long(line: TooLong, limit: int) -> LineFault:
    """A message over ``limit`` bytes: said with its size; its request, when it shows, fails at once."""
    most = Number(limit // 2**20, str(limit // 2**20))
    problem = Message(N_("the server sent a message of {size} MB on stdout, over the {most} MB limit; it was "
                         "dropped"), {"size": megabytes(line.size), "most": most})
    return LineFault(problem, lost=glimpse(line.head, line.tail).answer_id,
                     error=AnswerLost(problem, problem, line.size, limit))


#: Longest line in which a whole message after a broken-off part is looked for (the match goes
#: back through it character by character outside its strings).
MAX_SEARCHED_BYTES = 4 * 1024 * 1024


def not_json(line: bytes) -> LineFault:
    """A line that does not parse: the whole message that ends it, if there is one, is still read."""
    text = line.decode("utf-8", "replace") if len(line) <= MAX_SEARCHED_BYTES else ""
    start = last_object_start(text)
    if start:
        try:
            message = load_wire_json(text[start:])
        except (ValueError, RecursionError):
            message = None
        if isinstance(message, dict) and message.get("jsonrpc") == "2.0":
            broken = text[:start].encode()
            problem = Message(N_("the server left {size} bytes on stdout without ending the line, and wrote the "
                                 "next message after them: those bytes were dropped, the message after them read. "
                                 "They begin: {line}"),
                              {"size": Number(len(broken), f"{len(broken):,}"), "line": _shown(broken)})
            lost = Message(N_("the server broke off its answer on stdout after {size} bytes and wrote another "
                              "message after it"), {"size": Number(len(broken), f"{len(broken):,}")})
            return LineFault(problem, message, glimpse(broken[:EDGE_BYTES], b"").answer_id,
                             AnswerLost(lost, problem))
    try:
        line.decode("utf-8")
    except UnicodeDecodeError as bad:  # JSON to the eye, perhaps, but with a byte of another encoding
        problem = Message(N_("the server wrote a line on stdout that is not UTF-8 text (byte {position} is "
                             "{byte}; MCP messages are UTF-8): {line}"), {
            "position": Number(bad.start + 1, f"{bad.start + 1:,}"), "byte": f"0x{line[bad.start]:02X}",
            "line": _shown(line)})
        lost = Message(N_("its answer on stdout is not UTF-8 text"))
    else:
        problem = Message(N_("the server wrote a line on stdout that is not JSON: {line}"), {"line": _shown(line)})
        lost = Message(N_("its answer on stdout is not JSON"))
    return LineFault(problem, lost=glimpse(line[:EDGE_BYTES], line[-EDGE_BYTES:]).answer_id,
                     error=AnswerLost(lost, problem))


def _shown(line: bytes) -> str:
    return line[:SHOWN_BYTES].decode("utf-8", "replace").strip()


__all__ = ["AnswerLost", "LineFault", "megabytes", "not_json", "too_long"]
