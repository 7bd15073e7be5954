"""Scenario files: a scripted agent run, checked whole before anything is played or stored.

The format is documented in docs/scenarios.md. Every problem is one sentence naming its place
in the file (e.g. ``rounds[1].calls[0].tool``).
"""

from __future__ import annotations

import codecs
import json
import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path
from typing import Any

from inspector.mcp.deadline import MAXIMUM_BUDGET_SECONDS
from inspector.mcp.json_words import decoder_reason
from inspector.mcp.messages import N_, Message, Number, SaidName
from inspector.runs.nesting import nested_deeper

FORMAT_VERSION = 1
#: The name of the fresh demo server a scenario plays against when no server is chosen, in the words
#: of the Play tab's "Starting a fresh demo server…": not the window's "Demo server" entry's, whose
#: address and health are another server's ("the tool flaky on Fresh demo server reported an error").
DEMO_SERVER_NAME = SaidName(N_("Fresh demo server"))
#: The answers of a scenario that has no ``final`` or ``give_up`` of its own (ours: translated where played).
DEFAULT_FINAL = N_("I am done.")
DEFAULT_GIVE_UP = N_("I stop here: a tool did not give me what I needed.")
REACTIONS = ("continue", "retry", "stop")
#: The deepest nesting of a call's arguments, as for ``call --args`` (``inspector.traces.format.MAX_VALUE_DEPTH``,
#: which the importer's limits have room for): what is played is stored and exported, and must read back.
MAX_ARGUMENT_DEPTH = 100
#: The most extra tools of the demo server's long catalogue (``inspector.demo.options.MAX_CATALOGUE_SIZE``).
MAX_CATALOGUE_SIZE = 10_000
_SERVER_KEYS = {"handshake_delay_s": "number", "page_size": "count", "catalogue_size": "count",
                "json_response": "flag", "stateless": "flag"}


class ScenarioError(ValueError):
    """A scenario that cannot be played: one sentence naming the place in the file. ``str()`` is the
    English sentence; :attr:`sentence` the :class:`Message` a display layer says in the reader's language."""

    def __init__(self, sentence: Message) -> None:
        super().__init__(str(sentence))
        self.sentence = sentence


@dataclass(frozen=True)
class ScriptedCall:
    tool: str
    arguments: dict[str, Any]


@dataclass(frozen=True)
class ScriptedRound:
    """What the scripted model says and asks for in one round, and how it reacts to the results."""

    say: str
    calls: tuple[ScriptedCall, ...]
    #: After a failed call: ``continue`` with the script, ``retry`` the failed calls, or ``stop``.
    on_failure: str = "continue"
    #: After a call cancelled on its own (the run going on): the same three reactions.
    on_cancel: str = "stop"
    #: How many times ``retry`` may repeat the failed calls.
    retries: int = 1


@dataclass(frozen=True)
class Scenario:
    """A scripted agent run: the prompt, the demo server's modes, the rounds, the final answer."""

    name: str
    description: str
    prompt: str
    rounds: tuple[ScriptedRound, ...]
    final: str
    give_up: str
    demo_server: dict[str, Any] = field(default_factory=dict)
    budget_s: float | None = None
    cancel_after_s: float | None = None
    max_rounds: int = 8
    list_tools: bool = False
    #: The era of MCP the run speaks to its server ("auto", "handshake" or "stateless").
    era: str = "auto"
    source: str = ""
    #: Shipped with the package: its words are ours, played in the reader's language.
    shipped: bool = False

    def played(self, translate: Callable[[str], str]) -> Scenario:
        """The scenario as it is played: a shipped one's words (prompt, what the model says and
        answers, arguments that are text) through ``translate`` (the reader's language); a scenario
        file's words as its author wrote them. The agent layer translates nothing itself."""
        if not self.shipped:
            return self

        def said(text: str) -> str:
            return translate(text) if text else text  # gettext's "" is the catalogue's header

        def argument(value: Any) -> Any:
            return said(value) if isinstance(value, str) else value

        rounds = tuple(replace(scripted, say=said(scripted.say), calls=tuple(
            replace(call, arguments={key: argument(value) for key, value in call.arguments.items()})
            for call in scripted.calls)) for scripted in self.rounds)
        return replace(self, prompt=said(self.prompt), final=said(self.final), give_up=said(self.give_up),
                       rounds=rounds)


