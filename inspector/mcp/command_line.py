"""The command line a command server is named by (its key in the store, its label, what a run keeps): its words
quoted as a shell needs them, the credentials among them as ``…``, as an export removes them
(``inspector.traces.redact``): the value of an option named like one (``--token T``, ``--api-key=K``), of a variable
named like one (``API_KEY=K``), of a header line named like one (``Authorization: Bearer T``), a ``user:password``
given to ``-u``, ``--user`` or ``--proxy-user``, an address's password (with a host that may be a piece of it),
query and fragment, a credential known by its shape (``sk-…``, ``ghp_…``) and a password glued to ``-p`` after
a MySQL or MariaDB program (``mysql -pX``). The program is started with its words
as given (a configured server's configuration keeps them); what names it never holds them."""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence

from .address_query import address_to_quote
from .long_command import HEAD, LONGEST, closed_words, fingerprint, head_words, is_long
from .secret_names import is_secret_key, names_a_key
from .shell_script import script_index, script_shown
from .user_info import address_shown, spaced_user_info

#: What stands for a credential in a command line (as ``API_KEY=…`` names a variable of its environment).
MASK = "…"
#: What an older export put in a credential's place: read as the mask (importing it names the same server).
_REDACTED = "[REDACTED]"
_USER_OPTIONS = ("-u", "--user", "--proxy-user")
#: ``NAME=value`` (a variable, ``--option=value``): the name and the value.
_ASSIGNED = re.compile(r"(-{0,2}[A-Za-z_][A-Za-z0-9_.-]*)=(.+)", re.S)
#: A credential after its scheme (``Bearer T``, ``Basic dXNl…``), as a header's value is given alone: the scheme, and
#: the credential, one word ("Bearer token authentication is required" is prose, its credential hidden in its place).
_SCHEME_VALUE = re.compile(r"(?i)(bearer|basic)[ \t]+\S+[ \t]*")
#: A header line given as one word (``--header "Authorization: Bearer T"``, or glued to its option: ``-HX-Api-Key:K``):
#: the option, the name and the value.
_HEADER = re.compile(r"(-[A-Za-z])?([A-Za-z][A-Za-z0-9_-]*):[ \t]*(\S.*)", re.S)


#: Programs whose ``-p`` takes the password glued to it (``mysql -pSECRET``; ``-p 3306`` of others is a port, and
#: ``psql``'s ``-p`` is one).
DATABASE_PROGRAMS = frozenset({"mysql", "mysqldump", "mysqladmin", "mysqlimport", "mysqlcheck", "mysqlshow",
                               "mysqlslap", "mariadb", "mariadb-dump", "mariadb-admin", "mariadb-import",
                               "mariadb-check", "mariadb-show", "mariadb-slap"})


def hidden_words(argv: Sequence[str]) -> list[str]:
    """``argv`` with each credential (see the module) as :data:`MASK`, or the word's part after its ``=``; a password
    glued to ``-p`` after a MySQL or MariaDB program (``mysql -pX``, ``docker exec db mysql -pX``) as ``-p…``."""
    shown = [_hidden(word, argv[index - 1] if index else "") for index, word in enumerate(argv)]
    database = False
    for index, word in enumerate(argv):
        if is_database_program(word):
            database = True
        elif database and word.startswith("-p") and len(word) > 2 and word[2:] not in (MASK, _REDACTED):
            shown[index] = "-p" + MASK
    return shown


def leaves_out_credentials(argv: Sequence[str]) -> bool:
    """True when a credential of ``argv`` is the mark of one left out (``--token …``, ``API_KEY=…``, ``-u …``, an older
    export's ``[REDACTED]``, ``…`` alone): a command line as a server's name or ``servers --json`` gives it, which
    would start the program with the mark; in a shell's script, also before the rest of it (``sh -c 'API_KEY=…
    exec srv'``). A word holding one so that holds no credential (``wait…``) is none."""
    marked = [index for index, word in enumerate(argv) if MASK in word or _REDACTED in word]
    if any(argv[index] in (MASK, _REDACTED) for index in marked):
        return True  # a word of its own (a key known by its shape: srv sk-… is named "srv …")
    filled = list(argv)
    for index in marked:  # as if the value were there (a user:password for -u): is it one the name hides?
        filled[index] = filled[index].replace(_REDACTED, MASK).replace(MASK, "X:X")
    shown = shown_words(filled)
    return any(MASK in shown[index] and shown[index] != filled[index] for index in marked)


