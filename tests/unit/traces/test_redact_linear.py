"""Redaction takes time in proportion to the text's length, whatever a stranger's trace holds.

Each pass once read text over again from each of many places ("http://a:b@h/x=" repeated: every
name's value ran to the end), so a 1 MB attribute of an imported trace took minutes. These check
the passes on hostile shapes of 1 MB (bounds generous for a loaded machine: each took minutes), and
that the faster passes remove exactly what the slow ones did.
"""

from __future__ import annotations

import importlib
import random
import re
import time
from collections.abc import Callable

import pytest

from inspector.mcp import user_info
from inspector.traces.address_secrets import hide_user_infos
from inspector.traces.command_line_secrets import hide_database_passwords, hide_user_passwords, option_value
from inspector.traces.redact import redact, redact_text
from inspector.traces.token_shapes import hide_token_shapes

redact_module = importlib.import_module("inspector.traces.redact")  # the package's ``redact`` is the function

MEGABYTE = 1_000_000
# A pass that stays linear does 1 MB of any of these in well under a second; each took minutes before.
SLOW_SECONDS = 5.0

# The assignments pass as it was (every name's value read in a lookahead), the reference its
# replacement must agree with; a command line's option's value read to a space as since (option_value), a value
# in prose over a comma that no space, comma or next name and "=" follows as since ("API_KEY=a,b").
_ASSIGNMENT_BEFORE = re.compile(
    r"""(?P<q>\\?["']|)(?P<name>[A-Za-z0-9_.-]{2,64})(?P=q)(?P<sep>[ \t]*[:=][ \t]*)"""
    r"""(?=(?P<value>\[REDACTED\]|\\"(?:[^"\\]|\\[^"])*\\"|"(?:[^"\\\n]|\\.)*(?:"|(?=\n|\Z))|'[^'\n]*'"""
    r"""|(?i:bearer|basic|token|digest|negotiate|bot|jwt)[ \t]+(?:\[REDACTED\]|[^\s"'\\,;&}\]]+)"""
    r"""|(?:[^\s"'\\,;&}\]]|,(?=[^\s"'\\,;&}\]\[{:=])(?![A-Za-z0-9_.-]{1,64}+[ \t]{0,16}[:=]))+))""")

# The command-line passes as they were: single patterns, each reading the rest of the line or word
# again from every "mysql" or "-u".
_USER_OPTION_BEFORE = re.compile(
    r"""(?<![\w-])(-u|--user|--proxy-user)([ \t]*=?[ \t]*)(\\?["']?)[^\s"':\\]*:[^\s"'\\]+\3""")
_MYSQL_PASSWORD_BEFORE = re.compile(r"(?i)(\b(?:mysql|mysqldump|mariadb|mysqladmin)\b[^\n]*?[ \t]-p)(\S+)")

# The addresses' user info as it was read: from every word boundary, each to the next space.
# (An "@" beginning a path segment ends a tail as what hides an address reads it: http://bob:x@PWb/@host.)
_USER_INFO_BEFORE = re.compile(r"(?i)\b(?P<head>[a-z][a-z0-9+.-]*://)" + user_info._user_info(r"\s\"'<>", hiding=True))

# The known token shapes as one pattern: a web token looked for again from every "eyJ" of a word.
_KNOWN_TOKENS_BEFORE = re.compile(
    r"\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*|\bsk-(?:proj-|ant-)?[A-Za-z0-9_-]{16,}"
    r"|\bgh[pousr]_[A-Za-z0-9]{20,}|\bgithub_pat_[A-Za-z0-9_]{20,}|\bxox[abprs]-[A-Za-z0-9-]{10,}"
    r"|\b(?:AKIA|ASIA)[0-9A-Z]{16}\b|\bAIza[0-9A-Za-z_-]{35}|\b[sr]k_(?:live|test)_[0-9A-Za-z]{10,}"
    r"|\bglpat-[0-9A-Za-z_-]{20,}|\bnpm_[0-9A-Za-z]{30,}|\bhf_[A-Za-z0-9]{30,}|hooks\.slack\.com/services/[A-Za-z0-9/_-]+")


def user_infos_before(text: str) -> str:
    mark = redact_module.REDACTED
    return _USER_INFO_BEFORE.sub(lambda match: user_info.hide_user_info(match, match["head"], f"{mark}@", mark,
                                                                                   host_in_tail=True), text)


def assignments_before(text: str) -> str:
    m = redact_module
    parts: list[str] = []
    done = 0
    for match in _ASSIGNMENT_BEFORE.finditer(text):
        name = match.group("name")
        bare_key = not match.group("q") and name.lower() in m._TEXT_SECRET_NAMES
        key_option = name.startswith("--") and m._KEY_NAME.search(name) is not None
        if match.start() < done or not (m.is_secret_key(name) or bare_key or key_option):
            continue
        # A command line's option ("--password=a,b"): its value runs to a space (option_value), not to a comma.
        option = (name.startswith("-") and not match.group("q") and "=" in match.group("sep")
                  and text[match.end():match.end() + 1] not in "\"'")
        found = option_value(text, match.start(), match.end()) if option else None
        value = match.group("value") if found is None else found.group()
        quote = "\\\"" if value.startswith("\\\"") else (value[0] if value[0] in "\"'" else "")
        if value[len(quote):len(value) - len(quote)] in (m.REDACTED, "null", "true", "false", "", "…"):
            continue
        start, end = match.span("value") if found is None else found.span()
        parts.append(text[done:start])
        parts.append(f"{quote}{m.REDACTED}{quote}")
        done = end
    parts.append(text[done:])
    return "".join(parts)


