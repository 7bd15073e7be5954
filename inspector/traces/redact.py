"""Removing credentials from anything that leaves the machine in an exported trace.

Step payloads hold whatever a model, a tool or a server sent: tool arguments with an
``api_key``, raw responses echoing an ``Authorization`` header, messages quoting a URL with
``user:password@``. An export must never carry those values, whatever the key is called and
however deeply it is nested, so every exported value goes through :func:`redact`.

The rules err on the side of removing too much: a field merely named like a secret (a JSON
schema property called ``password``, say) loses its value too.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from inspector.mcp.secret_names import KEY_NAME as _KEY_NAME
from inspector.mcp.secret_names import is_secret_key, names_a_key

from .address_secrets import hide_quoted_addresses, hide_spaced_user_info, hide_typed_user_info, hide_user_infos
from .argv_secrets import argv_secrets, command_args_secrets
from .command_line_secrets import (
    hide_database_passwords,
    hide_quoted_values,
    hide_user_passwords,
    option_value,
    shows_no_value,
)
from .token_shapes import TOKEN_PREFIXES, hide_token_shapes, is_basic_pair

REDACTED = "[REDACTED]"
"""What a removed value is replaced with."""

# In free text ("key=abc", "key: abc") a bare "key" is a credential too; as an object key it is
# usually a name field ({"key": "Accept", "value": ...}), which _NAME_FIELDS handles.
_TEXT_SECRET_NAMES = frozenset({"key"})

# Objects shaped {"name": "Authorization", "value": "..."} (HAR files, header lists).
# Compared without case: {"Name": "X-Api-Key", "Value": "..."} is the same shape.
_NAME_FIELDS = frozenset({"name", "key", "header", "field"})
_VALUE_FIELDS = frozenset({"value", "values", "val"})

# Cheap test whether a string can hold anything the patterns below would remove.
_SUSPECT = re.compile(r"(?i)auth|cookie|token|key|pass|pwd|secret|credential|session|sid|bearer|basic"
                      r"|signature|jwt|://|eyJ|sk-|gh[pousr]_|github_pat_|xox[abprs]-|AKIA|AIza|[sr]k_"
                      r"|glpat-|npm_|hf_|hooks\.slack|\bpin\b|\botp\b|(?<![\w-])-u|--user|mysql|-----BEGIN"
                      r"|sig=|sig%3d|code=|code%3d")
# The same test for ASCII text, by substring search (the alternation above costs about a
# microsecond a character on long text; a body of tens of kilobytes is common, and a JSON-RPC line
# of 130 characters took 66 us against 1.5 us): every alternative of _SUSPECT spelled out in lower
# case, and the three that need word boundaries as a small pattern.
_SUSPECT_WORDS = ("auth", "cookie", "token", "key", "pass", "pwd", "secret", "credential", "session", "sid",
                  "bearer", "basic", "signature", "jwt", "://", "eyj", "sk-", "ghp_", "gho_", "ghu_", "ghs_",
                  "ghr_", "github_pat_", "xoxa-", "xoxb-", "xoxp-", "xoxr-", "xoxs-", "akia", "aiza", "sk_", "rk_",
                  "glpat-", "npm_", "hf_", "hooks.slack", "--user", "mysql", "-----begin", "sig=", "sig%3d", "code=",
                  "code%3d")
_SUSPECT_REST = re.compile(r"(?i)\bpin\b|\botp\b|(?<![\w-])-u")
# No \b: "xBearer t" hides t too. The token is never the next scheme word or credential name
# itself: in "BEARER\nBearer t" or "BEARER\nAuthorization: t" the word must not be taken for the
# token, leaving t behind (found by hypothesis).
_BEARER = re.compile(r"(?i)(bearer)(\s+)(?!(?:bearer|basic|authorization|proxy-authorization|x-api-key|api[_-]?key"
                     r"|access[_-]?token|token|password|passwd|secret|cookie)(?:\s*[:=]|\s|$))[A-Za-z0-9._~+/=-]+")
_BASIC = re.compile(r"(?i)\b(basic)(\s+)([A-Za-z0-9+/]{4,}={0,2})")
# "--token abc", "--api-key abc": a long option named like a secret, then its value; quoted, the whole of it
# ("--password 'a b'"), up to 256 characters (a quote left open is not looked for to the end of a long line).
_SECRET_OPTION = re.compile(r"""(?<![\w-])--([A-Za-z][A-Za-z0-9_-]{1,40})([ \t]+)(?![-\s])"""
                            r"""('[^'\n]{0,256}'|"[^"\n]{0,256}"|\S+)""")
