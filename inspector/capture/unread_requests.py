"""What the OTLP receiver answers a request the standard library's HTTP server could not read: its first line
(not HTTP/1.x, an HTTP version it does not speak), a method it has no handler for, a first line or headers
too long. Said in the receiver's words, as its other refusals are, not with the standard library's HTML page
("Bad request syntax ('...')"). No I/O.
"""

from __future__ import annotations

from inspector.i18n import N_
from inspector.i18n.messages import Message

#: The longest first line the standard library reads (``http.server``'s ``readline(65537)``).
_LONGEST_LINE = "64 KiB"
#: The sentence for a status, beside the first line's (400 or 505: a first line or a version it cannot read).
_SAID = {
    414: N_("The request's first line is longer than {size} and was refused."),
    431: N_("The request's headers are too many (more than 100) or one is too long, and were refused."),
    501: N_("The method {method} is not served here: send POST {path}."),
}


def unread_request(status: int, line: str, method: str, path: str) -> Message:
    """Why the request whose first line is ``line`` (``method`` its first word, as far as it was read) was
    refused with ``status``, for the receiver serving ``path``."""
    template = _SAID.get(status, N_("The request's first line {line} is not an HTTP/1.1 request line and was "
                                    "refused: send POST {path}."))
    return Message(template, {"size": _LONGEST_LINE, "method": repr(method[:40]), "path": path,
                              "line": repr(line[:80])})


__all__ = ["unread_request"]