# What the pattern is made of: separators, quotes (also escaped), names secret or not, values
# the pass keeps, schemes, whitespace, non-ASCII letters (case folding: "ſ", the Kelvin sign).
PIECES = ["=", ":", "@", "/", '"', "'", '\\"', "\\", "token", "password", "Bearer ", "bearer\t", "basic ", "key",
          "--access-key", "api_key", "Pwd", "pin", "xpin", "tokens", " ", "\t", "\n", "\r", ",", ";", "&", "}", "]",
          "[", "[REDACTED]", "null", "true", "…", "ſ", "K", "é", "密", "http://", "a:b@h", "x", "ab", "-", ".", "_",
          "7", "a" * 63, "b" * 70, "?", "#", "%3D", "-u", "-u ", "--user", "--proxy-user", "mysql", "MariaDB ",
          "mysqldump", "-p", " -P", "-psecret", "x-u", "://", "x://", "HTTP://", "a.b", "1", "+", "<", ">",
          "a:b@h/", "/@", "=@", "@", "eyJ", "eyJhbGci", "abcde", "sk-", "ghp_", "AKIA", "ABCDEFGH", "xoxb-",
          "sk_live_", "hooks.slack.com/services/", "0123456789"]


def megabyte_of(shape: str) -> str:
    return (shape * (MEGABYTE // len(shape) + 1))[:MEGABYTE]


def seconds_for(redacting: Callable[[str], str], text: str) -> float:
    """CPU seconds of this thread: the work done, not the machine's load (at a load of 6 on 2 cores a 1 s pass took
    more than 5 s of wall time); a pass growing with the square of the length takes minutes either way."""
    started = time.thread_time()
    redacting(text)
    return time.thread_time() - started


def hostile_texts(count: int, seed: int) -> list[str]:
    chance = random.Random(seed)
    texts = []
    for _ in range(count):
        size = chance.randint(1, 24)
        texts.append("".join(chance.choice(PIECES) for _ in range(size)))
    return texts


def test_the_linear_assignments_pass_removes_exactly_what_the_old_one_removed() -> None:
    for text in hostile_texts(4000, seed=67):
        assert redact_module._redact_assignments(text) == assignments_before(text), text


@pytest.mark.parametrize("shape", ["http://a:b@h/x=", "?token=", "ab=", "http://a@", "-u=", "-", "token=", "token=a,b",
                                   ",b" + "c" * 70, ",b\t"])
def test_a_megabyte_of_assignment_shapes_is_redacted_in_seconds(shape: str) -> None:
    assert seconds_for(redact_module._redact_assignments, megabyte_of(shape)) < SLOW_SECONDS


def test_the_command_line_passes_hide_exactly_what_the_old_patterns_hid() -> None:
    mark = redact_module.REDACTED
    for text in hostile_texts(4000, seed=23):
        assert hide_user_passwords(text, mark) == _USER_OPTION_BEFORE.sub(rf"\1\2\3{mark}\3", text), text
        assert hide_database_passwords(text, mark) == _MYSQL_PASSWORD_BEFORE.sub(rf"\1{mark}", text), text


@pytest.mark.parametrize("shape", ["mysql ", "MariaDB\t", "-u.", "-u=", "--user=a", "-u'a:b"])
def test_a_megabyte_of_command_line_shapes_is_redacted_in_seconds(shape: str) -> None:
    assert seconds_for(redact_text, megabyte_of(shape)) < SLOW_SECONDS


def test_the_user_info_pass_hides_exactly_what_the_old_pattern_hid() -> None:
    for text in hostile_texts(4000, seed=31):
        assert hide_user_infos(text, redact_module.REDACTED) == user_infos_before(text), text


@pytest.mark.parametrize("shape", ["a.b", "eyJ-", "sk-", "-u.", "x://a:b", "x://a:b@", "x://a:b/@/", "x://a:b@h/@"])
def test_a_megabyte_of_address_shapes_is_redacted_in_seconds(shape: str) -> None:
    text = megabyte_of(shape) + " x://a:b@h"
    assert seconds_for(lambda text: hide_user_infos(text, redact_module.REDACTED), text) < SLOW_SECONDS


def test_the_token_shapes_pass_hides_exactly_what_the_old_pattern_hid() -> None:
    mark = redact_module.REDACTED
    for text in hostile_texts(4000, seed=41):
        assert hide_token_shapes(text, mark) == _KNOWN_TOKENS_BEFORE.sub(mark, text), text


@pytest.mark.parametrize("shape", ["eyJ-", "eyJaaaaa.", "eyJ-sk-", "eyJ_ghp_x"])
def test_a_megabyte_of_token_shapes_is_redacted_in_seconds(shape: str) -> None:
    assert seconds_for(lambda text: hide_token_shapes(text, redact_module.REDACTED), megabyte_of(shape)) < SLOW_SECONDS


@pytest.mark.parametrize("shape", ["http://a:b@h/x=", "x://a:b/@/", "mysql ", "eyJ-"])
def test_an_exported_step_holding_a_megabyte_of_a_hostile_shape_is_redacted_in_seconds(shape: str) -> None:
    def exported(result: str) -> str:
        return redact({"kind": "tool", "toolName": "lookup", "toolResult": result})["toolResult"]

    assert seconds_for(exported, megabyte_of(shape) + " ://@ mysql -u eyJ") < SLOW_SECONDS