def is_database_program(word: str) -> bool:
    """True for a MySQL or MariaDB client named by ``word`` (a path too: ``/usr/bin/mysql``)."""
    return word.rpartition("/")[2].lower().removesuffix(".exe") in DATABASE_PROGRAMS


def shown_words(argv: Sequence[str]) -> list[str]:
    """:func:`hidden_words`, and in a word of several (``'host=db password=P'``, ``sh -c 'srv --token T'``, JSON)
    each credential the export finds in a text as :data:`MASK`, in its place: what names a command server never
    shows what an export of its runs leaves out. A shell's script (``sh -c 'API_KEY=K exec srv'``) is read as the
    words it runs, each credential hidden as one of a command line (``'API_KEY=… exec srv'``), its other words kept."""
    shown = hidden_words(argv)
    if (script := script_index(argv)) is not None:
        shown[script] = script_shown(argv[script], shown_words, _quoted) or shown[script]
    return [_in_its_place(word) for word in shown]


def shown_command_line(argv: Sequence[str]) -> str:
    """``argv`` as a shell would need it typed, its credentials as ``…``: what names a command server (one longer
    than :data:`.long_command.LONGEST` by its first words and a hash of the whole)."""
    if sum(len(word) for word in argv) + len(argv) - 1 > LONGEST:  # longer than any accepted typed
        return _long_named(" ".join(shlex.quote(word) for word in argv))
    return _typed(shown_words(argv))


def shown_typed_command_line(text: str) -> str | None:
    """A command line as typed (``--stdio "cmd --token T"``, a command server's key without ``stdio:``) as
    :func:`shown_command_line` gives it; ``None`` for what a shell could not split, or nothing."""
    if is_long(text):
        return _long_named(text)
    words = _words(text)
    return shown_command_line(words) if words else None


def without_credentials(text: str) -> str:
    """A command line as a file names it: as it is when no word of it is a credential (its quoting kept), else
    as :func:`shown_command_line` gives it (``cmd --token …``); one longer than :data:`.long_command.LONGEST` by its
    first words, so shown, and a hash of the whole."""
    if is_long(text):
        return _long_named(text)
    words = _words(text) or closed_words(text)  # a stranger's file may have cut it in a quote: its credentials too
    shown = shown_words(words)  # once: a stranger's key may be long
    return _typed(shown) if shown != words else text


def _long_named(text: str) -> str:
    """The name of the long command line ``text``: its first words as :func:`shown_command_line` gives them, ``…`` and
    a hash of the whole, both read after the export's text rule (linear) hid the credentials it finds: two commands
    that differ only in a token are one server, as short ones are. Fewer first words when quoting them made the name
    long itself (read again, it must be kept as it is)."""
    hidden = _in_its_place(text)
    tail = f" {MASK} {fingerprint(hidden)}"
    limit = HEAD
    while True:
        name = _typed(shown_words(head_words(hidden, limit))) + tail
        if len(name) <= LONGEST // 2 or limit == 0:
            return name.lstrip()
        limit //= 2


def _typed(shown: Sequence[str]) -> str:
    """Words as :func:`shown_words` gives them, quoted as a shell needs them and joined."""
    return " ".join(_quoted(word) for word in shown)


def _words(text: str) -> list[str]:
    """The words a shell splits ``text`` into; none when it cannot (a quote left open)."""
    try:
        return shlex.split(text)
    except ValueError:
        return []


