"""``servers``' list: one row a server, with a line of its command or address and of its sign-in below.

Printed to a pipe or a file the table is laid out as it always was (:mod:`inspector.cli.terminal_width`).
At a terminal narrower than its rows (nine columns take some 150), each server is said as a block
instead, its cells named and joined with " · ", wrapped to the terminal's width: the name or address
and the lines below it wrap too (never cut: an address cut short is not one to copy).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from inspector.i18n import _
from inspector.i18n.entry_names import shown_name
from inspector.store import CommandSetting, ServerRecord
from inspector.store.signin_settings import SignInSetup

from .durations import readable_duration
from .safe_text import one_line
from .server_signin import signin_line
from .terminal_width import display_width, terminal_columns
from .words import when, when_width

#: How far a block's lines below its server's name are indented.
INDENT = "    "


def server_lines(servers: Sequence[ServerRecord], signins: dict[str, SignInSetup]) -> list[str]:
    """The list's lines: the table, or at a narrower terminal the blocks."""
    lines = list(_table(servers, signins))
    columns = terminal_columns()
    if columns is None or all(display_width(line) <= columns for line in lines):
        return lines
    return list(_blocks(servers, signins, columns))


def _headings() -> tuple[str, ...]:
    return (_("Server"), _("Transport"), _("Last contact"), _("Latency"), _("ok"), _("failed"), _("(tool errors)"),
            _("cancelled"), _("Era"))


def _table(servers: Sequence[ServerRecord], signins: dict[str, SignInSetup]) -> Iterator[str]:
    # A contact marked with its zone (in the hour a clock is set back) is wider.
    at = max(when_width(), *(len(when(server.last_contact_at)) for server in servers))
    # A tool error is a kind of failed (as in the window's health line): counted in "failed", and
    # how many of those were tool errors beside it, in parentheses.
    heading = _headings()
    counts = [max(len(word), 5) for word in heading[4:8]]
    transport = max(len(heading[1]), 5)
    eras = [era_cell(server) for server in servers]
    era_width = max(len(heading[8]), *(len(cell) for cell in eras))
    labels = [one_line(shown_name(server.name, server.url) or server.url) for server in servers]
    # As wide as the longest name or address (a command server's "stdio:/…/bin/x" may be long), at least 40.
    name_width = max(40, len(heading[0]), *(len(label) for label in labels))
    yield (f"{heading[0]:<{name_width}}  {heading[1]:<{transport}}  {heading[8]:<{era_width}}  {heading[2]:<{at}}  "
           f"{heading[3]:>9}  {heading[4]:>{counts[0]}}  {heading[5]:>{counts[1]}}  {heading[6]:>{counts[2]}}  "
           f"{heading[7]:>{counts[3]}}")
    for server, era, label in zip(servers, eras, labels, strict=True):
        tool_errors = f"({server.tool_error_count})"
        yield one_line(f"{label:<{name_width}}  {server.transport:<{transport}}  {era:<{era_width}}  "
                       f"{when(server.last_contact_at):<{at}}  "
                       f"{_latency(server):>9}  {server.ok_count:>{counts[0]}}  "
                       f"{server.failed_count + server.tool_error_count:>{counts[1]}}  "
                       f"{tool_errors:>{counts[2]}}  {server.cancelled_count:>{counts[3]}}")
        yield from (INDENT + line for line in _below(server, signins))


def _blocks(servers: Sequence[ServerRecord], signins: dict[str, SignInSetup],
            columns: int) -> Iterator[str]:
    heading = _headings()
    for server in servers:
        yield from _wrapped(one_line(shown_name(server.name, server.url) or server.url), "", columns)
        named = [(heading[1], server.transport), (heading[8], era_cell(server)),
                 (heading[2], when(server.last_contact_at)), (heading[3], _latency(server)),
                 (heading[4], str(server.ok_count)),
                 # Translators: a server's failed calls and how many were tool errors, e.g. "3 (tool errors: 1)".
                 (heading[5], _("{failed} (tool errors: {tool_errors})").format(
                     failed=server.failed_count + server.tool_error_count, tool_errors=server.tool_error_count)),
                 (heading[7], str(server.cancelled_count))]
        # Translators: a cell of the servers list named by its column, e.g. "Latency: 0.3 s".
        cells = [_("{name}: {value}").format(name=name, value=value) for name, value in named]
        yield from _joined(cells, columns)
        for line in _below(server, signins):
            yield from _wrapped(line, INDENT, columns)


def _below(server: ServerRecord, signins: dict[str, SignInSetup]) -> Iterator[str]:
    """The lines below a server's row: its command (or its address, under a name), its sign-in settings."""
    if server.command is not None:
        yield one_line(command_shown(server.command))
    elif server.name and server.name != server.url:
        yield one_line(server.url)
    if server.url in signins:
        yield signin_line(signins[server.url])


def _joined(cells: list[str], columns: int) -> Iterator[str]:
    """``cells`` joined with " · " on indented lines of at most ``columns`` (a cell wider than a line wraps)."""
    line = ""
    for cell in cells:
        joined = f"{line} · {cell}" if line else cell
        if line and display_width(INDENT + joined) > columns:
            yield from _wrapped(line, INDENT, columns)
            joined = cell
        line = joined
    if line:
        yield from _wrapped(line, INDENT, columns)


def _wrapped(text: str, indent: str, columns: int) -> Iterator[str]:
    """``text`` after ``indent``, broken into lines of at most ``columns`` columns (at a space where one is
    in the line's second half, else where the line is full), the lines after the first indented once more."""
    room = max(columns - display_width(indent), 8)
    while display_width(text) > room:
        taken, used = 0, 0
        for char in text:
            used += display_width(char)
            if used > room:
                break
            taken += 1
        space = text.rfind(" ", 0, taken + 1)
        cut = space if space > taken // 2 else taken
        yield indent + text[:cut].rstrip()
        text = text[cut:].lstrip()
        if indent.strip() == "" and len(indent) < len(INDENT) * 2:
            indent, room = indent + INDENT, max(columns - display_width(indent + INDENT), 8)
    yield indent + text


def command_shown(command: CommandSetting) -> str:
    """A configured command as a line: variables by name only, then the program and its arguments, the credentials
    among them as ``…`` (``--token …``, as the server's name shows them)."""
    from inspector.mcp.command_line import shown_command_line

    words = [f"{variable.name}=…" for variable in sorted(command.env, key=lambda variable: variable.name)]
    line = " ".join([*words, shown_command_line([command.program, *command.args])])
    if command.cwd:
        return _("{command} (in {folder})").format(command=line, folder=command.cwd)
    return line


def _latency(server: ServerRecord) -> str:
    return "-" if server.last_latency_ms is None else readable_duration(server.last_latency_ms)


def era_cell(server: ServerRecord) -> str:
    """The era column: the one configured (as --era writes it) and, for ``auto``, what it found."""
    if server.era == "auto" and server.found_era:
        return f"auto → {server.found_era}"
    return server.era


__all__ = ["command_shown", "era_cell", "server_lines"]
