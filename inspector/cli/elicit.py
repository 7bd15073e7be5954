"""``--elicit decline|cancel|defaults|ask``: how the command line answers a server's questions.

``ask`` puts the question on the terminal, field by field; it reads in a thread of its own so
that the operation's deadline and Ctrl-C still cut it off (the thread is left to the process's
end, as a blocked read cannot be interrupted).
"""

from __future__ import annotations

import asyncio
import sys
import threading
from collections.abc import Callable
from typing import Any, TextIO

from inspector.i18n import N_, _, ngettext
from inspector.i18n.messages import Message, translate
from inspector.mcp.elicitation import FormField, accept_defaults, cancel_all, decline_all, form_fields, value_problem
from inspector.mcp.server_requests import ElicitationRequest, Elicitor

from .common import UsageError, safe
from .safe_text import one_line

ELICIT_CHOICES = ("decline", "cancel", "defaults", "ask")


def elicitor_for(choice: str | None, *, stdin: TextIO | None = None, stderr: TextIO | None = None) -> Elicitor | None:
    """The elicitor of an ``--elicit`` choice; ``None`` (no choice) declares no elicitation."""
    if choice is None:
        return None
    if choice == "decline":
        return decline_all
    if choice == "cancel":
        return cancel_all
    if choice == "defaults":
        return DefaultsElicitor(stderr or sys.stderr)
    if choice == "ask":
        stdin, stderr = stdin or sys.stdin, stderr or sys.stderr
        if not stdin.isatty():
            raise UsageError(Message(N_("--elicit ask needs a terminal to ask on; use decline, cancel or defaults "
                                        "instead.")))
        return TerminalElicitor(stdin.readline, stderr)
    raise UsageError(Message(N_("--elicit must be one of {choices}."), {"choices": ", ".join(ELICIT_CHOICES)}))


class DefaultsElicitor:
    """Accepts with the form's defaults; a question they cannot answer (a required field without a
    default, a form that is not flat) is declined, and a line on standard error says why, so that
    ``decline`` in the output is not taken for the choice made."""

    def __init__(self, out: TextIO) -> None:
        self._out = out

    async def __call__(self, request: ElicitationRequest) -> dict[str, Any]:
        answer = await accept_defaults(request)
        if answer["action"] == "decline":
            fields = form_fields(request.schema)
            missing = [item.name for item in fields or () if item.required and not item.has_default]
            said = (_("--elicit defaults declined the question: the required field {field} has no default.").format(
                field=missing[0]) if missing else
                _("--elicit defaults declined the question: its form is not one the defaults can fill."))
            self._out.write(one_line(said) + "\n")
            self._out.flush()
        return answer


class TerminalElicitor:
    """Asks the person at the terminal: accept, decline or cancel, then each field."""

    def __init__(self, read_line: Callable[[], str], out: TextIO) -> None:
        self._read_line = read_line
        self._out = out

    async def __call__(self, request: ElicitationRequest) -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[dict[str, Any]] = loop.create_future()

        def work() -> None:
            try:
                answer = self.ask(request)
            except BaseException as exc:  # noqa: BLE001 - handed to the waiting task
                loop.call_soon_threadsafe(_settle, future, None, exc)
            else:
                loop.call_soon_threadsafe(_settle, future, answer, None)

        threading.Thread(target=work, name="elicit-prompt", daemon=True).start()
        return await future

    def _say(self, text: str) -> None:
        self._out.write(safe(text) + "\n")
        self._out.flush()

    def _prompt(self, text: str) -> str | None:
        self._out.write(safe(text))
        self._out.flush()
        line = self._read_line()
        return None if line == "" else line.strip()  # "" is the end of input

    def ask(self, request: ElicitationRequest) -> dict[str, Any]:
        """The whole dialogue, blocking; end of input cancels."""
        self._say(_("The server asks: {message}").format(message=request.message))
        seconds = max(round(request.remaining_s), 0)
        self._say(ngettext("You have {seconds} second of the operation's budget left to answer.",
                           "You have {seconds} seconds of the operation's budget left to answer.",
                           seconds).format(seconds=seconds))
        fields = form_fields(request.schema)
        if fields is None:
            self._say(_("The form the server asks for cannot be shown here, so the question is declined."))
            return {"action": "decline"}
        while True:
            choice = self._prompt(_("Answer it (a), decline (d) or cancel (c)? "))
            if choice is None or choice.lower() in ("c", "cancel"):
                return {"action": "cancel"}
            if choice.lower() in ("d", "decline"):
                return {"action": "decline"}
            if choice.lower() in ("a", "accept", ""):
                break
        content: dict[str, Any] = {}
        for item in fields:
            value = self._ask_field(item)
            if value is _CANCELLED:
                return {"action": "cancel"}
            if value is not _SKIPPED:
                content[item.name] = value
        return {"action": "accept", "content": content}

    def _ask_field(self, item: FormField) -> Any:
        hint = item.kind if item.choices is None else " / ".join(item.title_of(c) for c in item.choices)
        if item.multiple:
            hint = _("one or more of {choices}, separated by commas").format(choices=hint)
        shown = (", ".join(item.title_of(v) for v in item.default) if item.multiple and isinstance(item.default, list)
                 else item.title_of(item.default))
        default = _(" [{default}]").format(default=shown) if item.has_default else ""
        need = _("required") if item.required else _("optional")
        while True:
            line = self._prompt(_("{title} ({hint}, {need}){default}: ").format(
                title=item.title, hint=hint, need=need, default=default))
            if line is None:
                return _CANCELLED
            if line == "":
                if item.has_default:
                    return item.default
                if not item.required:
                    return _SKIPPED
                self._say(_("This field is required."))
                continue
            value, problem = parse_field(item, line)
            if problem is None:
                return value
            self._say(problem)


_CANCELLED, _SKIPPED = object(), object()


def parse_field(item: FormField, text: str) -> tuple[Any, str | None]:
    """A typed value from what was typed, or a sentence saying what is wrong.

    A choice may be typed as its value or its title; a multi-select as several, separated by commas."""
    value: Any
    if item.multiple:
        value = [_choice(item, part.strip()) for part in text.split(",") if part.strip()]
        if any(v is None for v in value):
            return None, _("Please type some of: {choices}.").format(choices=", ".join(_titles(item)))
    elif item.choices is not None:
        value = _choice(item, text)
        if value is None:
            return None, _("Please type one of: {choices}.").format(choices=", ".join(_titles(item)))
    elif item.kind == "boolean":
        if text.lower() in ("y", "yes", "true"):
            return True, None
        if text.lower() in ("n", "no", "false"):
            return False, None
        return None, _("Please type yes or no.")
    elif item.kind == "integer":
        try:
            value = int(text)
        except ValueError:
            return None, _("Please type a whole number.")
    elif item.kind == "number":
        try:
            value = float(text)
        except ValueError:
            return None, _("Please type a number.")
    else:
        value = text
    problem = value_problem(item, value)
    return (None, translate(problem)) if problem is not None else (value, None)


def _titles(item: FormField) -> list[str]:
    return [item.title_of(choice) for choice in item.choices or ()]


def _choice(item: FormField, text: str) -> Any:
    """The choice typed as its value, or as its title (in any case); ``None`` for neither."""
    if text in (item.choices or ()):
        return text
    for choice in item.choices or ():
        if item.title_of(choice).casefold() == text.casefold():
            return choice
    return None


def _settle(future: asyncio.Future[dict[str, Any]], answer: dict[str, Any] | None, error: BaseException | None) -> None:
    if future.done():
        return  # cut off by the deadline or a cancel meanwhile
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(answer or {"action": "cancel"})