def _hidden(word: str, previous: str) -> str:
    if word in (MASK, _REDACTED):
        return MASK
    if (previous.startswith("--") and "=" not in previous and names_a_key(previous[2:]) and word.strip()
            and not word.startswith("-")):
        return MASK  # --token T (a value never begins with "-": "--token --verbose" gives none)
    if (previous in _USER_OPTIONS and ":" in word) or (word.startswith("-u") and word[2:3] not in ("", "-")
                                                        and ":" in word and "=" not in word):
        return MASK if previous in _USER_OPTIONS else "-u" + MASK  # curl -u bob:pw, -ubob:pw
    if (assigned := _ASSIGNED.fullmatch(word)) is not None and "://" not in assigned.group(1):
        name, value = assigned.groups()
        if name in _USER_OPTIONS and ":" in value:
            return f"{name}={MASK}"
        if (hidden := _hidden_value(value)) is not None:  # --header=X-Api-Key:K, --env=API_KEY=K
            return f"{name}={hidden}"
    if (hidden := _hidden_value(word)) is not None:
        return hidden
    if "://" in word:
        # Kept and exported: a password holding a space or a quote is hidden too, and a host that may be a piece of the
        # password (its tail's: se@c/ret@host, @PWb?@host) with it.
        if (spaced := spaced_user_info(word)) is not None:
            word = word[:spaced[0]] + word[spaced[1] + 1:]
        return address_to_quote(address_shown(word, host_in_tail=True))
    return _without_token_shapes(word)


def _without_token_shapes(word: str) -> str:
    """``word`` with each credential known by its shape (``sk-…``, ``ghp_…``) as :data:`MASK`, as the export removes
    them (a token given alone, or after an option not named like one: ``--pat ghp_…``)."""
    from inspector.traces.token_shapes import TOKEN_PREFIXES, hide_token_shapes  # the export's rule, not a copy

    return hide_token_shapes(word, MASK) if any(prefix in word for prefix in TOKEN_PREFIXES) else word


def _in_its_place(word: str) -> str:
    """``word`` with each credential the export's text rule finds in it as :data:`MASK` (the rule itself, not a
    copy: loaded when a command server is named)."""
    from inspector.traces.redact import REDACTED, redact_text

    found = redact_text(word)
    return word if found == word else found.replace(REDACTED, MASK)


def _hidden_value(word: str) -> str | None:
    """``word`` with its credential as :data:`MASK` when it is a variable or option named like one (``API_KEY=K``,
    ``--token=T``), a header line (``Authorization: Bearer T``, ``-HX-Api-Key:K``) or a header's value after its
    scheme (``Bearer T``); ``None`` for any other."""
    if (assigned := _ASSIGNED.fullmatch(word)) is not None and "://" not in assigned.group(1):
        name = assigned.group(1)
        if names_a_key(name[2:]) if name.startswith("--") else is_secret_key(name):
            return f"{name}={MASK}"
    if (header := _HEADER.fullmatch(word)) is not None and names_a_key(header.group(2)):
        return f"{header.group(1) or ''}{header.group(2)}: {MASK}"  # -H "Authorization: Bearer T", -HX-Api-Key:K
    # "Basic" and "Bearer" are also English words ("Basic setup", "Bearer token"): only what the export's text rule
    # takes for a credential after them is one (a base64 "user:password" after "Basic").
    if (scheme := _SCHEME_VALUE.fullmatch(word)) is not None and _in_its_place(word) != word:
        return f"{scheme.group(1)} {MASK}"  # mcp-proxy --headers Authorization "Bearer T"
    return None


def _quoted(word: str) -> str:
    """``word`` quoted as a shell needs it; a credential's mark after a name left as it is (``--token=…``)."""
    if word.endswith(MASK) and MASK not in word[:-1]:
        before = word[:-1]
        return (shlex.quote(before) if before else "") + MASK
    return shlex.quote(word)


__all__ = ["DATABASE_PROGRAMS", "MASK", "hidden_words", "is_database_program", "leaves_out_credentials",
           "shown_command_line", "shown_typed_command_line", "shown_words", "without_credentials"]
