"""Passwords a command line spells: ``curl -u user:password`` and ``mysql -pSECRET``, hidden in a text; and a
credential in a word quoted whole (``'--password=a;b'``, as a command server's key quotes it), to its closing quote.

Each is read once through the text, whatever it holds: as single patterns they read the rest of a
line (or of a word) again from every ``mysql`` or ``-u`` in it, and 100,000 characters of ``mysql ``
or ``-u.`` repeated took seconds (a megabyte minutes). What they hide is what those patterns hid.
"""

from __future__ import annotations

import re
from collections.abc import Callable

# "mysql -pSECRET" (the password glued to the option), anywhere on the line after the command.
_DATABASE_COMMAND = re.compile(r"(?i)\b(?:mysql|mysqldump|mariadb|mysqladmin)\b")
_GLUED_PASSWORD = re.compile(r"(?i)[ \t]-p(\S+)")
# "curl -u user:password", "--user user:password", "-uuser:password" (quoted or not): the option, then a
# user name up to its ":" (_USER_END) and a password up to a space or quote (_PASSWORD_END), closed by the
# quote that opened them.
_USER_OPTION = re.compile(r"""(?<![\w-])(?:-u|--user|--proxy-user)[ \t]*=?[ \t]*(\\?["']?)""")
_USER_END = re.compile(r"""[\s"':\\]""")
_PASSWORD_END = re.compile(r"""[\s"'\\]""")
# A word quoted whole, after its opening quote: as shlex.join quotes one holding a space or punctuation ('a;b', its
# own quote as 'a'"'"'b', pieces glued), or in double quotes; each piece at most 256 characters.
_SINGLE_QUOTED_REST = r"""[^'\n]{0,256}'(?:"'"'[^'\n]{0,256}')*"""
_DOUBLE_QUOTED_REST = r'(?:[^"\\\n]|\\.){0,256}"'
QUOTED_REST = {"'": re.compile(_SINGLE_QUOTED_REST), '"': re.compile(_DOUBLE_QUOTED_REST)}
# A word quoted whole that begins with a name and "=" or ":" ('--password=a;b', "API_KEY=a b", 'X-Api-Key: a b'),
# where a space or the text's start is before it (looked at apart: a pattern beginning with that look is slower).
_QUOTED_ASSIGNMENT = re.compile(r"""(?P<quote>['"])(?P<name>[A-Za-z0-9_.-]{2,64}+)(?:=|:[ \t]*)""")
# A long option or -u, then a word quoted whole, up to a space or the end (--password 'a b', -u "bob:a b"; not
# --token "token": "…", a quoted name of a JSON text), where no letter, digit, "_" or "-" is before it.
_QUOTED_AFTER_OPTION = re.compile(rf"""(?P<option>--[A-Za-z][A-Za-z0-9_-]{{1,40}}+|-u)[ \t]+"""
                                  rf"""(?P<word>'{_SINGLE_QUOTED_REST}|"{_DOUBLE_QUOTED_REST})(?!\S)""")
_USER_OPTIONS = frozenset({"-u", "--user", "--proxy-user"})
# What may stand before a word's opening quote besides a space: a list's or an object's punctuation (["API_KEY=a b"]).
_BEFORE_A_WORD = frozenset("[(,{:=")
# The value of "--password=…" as a command line spells it: to the next space (a comma or ";" is part of it), quote
# or \" (where a JSON text's string holding the command line ends). In a word quoted whole ("--password=a b" in a JSON
# list, '--password=a b' in a Python one, \"…\" in JSON text inside a JSON string) to that quote, at most 256
# characters (one left open is not looked for to the end of a long line).
_OPTION_VALUE = re.compile(r"""(?:[^\s"'\\]|\\[^\s"'])+""")
_QUOTED_OPTION_VALUE = {'"': re.compile(r'(?:[^"\\\n]|\\.){1,256}(?=")'), "'": re.compile(r"[^'\n]{1,256}(?=')"),
                        '\\"': re.compile(r'(?:[^\\\n]|\\[^"\n]){1,256}(?=\\")')}


#: How a command server's name shows a credential (``--token …``, ``API_KEY=…``: inspector.mcp.command_line).
NAME_MARK = "…"
#: What may follow a name's mark in a shell's script it shows (``'API_KEY=… exec srv'``, ``'srv --token …; echo'``).
_AFTER_NAME_MARK = frozenset(" \t\n;&|()<>")


