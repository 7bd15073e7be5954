"""Passwords a command line spells: ``curl -u user:password`` and ``mysql -pSECRET``, hidden in a text.

Each is read once through the text, whatever it holds: as single patterns they read the rest of a
line (or of a word) again from every ``mysql`` or ``-u`` in it, and 100,000 characters of ``mysql ``
or ``-u.`` repeated took seconds (a megabyte minutes). What they hide is what those patterns hid.
"""

from __future__ import annotations

import re

# "mysql -pSECRET" (the password glued to the option), anywhere on the line after the command.
_DATABASE_COMMAND = re.compile(r"(?i)\b(?:mysql|mysqldump|mariadb|mysqladmin)\b")
_GLUED_PASSWORD = re.compile(r"(?i)[ \t]-p(\S+)")
# "curl -u user:password", "--user user:password", "-uuser:password" (quoted or not): the option, then a
# user name up to its ":" (_USER_END) and a password up to a space or quote (_PASSWORD_END), closed by the
# quote that opened them.
_USER_OPTION = re.compile(r"""(?<![\w-])(?:-u|--user|--proxy-user)[ \t]*=?[ \t]*(\\?["']?)""")
_USER_END = re.compile(r"""[\s"':\\]""")
_PASSWORD_END = re.compile(r"""[\s"'\\]""")


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
