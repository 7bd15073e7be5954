"""``agent --live``: the model's words on standard error as they arrive, a line of their own for
each round; standard output (the run as ``runs show`` prints it, or the ``--json`` object) is
unchanged. The text comes scrubbed of the known secrets by the model; here it is made safe for a
terminal (no escape sequences)."""

from __future__ import annotations

import sys
from typing import Any, TextIO

from inspector.i18n import _

from .safe_text import block


class LiveText:
    """The run's model, its text so far written to ``out`` as it grows."""

    def __init__(self, model: Any, out: TextIO | None = None) -> None:
        self._model = model
        self._out = out if out is not None else sys.stderr
        self.wants_catalogue = model.wants_catalogue
        self.secrets = getattr(model, "secrets", None)
        self._written = ""
        self._open = False

    async def respond(self, request: Any, on_text: Any = None) -> Any:
        def said(text: str) -> None:
            self._write(request.round, text)
            if on_text is not None:
                on_text(text)

        try:
            return await self._model.respond(request, on_text=said)
        finally:
            self._end_line()

    def _write(self, round_number: int, text: str) -> None:
        if not self._open:
            self._out.write(_("Model, round {round}: ").format(round=round_number))
            self._open, self._written = True, ""
        # The text only grows; should it ever not, it is written again on a line of its own.
        new = text[len(self._written):] if text.startswith(self._written) else "\n" + text
        self._out.write(block(new))
        self._out.flush()
        self._written = text

    def _end_line(self) -> None:
        if self._open:
            self._out.write("\n")
            self._out.flush()
            self._open = False
