"""The scripted model: plays a scenario's rounds and reacts to failed or cancelled calls as told."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from inspector.mcp.messages import N_
from inspector.runs import ToolOutcome

from .model import ModelRequest, ModelTurn, TextListener, ToolCall
from .scenario import DEFAULT_FINAL, DEFAULT_GIVE_UP, Scenario, ScriptedRound

NOT_DONE = N_("I could not do all that was asked: {tools} did not work.")
"""The scripted model's last answer instead of the scenario's ``final`` when a tool did not work."""
RETRYING = N_("That did not work; I will try {tools} again.")
"""What the scripted model says when it asks again for calls that did not work."""


def _english_list(names: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    *others, last = names
    return f"{', '.join(others)} and {last}" if others else last


@dataclass(frozen=True)
class Voice:
    """How the scripted model words the sentences that are its own (not the scenario's): ``say``
    gives a sentence of ours in the reader's language, ``listed`` joins names as that language lists
    them. English unless told otherwise: the agent layer translates nothing, the command line and
    the window pass theirs."""

    say: Callable[[str], str] = str
    listed: Callable[[Sequence[str]], str] = _english_list


class ScriptedModel:
    """A model that answers from a :class:`Scenario` instead of thinking.

    Each round it plays the next scripted round. When calls of the previous round failed (or were
    cancelled on their own), the round that asked for them says what to do: ``continue`` with the
    script, ``retry`` the calls that did not work (at most ``retries`` times), or ``stop`` with the
    scenario's ``give_up`` answer. When the script is over it answers ``final`` with no calls, unless
    a call did not work and no later call of that tool did: then it says so (:data:`NOT_DONE`)
    rather than claim the scripted result (a run against a server that is down must not end
    "Done: the sum is 42"). Its own sentences are said by its :class:`Voice`; the scenario's words
    are played as the scenario has them (see ``Scenario.played``).
    """

    def __init__(self, scenario: Scenario, voice: Voice | None = None) -> None:
        self.scenario = scenario
        self.voice = voice or Voice()
        self.wants_catalogue = scenario.list_tools
        self._next = 0
        self._last: ScriptedRound | None = None
        self._retries_left = 0
        self._ids = 0
        #: The tools whose last call failed or was cancelled, in the order they first did.
        self._not_working: dict[str, None] = {}

    async def respond(self, request: ModelRequest, on_text: TextListener | None = None) -> ModelTurn:
        """The next scripted answer; its text is told to ``on_text`` once, whole (nothing streams)."""
        turn = self._respond(request)
        if on_text is not None and turn.content:
            on_text(turn.content)
        return turn

    def _respond(self, request: ModelRequest) -> ModelTurn:
        last = self._last
        failed = [item for item in request.feedback if item.outcome is ToolOutcome.FAILED]
        cancelled = [item for item in request.feedback if item.outcome is ToolOutcome.CANCELLED]
        for item in request.feedback:
            if item.outcome in (ToolOutcome.FAILED, ToolOutcome.CANCELLED):
                self._not_working[item.call.name] = None
            else:
                self._not_working.pop(item.call.name, None)
        if last is not None and (failed or cancelled):
            reaction = last.on_cancel if cancelled else last.on_failure
            if reaction == "stop":
                return self._answer(self.scenario.give_up or self.voice.say(DEFAULT_GIVE_UP))
            if reaction == "retry" and self._retries_left > 0:
                self._retries_left -= 1
                again = [item.call for item in (*failed, *cancelled)]
                names = self.voice.listed([call.name for call in again])
                return self._turn(self.voice.say(RETRYING).format(tools=names),
                                  [(call.name, call.arguments) for call in again])
        if self._next >= len(self.scenario.rounds):
            if self._not_working:
                return self._answer(self.voice.say(NOT_DONE).format(tools=self.voice.listed(list(self._not_working))))
            return self._answer(self.scenario.final or self.voice.say(DEFAULT_FINAL))
        scripted = self.scenario.rounds[self._next]
        self._next += 1
        self._last = scripted
        self._retries_left = scripted.retries
        return self._turn(scripted.say, [(call.tool, dict(call.arguments)) for call in scripted.calls])

    def _answer(self, text: str) -> ModelTurn:
        self._next = len(self.scenario.rounds)
        return ModelTurn(content=text, finish_reason="stop")

    def _turn(self, text: str, calls: list[tuple[str, dict]]) -> ModelTurn:
        made = []
        for name, arguments in calls:
            self._ids += 1
            made.append(ToolCall(f"call_{self._ids}", name, arguments))
        return ModelTurn(content=text, tool_calls=tuple(made), finish_reason="tool_calls" if made else "stop")