# <password>...</password>, <api_key attr="">...</api_key>
_XML_ELEMENT = re.compile(r"<([A-Za-z_][\w.:-]{0,63})(\s[^<>]*)?>([^<]*)</\1\s*>")
# The same pairs spelled inside text (JSON or Python text of a header list): ["Cookie", "..."]
# and {"name": "X-Api-Key", "value": "..."}, the name right before the value.
_TEXT_PAIR = re.compile(r"""\[\s*(?P<q>\\?["'])(?P<name>[A-Za-z0-9_.-]{2,64})(?P=q)\s*,\s*"""
                        r"""(?P<vq>\\?["'])(?P<value>(?:(?!(?P=vq)).)*)(?P=vq)""")
# An option and its value further on in the text of a list of a command's words: ["srv", "--api-key", "K"].
_TEXT_ARGV_OPTION = re.compile(r""",\s*(?P<q>\\?["'])(?P<name>--?[A-Za-z][A-Za-z0-9_.-]{1,63})(?P=q)\s*,\s*"""
                               r"""(?P=q)(?P<value>(?:(?!(?P=q))[^\n]){1,256})(?P=q)""")
_TEXT_NAME_VALUE = re.compile(r"""(?P<q>\\?["'])(?i:name|key|header|field)(?P=q)\s*[:=]\s*(?P=q)"""
                              r"""(?P<name>[A-Za-z0-9_.-]{2,64})(?P=q)\s*,\s*(?P=q)(?i:value|values|val)(?P=q)"""
                              r"""\s*[:=]\s*(?P=q)(?P<value>(?:(?!(?P=q)).)*)(?P=q)""")
# PEM private keys (RSA, EC, OPENSSH, PGP ...), whole blocks; a block cut short loses the rest.
_PRIVATE_KEY = re.compile(r"-----BEGIN ([A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?)-----.*?(?:-----END \1-----|\Z)", re.S)
# "name: value", "name=value", '"name": "value"' inside free text: a name and its separator, then
# (_ASSIGNED_VALUE) the value after it, read only for a name that is a credential's: reading every
# name's value, which runs to the next space or quote, took time growing with the square of the text's
# length ("http://a:b@h/x=" repeated: 100,000 characters in 5.6 s). A value that is not removed is still
# searched (a URL holding "?api_key="). The name may be quoted, also with escaped quotes (JSON text inside a
# JSON string); it is taken whole or not at all (possessive: a shorter name is never followed by a separator).
_ASSIGNED_NAME = re.compile(r"""(?P<q>\\?["']|)(?P<name>[A-Za-z0-9_.-]{2,64}+)(?P=q)(?P<sep>[ \t]*[:=][ \t]*)""")
# A double-quoted value whose closing quote is missing runs to the end of its line: a text cut short (a
# tool's structured content kept as its JSON text, cut) may end inside it. An unquoted value ends at a space, a quote,
# ";", "&", "}" or "]", and at a comma that no more of a word follows (a space, a quote, punctuation: "PORT=80, HOST=x",
# JSON's '"token":null,"id":1') or the next name and its "=" or ":" ("{token: a,b: 1}"): "API_KEY=a,b" is one value (a
# list of keys, a password holding a comma).
_ASSIGNED_VALUE = re.compile(
    r"""\[REDACTED\]|\\"(?:[^"\\]|\\[^"])*\\"|"(?:[^"\\\n]|\\.)*(?:"|(?=\n|\Z))|'[^'\n]*'"""
    r"""|(?i:bearer|basic|token|digest|negotiate|bot|jwt)[ \t]+(?:\[REDACTED\]|[^\s"'\\,;&}\]]+)"""
    r"""|(?:[^\s"'\\,;&}\]]|,(?=[^\s"'\\,;&}\]\[{:=])(?![A-Za-z0-9_.-]{1,64}+[ \t]{0,16}[:=]))+""")