def shipped_scenarios() -> dict[str, Scenario]:
    """The scenarios shipped with the package, by name, in name order."""
    folder = resources.files("inspector.agent") / "scenarios"
    found = {}
    for entry in sorted(folder.iterdir(), key=lambda item: item.name):
        if entry.name.endswith(".json"):
            scenario = parse_scenario(entry.read_text(encoding="utf-8"), entry.name)
            found[scenario.name] = replace(scenario, shipped=True)
    return found


def load_scenario(name_or_path: str) -> Scenario:
    """A shipped scenario by name, or a scenario file by path."""
    shipped = shipped_scenarios()
    if name_or_path in shipped:
        return shipped[name_or_path]
    path = Path(name_or_path)
    if path.is_dir():
        raise ScenarioError(Message(N_("{path} is a folder, not a scenario file: name a scenario's .json file "
                                       "in it."), {"path": str(path)}))
    if path.exists() and not path.is_file():  # a pipe or a device would be read forever
        raise ScenarioError(Message(N_("{path} is not a regular file: save the scenario to a file and name that."),
                                    {"path": str(path)}))
    if not path.is_file():
        names = ", ".join(shipped)
        raise ScenarioError(Message(N_("There is no shipped scenario named {name} and no such file; the shipped "
                                       "ones are {names}."), {"name": repr(name_or_path), "names": names}))
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ScenarioError(Message(N_("The scenario file {path} cannot be read: {reason}."),
                                    {"path": str(path), "reason": str(exc)})) from None
    return parse_scenario(_decoded(raw, str(path)), str(path))


def _decoded(raw: bytes, source: str) -> str:
    """A scenario file's text; a byte order mark (as an editor on Windows may write one) is no mistake."""
    body = raw.removeprefix(codecs.BOM_UTF8)
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError as exc:
        line_start = body.rfind(b"\n", 0, exc.start) + 1
        raise ScenarioError(Message(N_("The scenario file {path} is not UTF-8 text at line {line}, column {column}: "
                                       "save it as UTF-8."),
                                    {"path": source, "line": body.count(b"\n", 0, exc.start) + 1,
                                     "column": len(body[line_start:exc.start].decode("utf-8")) + 1})) from None


def parse_scenario(text: str, source: str) -> Scenario:
    """Check a scenario file's text whole and return the scenario, or raise :class:`ScenarioError`."""
    try:
        data = json.loads(text, parse_constant=_refuse_constant)
    except RecursionError:  # deeper than Python's stack, far past what a call's arguments may nest
        raise _Reader(source).fail("", Message(N_("nested deeper than {limit} levels"),
                                               {"limit": MAX_ARGUMENT_DEPTH})) from None
    except json.JSONDecodeError as exc:
        raise ScenarioError(Message(N_("The scenario file {path} is not valid JSON at line {line}, column {column}: "
                                       "{reason}."), {"path": source, "line": exc.lineno, "column": exc.colno,
                                                      "reason": decoder_reason(exc.msg)})) from None
    except ValueError as exc:
        reason = exc.args[0] if exc.args and isinstance(exc.args[0], Message) else str(exc)  # NaN, Infinity
        raise ScenarioError(Message(N_("The scenario file {path} is not valid JSON: {reason}."),
                                    {"path": source, "reason": reason})) from None
    reader = _Reader(source)
    reader.only_text(data)
    return reader.scenario(data)


def _refuse_constant(name: str) -> None:
    raise ValueError(Message(N_("{constant} is not a JSON number"), {"constant": name}))