def shows_no_value(value: str, mark: str) -> bool:
    """True when ``value`` (what follows a credential's name) holds none: nothing, ``mark``, or a command server's
    name's mark, alone or with the rest of a shell's script after it (``… exec srv``, ``…;``)."""
    return value in ("", mark, NAME_MARK) or (value.startswith(NAME_MARK) and value[1] in _AFTER_NAME_MARK)


def option_value(text: str, name_start: int, value_start: int) -> re.Match[str] | None:
    """The value of a command line's ``--name=value`` whose name begins at ``name_start`` (its ``--``) and value at
    ``value_start``: to the quote the word began with (``"--password=a,b c"``), else to a space or quote."""
    for quote in ('\\"', '"', "'"):
        if text.startswith(quote, name_start - len(quote)):
            found = _QUOTED_OPTION_VALUE[quote].match(text, value_start)
            if found is not None:
                return found
            break
    return _OPTION_VALUE.match(text, value_start)


def hide_database_passwords(text: str, mark: str) -> str:
    """``text`` with a password glued to ``-p`` after a MySQL or MariaDB command on its line as ``mark``."""
    parts: list[str] = []
    done = position = 0
    while (command := _DATABASE_COMMAND.search(text, position)) is not None:
        line_end = text.find("\n", command.end())
        line_end = len(text) if line_end < 0 else line_end
        option = _GLUED_PASSWORD.search(text, command.end(), line_end)
        if option is None:
            position = line_end  # no later command on this line has one either
            continue
        parts += (text[done:option.start(1)], mark)
        done = position = option.end()
    return "".join((*parts, text[done:])) if parts else text


class _NextOf:
    """Where the next character of a set is, from any place: one search serves every place before it."""

    def __init__(self, text: str, pattern: re.Pattern[str]) -> None:
        self._text, self._pattern = text, pattern
        self._from, self._at = 1, 0  # nothing known yet

    def after(self, start: int) -> int:
        if not self._from <= start <= self._at:
            found = self._pattern.search(self._text, start)
            self._from, self._at = start, found.start() if found is not None else len(self._text)
        return self._at


def hide_user_passwords(text: str, mark: str) -> str:
    """``text`` with the ``user:password`` of a ``-u``, ``--user`` or ``--proxy-user`` option as ``mark``."""
    user_end, password_end = _NextOf(text, _USER_END), _NextOf(text, _PASSWORD_END)
    parts: list[str] = []
    done = position = 0
    while (option := _USER_OPTION.search(text, position)) is not None:
        quote = option.group(1)
        colon = user_end.after(option.end())
        end = password_end.after(colon + 1) if colon < len(text) and text[colon] == ":" else colon
        if end <= colon + 1 or not text.startswith(quote, end):
            position = option.start() + 1
            continue
        parts += (text[done:option.end()], mark, quote)
        done = position = end + len(quote)
    return "".join((*parts, text[done:])) if parts else text


def hide_quoted_values(text: str, mark: str, names_a_secret: Callable[[str], bool]) -> str:
    """``text`` with each word quoted whole that a credential fills as ``mark``: one after an option
    ``names_a_secret`` says is a credential's (``--password 'a b'``) or after ``-u``, ``--user`` or ``--proxy-user``
    holding a ``:``, and the value of one that begins with such a name and ``=`` or ``:`` (``'API_KEY=a;b'``, kept
    quoted). Read to the word's closing quote: the other passes read a value to its first space, quote or ``;``,
    which a password may hold (a command server's key quotes such a word: ``'--password=a;b'``)."""
    parts: list[str] = []
    done = 0
    for found in _QUOTED_ASSIGNMENT.finditer(text):
        start = found.start()
        if start < done or (start and not (text[start - 1].isspace() or text[start - 1] in _BEFORE_A_WORD)) or (
                not names_a_secret(found["name"])):
            continue
        rest = QUOTED_REST[found["quote"]].match(text, found.end())
        if rest is None:
            continue
        closing = rest.end() - 1  # the word's closing quote
        if shows_no_value(text[found.end():closing], mark):
            continue
        parts += (text[done:found.end()], mark)
        done = closing
    text = "".join((*parts, text[done:])) if parts else text
    parts, done = [], 0
    for found in _QUOTED_AFTER_OPTION.finditer(text):
        if (start := found.start()) and (text[start - 1].isalnum() or text[start - 1] in "_-"):
            continue  # within a word (x-u 'a:b')
        option, word = found["option"], found["word"]
        secret = ":" in word if option in _USER_OPTIONS else names_a_secret(option)
        if secret and word[1:-1] not in ("", mark):
            parts += (text[done:found.start("word")], mark)
            done = found.end()
    return "".join((*parts, text[done:])) if parts else text