# A parameter of a URL's query or fragment, also percent-encoded inside another URL's parameter
# ("?next=https%3A%2F%2Fh%2F%3Ftoken%3Dabc"), which the assignments above do not see: a credential by
# its name, or by a name that is one only there (_URL_SECRET_NAMES).
_URL_PARAMETER = re.compile(r"(?i)(?:[?&#;]|%3F|%26|%23)(?P<name>[A-Za-z0-9_.-]{2,64})(?:=|%3D)"
                            r"(?P<value>(?:[^\s&#?%\"'<>\\]|%(?!26|23|3F)[0-9A-F]{2})+)")
# An Azure shared access signature's "sig", an OAuth authorization "code" (exchanged for a token).
_URL_SECRET_NAMES = frozenset({"sig", "code"})
# A header line ("Authorization: Basic abc def") loses everything up to the end of the line.
_HEADER_LINE = re.compile(r"(?im)^([ \t]*)([A-Za-z0-9_-]{2,64})([ \t]*:[ \t]*)(\S[^\r\n]*)$")


def redact(value: Any) -> Any:
    """Return a copy of the JSON-like ``value`` with every credential replaced by :data:`REDACTED`.

    Objects lose the values of secret-named keys (at any depth, any case); strings lose bearer
    and basic credentials, ``user:password@`` in URLs, ``secret=value`` assignments, secret
    header lines and well-known token shapes. Lists, numbers, booleans and null are kept.
    """
    # Iterative, so a deeply nested payload cannot exhaust the interpreter's stack; scalars
    # are copied in place and only lists and objects wait on the stack.
    root: list[Any] = [None]
    pending: list[tuple[Any, Any, Any]] = [(value, root, 0)]
    while pending:
        item, parent, slot = pending.pop()
        if isinstance(item, Mapping):
            copy: dict[str, Any] = {}
            parent[slot] = copy
            named_secret = _names_a_secret(item)
            glued = _glued_to_program(item)
            for key, child in item.items():
                if key == "args" and glued:
                    child = [glued.get(index, word) for index, word in enumerate(child)]
                # A key can spell a credential too (a map keyed by token); keys are short, cached.
                shown = _redact_short(key) if type(key) is str else key
                if (is_secret_key(key) or (named_secret and _is_value_field(key))) and not _harmless(child):
                    copy[shown] = REDACTED
                else:
                    # server.address "u:pw@h": a user name and password, not a service's name (svc:v2@prod)
                    if type(child) is str and "@" in child and _names_an_address(key):
                        child = hide_typed_user_info(child, f"{REDACTED}@")
                    copy[shown] = _scalar(child, copy, shown, pending)
        elif isinstance(item, (list, tuple)):
            items: list[Any] = [None] * len(item)
            parent[slot] = items
            # A name/value pair as a list (["Cookie", "..."], header lists of some libraries). A
            # name holds no colon: ["Authorization: Bearer x", "next line"] is lines of text (a
            # server's stderr), each redacted as text, not a name and its value.
            pair = 2 <= len(item) <= 3 and type(item[0]) is str and ":" not in item[0] and is_secret_key(item[0])
            # A command's words (["--api-key", "K"], "args" of a client's configuration), read as a command line.
            words = argv_secrets(item, REDACTED)
            for index, child in enumerate(item):
                if pair and index and not _harmless(child):
                    items[index] = REDACTED
                elif index in words:
                    items[index] = words[index]
                else:
                    items[index] = _scalar(child, items, index, pending)
        else:
            parent[slot] = _scalar(item, parent, slot, pending)
    return root[0]


def _scalar(item: Any, parent: Any, slot: Any, pending: list[tuple[Any, Any, Any]]) -> Any:
    """A scalar's redacted copy; a list or object is queued and ``None`` stands in for now."""
    kind = type(item)
    if kind is str:
        return _redact_short(item) if len(item) <= 64 else redact_text(item)
    if kind is dict or kind is list or kind is tuple or isinstance(item, Mapping):
        pending.append((item, parent, slot))
        return None
    return item