class _Reader:
    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, place: str, problem: str | Message) -> ScenarioError:
        """``problem``: what was expected there, a phrase said in the reader's language too. The empty
        place is the file as a whole (its top level)."""
        said = problem if isinstance(problem, Message) else Message(problem)
        if not place:
            return ScenarioError(Message(N_("The scenario file {path} is not valid: {problem}."),
                                         {"path": self.source, "problem": said}))
        return ScenarioError(Message(N_("The scenario file {path} is not valid at {place}: {problem}."),
                                     {"path": self.source, "place": place, "problem": said}))

    def only_text(self, data: Any) -> None:
        """Refuse a string or key that is not text (``"\\ud800"``, an escaped lone surrogate, is valid JSON):
        it could be played but never stored. Walked without recursion, naming the first such place."""
        pending: list[tuple[Any, str]] = [(data, "")]
        while pending:
            value, place = pending.pop()
            if isinstance(value, str):
                items: list[tuple[str, Any]] = []
                strings = [value]
            elif isinstance(value, dict):
                items, strings = list(value.items()), list(value)
            elif isinstance(value, list):
                items, strings = [(f"[{index}]", item) for index, item in enumerate(value)], []
            else:
                continue
            if not all(_is_text(string) for string in strings):
                raise self.fail(place, Message(
                    N_("holds something that is not text (an escaped lone surrogate such as {example})"),
                    {"example": "\\ud800"}))
            for key, item in reversed(items):
                inner = f"{place}{key}" if key.startswith("[") else f"{place}.{key}" if place else key
                pending.append((item, inner))

    def text(self, data: dict[str, Any], key: str, place: str, default: str | None = None) -> str:
        value = data.get(key, default)
        if not isinstance(value, str) or (default is None and not value.strip()):
            expected = N_("expected a non-empty string") if default is None else N_("expected a string")
            raise self.fail(f"{place}{key}", expected)
        return value

    def seconds(self, data: dict[str, Any], key: str, place: str) -> float | None:
        value = data.get(key)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value <= 0:
            raise self.fail(f"{place}{key}", N_("expected a positive number of seconds"))
        return float(value)

    def budget(self, data: dict[str, Any]) -> float | None:
        """``budget_s``: at most a week, as ``--budget`` and the window's fields (a bigger one overflows the
        timers and what is stored of each leg)."""
        value = self.seconds(data, "budget_s", "")
        if value is not None and value > MAXIMUM_BUDGET_SECONDS:
            most = Number(MAXIMUM_BUDGET_SECONDS, f"{MAXIMUM_BUDGET_SECONDS:,}")
            raise self.fail("budget_s", Message(N_("expected at most {most} seconds (a week)"), {"most": most}))
        return value

    def count(self, data: dict[str, Any], key: str, place: str, default: int, minimum: int) -> int:
        value = data.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
            raise self.fail(f"{place}{key}", Message(N_("expected a whole number of at least {minimum}"),
                                                     {"minimum": minimum}))
        return value

    def scenario(self, data: Any) -> Scenario:
        if not isinstance(data, dict):
            raise self.fail("", N_("expected an object"))
        if data.get("scenario") != FORMAT_VERSION:
            raise self.fail("scenario", Message(N_("expected the format version {version}"),
                                                {"version": FORMAT_VERSION}))
        known = {"scenario", "name", "description", "prompt", "rounds", "final", "give_up", "demo_server",
                 "budget_s", "cancel_after_s", "max_rounds", "list_tools", "era"}
        self.unknown(data, known, "")
        rounds_data = data.get("rounds")
        if not isinstance(rounds_data, list) or not rounds_data:
            raise self.fail("rounds", N_("expected a non-empty list of rounds"))
        rounds = tuple(self.round(item, f"rounds[{index}]") for index, item in enumerate(rounds_data))
        list_tools = data.get("list_tools", False)
        if not isinstance(list_tools, bool):
            raise self.fail("list_tools", N_("expected true or false"))
        era = data.get("era", "auto")
        if era not in ("auto", "handshake", "stateless"):
            raise self.fail("era", N_("expected auto, handshake or stateless"))
        return Scenario(
            name=self.text(data, "name", ""), description=self.text(data, "description", ""),
            prompt=self.text(data, "prompt", ""), rounds=rounds,
            final=self.text(data, "final", "", ""), give_up=self.text(data, "give_up", "", ""),
            demo_server=self.server(data.get("demo_server", {})),
            budget_s=self.budget(data), cancel_after_s=self.seconds(data, "cancel_after_s", ""),
            max_rounds=self.count(data, "max_rounds", "", 8, 1), list_tools=list_tools, era=era,
            source=self.source)

    def unknown(self, data: dict[str, Any], known: set[str], place: str) -> None:
        for key in data:
            if key not in known:
                raise self.fail(f"{place}{key}",
                                Message(N_("this key is not part of the format (known: {keys})"),
                                        {"keys": ", ".join(sorted(known))}))

    def round(self, data: Any, place: str) -> ScriptedRound:
        if not isinstance(data, dict):
            raise self.fail(place, N_("expected an object"))
        self.unknown(data, {"say", "calls", "on_failure", "on_cancel", "retries"}, f"{place}.")
        calls_data = data.get("calls", [])
        if not isinstance(calls_data, list):
            raise self.fail(f"{place}.calls", N_("expected a list of calls"))
        calls = tuple(self.call(item, f"{place}.calls[{index}]") for index, item in enumerate(calls_data))
        reactions = {}
        for key, default in (("on_failure", "continue"), ("on_cancel", "stop")):
            value = data.get(key, default)
            if value not in REACTIONS:
                raise self.fail(f"{place}.{key}", Message(N_("expected one of {choices}"),
                                                          {"choices": ", ".join(REACTIONS)}))
            reactions[key] = value
        return ScriptedRound(say=self.text(data, "say", f"{place}.", ""), calls=calls,
                             retries=self.count(data, "retries", f"{place}.", 1, 0), **reactions)

    def call(self, data: Any, place: str) -> ScriptedCall:
        if not isinstance(data, dict):
            raise self.fail(place, N_("expected an object with a tool and its arguments"))
        self.unknown(data, {"tool", "arguments"}, f"{place}.")
        arguments = data.get("arguments", {})
        if not isinstance(arguments, dict):
            raise self.fail(f"{place}.arguments", N_("expected an object"))
        if nested_deeper(arguments, MAX_ARGUMENT_DEPTH):
            raise self.fail(f"{place}.arguments", Message(N_("nested deeper than {limit} levels"),
                                                          {"limit": MAX_ARGUMENT_DEPTH}))
        return ScriptedCall(self.text(data, "tool", f"{place}."), arguments)

    def server(self, data: Any) -> dict[str, Any]:
        if not isinstance(data, dict):
            raise self.fail("demo_server", N_("expected an object"))
        self.unknown(data, set(_SERVER_KEYS), "demo_server.")
        for key, value in data.items():
            kind = _SERVER_KEYS[key]
            if value is None and key == "page_size":
                continue
            if kind == "flag" and not isinstance(value, bool):
                raise self.fail(f"demo_server.{key}", N_("expected true or false"))
            if kind == "count" and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
                raise self.fail(f"demo_server.{key}", N_("expected a whole number of at least 1"))
            if key == "catalogue_size" and value > MAX_CATALOGUE_SIZE:  # 10^8 tools: a MemoryError after a minute
                raise self.fail(f"demo_server.{key}", Message(N_("expected a whole number from 1 to {most}"), {
                    "most": Number(MAX_CATALOGUE_SIZE, f"{MAX_CATALOGUE_SIZE:,}")}))
            if kind == "number" and (isinstance(value, bool) or not isinstance(value, (int, float))
                                     or not math.isfinite(value) or value < 0):
                raise self.fail(f"demo_server.{key}", N_("expected zero or a positive number of seconds"))
        return dict(data)


def _is_text(string: str) -> bool:
    try:
        string.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
