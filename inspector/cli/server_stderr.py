"""A command server's stderr on the command line's stderr, as it is written: the server's own log;
and our sentences about what its line carried (a stdout line that is not JSON), as ours.

Each line is prefixed (so it is not taken for the command's own words), stripped of terminal
controls, and has the server's secret values (its environment's credentials) cut out first.
"""

from __future__ import annotations

import sys
from typing import TextIO

from inspector.i18n import _
from inspector.i18n.messages import translate
from inspector.mcp import ServerEndpoint
from inspector.mcp.messages import Message

from .progress import LiveProgressLine
from .safe_text import one_line


class ServerStderr:
    """``McpClient(server_output=...)``: print each stderr line of the command server."""

    def __init__(self, server: ServerEndpoint, live: LiveProgressLine | None = None,
                 stream: TextIO | None = None) -> None:
        self._secrets = server.secrets()
        self._live = live
        self._stream = stream

    def __call__(self, key: str, line: str | Message) -> None:
        stream = self._stream or sys.stderr
        if self._live is not None:
            self._live.clear()  # the line goes above the live progress line, which is redrawn on the next note
        if not isinstance(line, str):
            # Our sentence about the server's output (a stdout line that is not JSON), not its stderr.
            said = _("run-inspector: {sentence}").format(sentence=self._secrets.scrub(translate(line)))
        else:
            said = _("server stderr: {line}").format(line=self._secrets.scrub(line))
        stream.write(one_line(said) + "\n")
        stream.flush()