def redact_text(text: str) -> str:
    """Return ``text`` with the credentials it spells out replaced by :data:`REDACTED`."""
    if not _suspect(text):
        return text  # the common case: nothing that could be a credential
    # Each pattern runs only where the text holds what it cannot match without (a literal it
    # spells): the same result, without scanning a header value or a JSON-RPC line a dozen times.
    # Patterns that ignore case are only skipped for ASCII text (Unicode case folding has
    # surprises: "ſ" matches "s").
    ascii_text = text.isascii()
    # Whole private key blocks first: their base64 lines would otherwise be cut up below.
    if "-----BEGIN" in text:
        text = _PRIVATE_KEY.sub(_private_key, text)
    # Words quoted whole next ('--password=a;b', "API_KEY=a b"): each pass below would read their value to its first
    # space, quote or ";" only, and leave the rest.
    if "'" in text or '"' in text:
        text = hide_quoted_values(text, REDACTED, names_a_key)
    # Schemes next: once "Authorization: Bearer x" has lost its value, "x" is just a word.
    if not ascii_text or "bearer" in text.lower():
        text = _BEARER.sub(rf"\1\2{REDACTED}", text)
    if not ascii_text or "basic" in text.lower():
        text = _BASIC.sub(_basic, text)
    if ":" in text:
        text = _HEADER_LINE.sub(_header_line, text)
    if ":" in text or "=" in text:
        text = _redact_assignments(text)
    if "=" in text or "%3" in text:
        text = _URL_PARAMETER.sub(_url_parameter, text)
    if "://" in text and "@" in text:
        # An address whose password holds a space or a quote: a whole string (a word of a command's list), or a word
        # quoted whole (a stdio server's argument); elsewhere a word ends at either.
        text = hide_spaced_user_info(text, REDACTED) or text
        if "'" in text or '"' in text:
            text = hide_quoted_addresses(text, REDACTED)
        text = hide_user_infos(text, REDACTED)
    if "-u" in text:
        text = hide_user_passwords(text, REDACTED)
    if not ascii_text or "mysql" in (folded := text.lower()) or "mariadb" in folded:
        text = hide_database_passwords(text, REDACTED)
    if "--" in text:
        text = _SECRET_OPTION.sub(_secret_option, text)
    if "</" in text:
        text = _XML_ELEMENT.sub(_xml_element, text)
    if "'" in text or '"' in text:
        if "[" in text:
            text = _TEXT_PAIR.sub(_text_pair, text)
        if "," in text and "-" in text:
            text = _TEXT_ARGV_OPTION.sub(_text_argv_option, text)
        if ":" in text or "=" in text:
            text = _TEXT_NAME_VALUE.sub(_text_pair, text)
    if any(prefix in text for prefix in TOKEN_PREFIXES):
        text = hide_token_shapes(text, REDACTED)
    return text


def _suspect(text: str) -> bool:
    """Whether ``text`` may hold anything the patterns remove (what ``_SUSPECT`` finds)."""
    if not text.isascii():
        return _SUSPECT.search(text) is not None
    folded = text.lower()
    return any(word in folded for word in _SUSPECT_WORDS) or _SUSPECT_REST.search(text) is not None


# Short strings repeat (method names, outcomes, kinds): remember their redacted form.
_redact_short = lru_cache(maxsize=8192)(lambda text: redact_text(text))


def _harmless(value: Any) -> bool:
    # null and booleans carry no secret; keeping them keeps "password": null readable.
    return value is None or isinstance(value, bool) or value == REDACTED


def _names_a_secret(item: Mapping[str, Any]) -> bool:
    return any(type(key) is str and key.lower() in _NAME_FIELDS and isinstance(value, str) and is_secret_key(value)
               for key, value in item.items())


def _glued_to_program(item: Mapping[Any, Any]) -> dict[int, str]:
    """The ``args`` of a command given beside its program (``{"command": "mysql", "args": ["-pX"]}``) that hold a
    password glued to ``-p``, by index, as :data:`REDACTED` makes them."""
    args = item.get("args")
    return command_args_secrets(item.get("command"), args, REDACTED) if isinstance(args, list) else {}


