"""Credentials known by their shape (a JSON web token, an OpenAI or GitHub key, ...), hidden wherever a text
spells them, in time in proportion to the text.

A JSON web token is looked for once per word: every ``eyJ`` that begins a part of one word (``eyJ-eyJ-…``)
reads the same word to its end and needs the same ``.`` after it, so when the first fails they all do (as
one pattern, each read the word again: 100,000 characters took 8 s, a megabyte minutes).
"""

from __future__ import annotations

import base64
import binascii
import re

# A JSON web token; its word ends where its first part does.
_WEB_TOKEN = re.compile(r"eyJ[A-Za-z0-9_-]{5,}+\.[A-Za-z0-9_-]{5,}+\.[A-Za-z0-9_-]*+")
_WEB_TOKEN_START = re.compile(r"\beyJ")
_WORD_END = re.compile(r"[^A-Za-z0-9_-]")
# The other shapes, which are credentials wherever they appear.
_OTHER_TOKENS = re.compile(
    r"\bsk-(?:proj-|ant-)?[A-Za-z0-9_-]{16,}"                          # OpenAI / Anthropic keys
    r"|\bgh[pousr]_[A-Za-z0-9]{20,}|\bgithub_pat_[A-Za-z0-9_]{20,}"     # GitHub tokens
    r"|\bxox[abprs]-[A-Za-z0-9-]{10,}"                                  # Slack tokens
    r"|\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"                                   # AWS access key ids
    r"|\bAIza[0-9A-Za-z_-]{35}"                                          # Google API keys
    r"|\b[sr]k_(?:live|test)_[0-9A-Za-z]{10,}"                           # Stripe secret keys
    r"|\bglpat-[0-9A-Za-z_-]{20,}|\bnpm_[0-9A-Za-z]{30,}|\bhf_[A-Za-z0-9]{30,}"  # GitLab, npm, Hugging Face
    r"|hooks\.slack\.com/services/[A-Za-z0-9/_-]+")                      # Slack webhook URLs
#: What each shape begins with (case counts): a text without any of them has no known token.
TOKEN_PREFIXES = ("eyJ", "sk-", "gh", "xox", "AKIA", "ASIA", "AIza", "k_", "glpat-", "npm_", "hf_",
                  "hooks.slack.com/services/")


class _WebTokens:
    """The next JSON web token from a place on; a word whose first ``eyJ`` begins none is passed over."""

    def __init__(self, text: str) -> None:
        self._text = text
        self._failed_to = 0  # no token begins in a word that failed, up to here
        self._next: re.Match[str] | None = None
        self._searched_from = -1

    def after(self, position: int) -> re.Match[str] | None:
        if self._next is not None and self._next.start() >= position:
            return self._next
        if self._next is None and 0 <= self._searched_from <= position:
            return None  # none from an earlier place on
        self._searched_from, self._next = position, None
        for start in _WEB_TOKEN_START.finditer(self._text, position):
            if start.start() < self._failed_to:
                continue
            token = _WEB_TOKEN.match(self._text, start.start())
            if token is not None:
                self._next = token
                break
            word_end = _WORD_END.search(self._text, start.end())
            self._failed_to = word_end.start() if word_end is not None else len(self._text)
        return self._next


def hide_token_shapes(text: str, mark: str) -> str:
    """``text`` with each credential of a known shape as ``mark``: the leftmost first, a web token before another
    shape that begins at the same place (as one pattern of all of them, the web token's first, would)."""
    tokens = _WebTokens(text)
    parts: list[str] = []
    done = 0
    other = _OTHER_TOKENS.search(text)
    while True:
        if other is not None and other.start() < done:
            other = _OTHER_TOKENS.search(text, done)
        web = tokens.after(done)
        found = web if web is not None and (other is None or web.start() <= other.start()) else other
        if found is None:
            break
        parts += (text[done:found.start()], mark)
        done = found.end()
    return "".join((*parts, text[done:])) if parts else text


def is_basic_pair(value: str) -> bool:
    """True when ``value`` (the word after ``Basic``) is a ``user:password`` pair in base64, its padding perhaps left
    out: "Basic" is also an English word ("Basic usage", "basic mode"), and only such a pair is a credential."""
    try:
        decoded = base64.b64decode(value + "=" * (-len(value) % 4), validate=True)
    except (binascii.Error, ValueError):
        return False
    return b":" in decoded
