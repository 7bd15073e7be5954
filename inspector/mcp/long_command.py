"""A command line longer than any a person types (a stranger's trace file may name a server by one of megabytes:
``stdio:sh -c '…'``): named by its first words, their credentials hidden as any command line's are, then ``…`` and a
hash of the whole (``stdio:sh -c 'srv --token … a b' … sha256:1f0c…``), which keeps two such commands two servers.
The whole is never read word by word: a shell's splitting and the rule hiding credentials took about 30 s for 1 MB.
A name so made is itself short (read again, it is kept as it is) and says, by its ``…``, that words were left out:
no program is started from it."""

from __future__ import annotations

import hashlib
import shlex

#: A command line longer than this (characters) is named by its first words and a hash. A real one is a few kB; a
#: configured server's is never longer (``servers set --command`` accepts no longer one), nor the name of one.
LONGEST = 32_000
#: How much of a long command line its name repeats, at most (characters, before quoting).
HEAD = 2048
_HASH_CHARS = 16
#: What closes a quote a head cut short leaves open: none, a single or a double quote.
_CLOSERS = ("", "'", '"')


def is_long(text: str) -> bool:
    """True when the command line ``text`` is named by its first words and a hash."""
    return len(text) > LONGEST


def fingerprint(text: str) -> str:
    """A short hash of the whole command line ``text`` (``sha256:`` and 16 hex digits)."""
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
    return f"sha256:{digest[:_HASH_CHARS]}"


def head_words(text: str, limit: int = HEAD) -> list[str]:
    """The words a shell splits the first ``limit`` characters of ``text`` into, cut at a space where there is one in
    the head's second half (no word is cut in two then), a quote left open at the cut closed."""
    head = text[:limit]
    cut = max(head.rfind(" "), head.rfind("\t"), head.rfind("\n"))
    if cut > limit // 2:
        head = head[:cut]
    return closed_words(head)


def closed_words(text: str) -> list[str]:
    """The words a shell splits ``text`` into, read as if it were closed where it was cut (a quote left open, an escape
    with nothing after it); none when closing it does not help."""
    text = text.rstrip("\\")
    for closer in _CLOSERS:
        try:
            return shlex.split(text + closer)
        except ValueError:
            continue
    return []


__all__ = ["HEAD", "LONGEST", "closed_words", "fingerprint", "head_words", "is_long"]