def _names_an_address(key: Any) -> bool:
    """``server.address``, ``client.address``, ``address``: a value an address, even typed without its scheme."""
    return type(key) is str and key[-7:].lower() == "address"


def _is_value_field(key: Any) -> bool:
    return type(key) is str and key.lower() in _VALUE_FIELDS


def _private_key(match: re.Match[str]) -> str:
    label = match.group(1)
    return f"-----BEGIN {label}-----{REDACTED}-----END {label}-----"


def _text_pair(match: re.Match[str]) -> str:
    if not is_secret_key(match.group("name")) or match.group("value") in ("", REDACTED):
        return match.group(0)
    start, end = match.span("value")
    whole = match.start()
    return match.group(0)[:start - whole] + REDACTED + match.group(0)[end - whole:]


def _text_argv_option(match: re.Match[str]) -> str:
    value = match.group("value")
    if not names_a_key(match.group("name")) or value == REDACTED or value.startswith("-"):
        return match.group(0)
    start, end = match.span("value")
    return match.string[match.start():start] + REDACTED + match.string[end:match.end()]


def _secret_option(match: re.Match[str]) -> str:
    # "…" is how a command server's name shows a credential (--token …, also before the rest of a shell's script it
    # shows: --token …; echo, and after the quote that closes a script's other words: sh -c 'srv --token '…): no value.
    if not names_a_key(match.group(1)) or shows_no_value(match.group(3).removeprefix("'"), REDACTED):
        return match.group(0)
    return f"--{match.group(1)}{match.group(2)}{REDACTED}"


def _xml_element(match: re.Match[str]) -> str:
    tag, attributes, content = match.group(1), match.group(2) or "", match.group(3)
    if not content.strip() or content == REDACTED or not is_secret_key(tag.rpartition(":")[2]):
        return match.group(0)
    return f"<{tag}{attributes}>{REDACTED}</{tag}>"


def _url_parameter(match: re.Match[str]) -> str:
    name, value = match.group("name"), match.group("value")
    if value == REDACTED or not (name.lower() in _URL_SECRET_NAMES or is_secret_key(name)):
        return match.group(0)
    start = match.start("value") - match.start()
    return match.group(0)[:start] + REDACTED

def _header_line(match: re.Match[str]) -> str:
    if not names_a_key(match.group(2)) or match.group(4) == REDACTED:
        return match.group(0)
    return f"{match.group(1)}{match.group(2)}{match.group(3)}{REDACTED}"


def _redact_assignments(text: str) -> str:
    parts: list[str] = []
    done = 0
    for match in _ASSIGNED_NAME.finditer(text):
        if match.start() < done:
            continue  # inside a value already removed
        name = match.group("name")
        bare_key = not match.group("q") and name.lower() in _TEXT_SECRET_NAMES  # key=abc, not "key": "Accept"
        key_option = name.startswith("--") and _KEY_NAME.search(name) is not None  # --access-key=abc
        if not (is_secret_key(name) or bare_key or key_option):
            continue
        # A command line's option ("--password=a,b"): its value runs to a space, not to a comma as in prose.
        option = (name.startswith("-") and not match.group("q") and "=" in match.group("sep")
                  and text[match.end():match.end() + 1] not in "\"'")
        found = (option_value(text, match.start(), match.end()) if option else None) or _ASSIGNED_VALUE.match(
            text, match.end())
        if found is None:
            continue  # no value: "token=" at the end, "key: 'unclosed"
        value = found.group()
        quote = "\\\"" if value.startswith("\\\"") else (value[0] if value[0] in "\"'" else "")
        # "…" is how a command line shows a variable by its name only (API_KEY=…): no value to remove.
        if value[len(quote):len(value) - len(quote)] in (REDACTED, "null", "true", "false", "", "…"):
            continue
        start, end = found.span()
        parts.append(text[done:start])
        parts.append(f"{quote}{REDACTED}{quote}")
        done = end
    if not parts:
        return text
    parts.append(text[done:])
    return "".join(parts)


def _basic(match: re.Match[str]) -> str:
    # "Basic" is also an English word: only a base64 "user:password" pair is a credential.
    if not is_basic_pair(match.group(3)):
        return match.group(0)
    return f"{match.group(1)}{match.group(2)}{REDACTED}"
