"""Scrubbing the credentials this program knows from text it did not write.

A server or a model may repeat what it was sent: "Incorrect API key provided: Bearer sk-...",
an error quoting the request's headers, a tool echoing ``X-Api-Key``. :class:`Secrets` holds the
values the program sends as credentials (a model's API key, a server's secret headers, a
password in a URL) and replaces each of them, in the shapes it can take, wherever such text
leaves the model or the transport: before it is sent on, printed, stored or shown.

It knows only values; a layer that may use the pattern rules of ``inspector.traces.redact``
(tokens it was never given) passes them in as ``patterns``.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import quote, unquote, urlsplit

from .address_credentials import basic_authorization
from .messages import Message

#: What a scrubbed value is replaced with (the same mark as ``inspector.traces.redact.REDACTED``).
REDACTED = "[REDACTED]"
#: Values shorter than this are not searched for: replacing every "ab" would garble all text, and
#: such a value guards nothing.
MIN_SECRET_CHARS = 4

# Header names whose values are credentials by their name (as in ``inspector.store.secrets``,
# which this layer may not import): the words of credentials, and the names collectors give theirs
# (from their documentation): a name ending in "-key" or "_key" (Instana's x-instana-key, SigNoz's
# signoz-ingestion-key), a DSN holding a token (Uptrace's uptrace-dsn) and Honeycomb's
# x-honeycomb-team (its API key); and names APIs take their keys in besides Authorization ("X-Auth",
# "Authentication", "X-Passphrase").
_SECRET_HEADER = re.compile(r"(authorization|authentication|cookie|token|secret|api[-_]?key|password|passwd"
                            r"|passphrase|passcode|credential|session|(^|[-_])auth$|[-_]key$|dsn|honeycomb-team)",
                            re.IGNORECASE)
# An authorization scheme in front of the credential: "Bearer abc" is sent, "abc" may come back alone.
_SCHEME = re.compile(r"^(?:bearer|basic|token|digest|bot|jwt|apikey)\s+(\S.*)$", re.IGNORECASE)


def is_secret_header(name: str) -> bool:
    """Headers whose values are credentials by their name (Authorization, X-Api-Key, ...)."""
    return bool(_SECRET_HEADER.search(name))


def _shapes(value: str) -> set[str]:
    """The forms a secret may come back in: as sent, without its scheme, decoded from Basic,
    escaped for JSON or a URL."""
    value = value.strip()
    found = {value}
    scheme = _SCHEME.match(value)
    if scheme:
        credential = scheme.group(1).strip()
        found.add(credential)
        try:
            decoded = base64.b64decode(credential, validate=True).decode("utf-8")
        except (binascii.Error, ValueError):
            decoded = ""
        if ":" in decoded:  # Basic user:password: the pair and the password alone
            found.update({decoded, decoded.partition(":")[2]})
    for item in list(found):
        found.update({json.dumps(item)[1:-1], quote(item, safe=""), quote(item)})
    return {item for item in found if len(item) >= MIN_SECRET_CHARS}


class Secrets:
    """The credentials known here, to be cut out of text that came from elsewhere.

    Immutable: :meth:`with_values` gives a new one. With no values (and no patterns) every
    method returns its input unchanged at almost no cost.
    """

    def __init__(self, values: Iterable[str | None] = (), *,
                 patterns: Callable[[str], str] | None = None) -> None:
        self._values = frozenset(value for value in values if value)
        shapes: set[str] = set()
        for value in self._values:
            shapes.update(_shapes(value))
        self._shapes = frozenset(shapes)
        self._patterns = patterns
        # Longest first, so that "Bearer abc" goes whole rather than leaving "Bearer ".
        ordered = sorted(shapes, key=len, reverse=True)
        self._regex = re.compile("|".join(re.escape(item) for item in ordered)) if ordered else None

    def __repr__(self) -> str:  # never the values
        return f"Secrets({len(self._values)} values{', patterns' if self._patterns else ''})"

    def __bool__(self) -> bool:
        return self._regex is not None or self._patterns is not None

    def with_values(self, *values: str | None) -> Secrets:
        """These secrets and ``values`` besides."""
        return Secrets([*self._values, *values], patterns=self._patterns)

    def joined(self, other: Secrets | None) -> Secrets:
        """The values of both; the patterns of this one, else of ``other``."""
        if other is None:
            return self
        return Secrets([*self._values, *other._values], patterns=self._patterns or other._patterns)

    def scrub(self, text: str) -> str:
        """Text quoted in a sentence (an error, an excerpt) with every known secret replaced, and
        with patterns, every credential they find."""
        text = self.scrub_values(text)
        if self._patterns is not None and text:
            text = self._patterns(text)
        return text

    def scrub_values(self, text: str) -> str:
        """``text`` with every known secret replaced; nothing else is touched."""
        if self._regex is not None and text:
            return self._regex.sub(REDACTED, text)
        return text

    def growing(self) -> GrowingText:
        """A scrubber for text that arrives in pieces (a model's words as it writes them)."""
        return GrowingText(self)

    def scrub_parsed(self, value: Any, text: str | bytes) -> Any:
        """:meth:`scrub_json` for ``value`` parsed from the JSON ``text``; skipped (the common case,
        and cheap: a substring search) when the text cannot hold a secret. Besides a secret's own
        JSON shape, only the escapes backslash-u and backslash-slash can spell its characters:
        text with either is always walked."""
        if self._regex is None:
            return value
        if isinstance(text, (bytes, bytearray)):
            text = text.decode("utf-8", "replace")
        if "\\u" not in text and "\\/" not in text and not any(shape in text for shape in self._shapes):
            return value
        return self.scrub_json(value)

    def scrub_json(self, value: Any) -> Any:
        """A JSON-like value (an answer that is passed on: a result, tool-call arguments) with the
        known secrets cut out of every string, keys too; the input itself is not changed. Only the
        values: pattern rules would change data that merely looks like a credential.

        Iterative: a deeply nested answer cannot exhaust the stack.
        """
        if self._regex is None:
            return value
        root: list[Any] = [None]
        pending: list[tuple[Any, Any, Any]] = [(value, root, 0)]
        while pending:
            item, parent, slot = pending.pop()
            if isinstance(item, str):
                parent[slot] = self.scrub_values(item)
            elif isinstance(item, dict):
                copy: dict[Any, Any] = {}
                parent[slot] = copy
                for key, child in item.items():
                    shown = self.scrub_values(key) if isinstance(key, str) else key
                    copy[shown] = None
                    pending.append((child, copy, shown))
            elif isinstance(item, (list, tuple)):
                items: list[Any] = [None] * len(item)
                parent[slot] = items
                pending.extend((child, items, index) for index, child in enumerate(item))
            else:
                parent[slot] = item
        return root[0]

    def scrub_message(self, message: Message) -> Message:
        """A sentence whose quoted values (also in sentences inside it) are scrubbed. A name of ours that says
        itself in the reader's language (a :class:`~.messages.SaidName`, the demo entry's) is no quote: kept."""
        if not self:
            return message
        params = {name: (self.scrub(value) if isinstance(value, str) and not hasattr(value, "template") else
                         self.scrub_message(value) if isinstance(value, Message) else value)
                  for name, value in message.params.items()}
        return Message(message.template, params, plural=message.plural, count=message.count)


class GrowingText:
    """Text that grows piece by piece, shown scrubbed as it grows: :meth:`add` gives the part that
    may be shown now. A secret may come split across two pieces, so a tail that could be the start
    of one is held back until more text decides it (or :meth:`finish` says no more comes); what is
    shown once is never taken back. What is shown ends as ``scrub_values`` of the whole text does.
    """

    def __init__(self, secrets: Secrets) -> None:
        self._secrets = secrets
        self._shown = ""
        #: The text after what is decided (shown or cut out): scanned again when more comes.
        self._open = ""

    @property
    def shown(self) -> str:
        return self._shown

    def add(self, piece: str) -> str:
        """Take ``piece``; the text that may be shown now (scrubbed; a possible secret's start held back)."""
        text = self._open + piece
        regex = self._secrets._regex
        if regex is None:
            self._shown, self._open = self._shown + text, ""
            return self._shown
        # Everything before ``cut`` is decided: no secret can start there and end past the text.
        cut = len(text) - self._open_tail(text)
        parts, start = [], 0
        for match in regex.finditer(text):
            if match.start() >= cut:
                break
            if match.end() > cut:  # a whole secret across the cut: held back whole
                cut = match.start()
                break
            parts += [text[start:match.start()], REDACTED]
            start = match.end()
        parts.append(text[start:cut])
        self._shown += "".join(parts)
        self._open = text[cut:]
        return self._shown

    def finish(self) -> str:
        """No more text comes: what is held back is decided (it holds no whole secret, or it is cut out)."""
        self._shown += self._secrets.scrub_values(self._open)
        self._open = ""
        return self._shown

    def _open_tail(self, text: str) -> int:
        """The length of the longest end of ``text`` that is the start (not the whole) of a secret."""
        longest = 0
        for shape in self._secrets._shapes:
            for size in range(min(len(shape) - 1, len(text)), longest, -1):
                if text.endswith(shape[:size]):
                    longest = size
                    break
        return longest


def url_secrets(url: str) -> list[str]:
    """The credentials a URL carries in its user info (``user:password@``): the password, and the
    ``Basic`` header the HTTP library makes of it."""
    try:
        password = urlsplit(url).password
    except ValueError:
        return []
    if not password:
        return []
    return [password, unquote(password), basic_authorization(url) or ""]


def header_secrets(headers: dict[str, str], marked: Iterable[str] = ()) -> list[str]:
    """The values of the headers that are credentials: by their name, or ``marked`` secret by the user."""
    chosen = {name.lower() for name in marked}
    return [value for name, value in headers.items() if name.lower() in chosen or is_secret_header(name)]
