"""``scenario`` and ``agent``: agent runs from the command line, stored and printed as ``runs show`` does."""

from __future__ import annotations

import argparse
import asyncio
import getpass
import os
import sys
from typing import Any

from inspector.agent import (
    AgentOutcome,
    AgentRun,
    ScenarioError,
    ScriptedModel,
    StoreSink,
    Voice,
    load_scenario,
    shipped_scenarios,
)
from inspector.agent.scenario import DEMO_SERVER_NAME, Scenario
from inspector.i18n import N_, _, current_language
from inspector.i18n.formatting import joined
from inspector.i18n.messages import Message, translate
from inspector.i18n.scenarios import run_title
from inspector.mcp import McpClient, ServerEndpoint
from inspector.mcp.server import InvalidServerError
from inspector.runs import step_outcome
from inspector.store import RunStore, StoredEras, StoreError
from inspector.store.secrets import MODEL_KEY_ACCOUNT as KEYRING_ENTRY
from inspector.traces.redact import redact_text

from .common import EXIT_CANCELLED, EXIT_FAILED, EXIT_OK, CommandError, UsageError, open_store, safe
from .demos import _seconds, _whole_number
from .ending import emit_json
from .live_text import LiveText
from .operations import STOP_SIGNALS, EarlyInterrupt, parse_budget_option
from .progress import LiveProgressLine, live_progress_line
from .secrets import known_secrets

#: Where the chat model's API key is read from unless --api-key-env names another variable.
DEFAULT_KEY_VARIABLE = "RUN_INSPECTOR_MODEL_API_KEY"


def run(args: argparse.Namespace) -> int:
    if args.command == "scenario":
        return _scenario(args)
    return _agent(args)


def _endpoint(url: str) -> ServerEndpoint:
    try:
        return ServerEndpoint(url)
    except InvalidServerError as exc:
        raise UsageError(exc) from None


def _list_scenarios(as_json: bool) -> int:
    scenarios = shipped_scenarios()
    if as_json:
        emit_json({"scenarios": [{"name": s.name, "description": s.description} for s in scenarios.values()]})
        return EXIT_OK
    width = max(len(name) for name in scenarios)
    from inspector.i18n.scenarios import described

    for scenario in scenarios.values():
        print(f"{scenario.name:<{width}}  {described(scenario.description)}")
    return EXIT_OK


def _scenario(args: argparse.Namespace) -> int:
    if args.list:
        return _list_scenarios(args.json)
    if not args.scenario:
        raise UsageError(Message(N_("Name a scenario (see `run-inspector scenario --list`) or give a scenario file.")))
    cancel_after = _seconds("--cancel-after", args.cancel_after)
    reading = parse_budget_option(args.budget)
    budget = reading.seconds if reading else None
    server = _endpoint(args.server) if args.server else None
    try:
        # checked whole before anything starts or is stored; a shipped one played in the reader's language
        scenario = load_scenario(args.scenario).played(_)
    except ScenarioError as exc:
        raise UsageError(exc) from None
    # On a terminal, a line while it plays (a fresh demo server's start and user-cancels' hang kept it silent
    # for 4 s), cleared before the run is printed.
    live = live_progress_line(sys.stderr)
    if live is not None:
        live.say(_("Playing the scenario {name}… Ctrl+C cancels it.").format(name=scenario.name))
    try:
        return _play_scenario(args, scenario, server, budget, cancel_after, live)
    finally:
        if live is not None:
            live.clear()


def _play_scenario(args: argparse.Namespace, scenario: Scenario, server: ServerEndpoint | None, budget: float | None,
                   cancel_after: float | None, live: LiveProgressLine | None) -> int:
    demo, ended = None, EarlyInterrupt()
    if server is None:
        from inspector.demo import DemoOptions, DemoServer, DemoServerError

        demo = DemoServer(DemoOptions(**scenario.demo_server, language=current_language()))
        try:
            server = ServerEndpoint(demo.start(), name=DEMO_SERVER_NAME, era=scenario.era)
        except DemoServerError as exc:
            from .demos import demo_start_failure

            raise UsageError(demo_start_failure(exc)) from None
    # From the run's end to the command's (its report printed, its store closed, its demo server stopped), a
    # Ctrl-C or SIGTERM changes nothing: the run is stored and its status decided.
    with ended.held(from_now=False):
        try:
            with open_store(args.db) as store:
                # A demo server started for this run alone is not recorded among the servers.
                sink = StoreSink(store, "scenario", health=demo is None)
                agent = AgentRun(ScriptedModel(scenario, Voice(_, joined)), server, scenario.prompt,
                                 title=run_title(scenario.name), sink=sink, max_rounds=scenario.max_rounds,
                                 client=_client(store, demo is None),
                                 budget_s=budget if budget is not None else scenario.budget_s,
                                 cancel_after_s=cancel_after if cancel_after is not None else scenario.cancel_after_s)
                outcome = _play(agent, ended)
                if demo is not None:
                    demo.request_stop()  # its shutdown's wait passes while the report is written
                if live is not None:
                    live.clear()
                return _report(store, sink.run_id, outcome, args.json)
        finally:
            if demo is not None:
                demo.stop()


def _agent(args: argparse.Namespace) -> int:
    from inspector.agent.chat_model import OpenAIChatModel

    server = _endpoint(args.server)
    max_rounds = _whole_number("--max-rounds", args.max_rounds, 1)
    cancel_after = _seconds("--cancel-after", args.cancel_after)
    reading = parse_budget_option(args.budget)
    budget = reading.seconds if reading else None
    api_key, unkept = _api_key(args)
    secrets = known_secrets(api_key, os.environ.get(DEFAULT_KEY_VARIABLE))
    try:
        model = OpenAIChatModel(args.model_url, args.model, api_key=api_key, secrets=secrets)
    except ValueError as exc:
        raise UsageError(exc) from None
    ended = EarlyInterrupt()
    with ended.held(from_now=False), open_store(args.db) as store:  # a stop after the run's end changes nothing
        sink = StoreSink(store, "live")
        agent = AgentRun(LiveText(model) if args.live else model, server, args.prompt,
                         title=f"agent {args.model}: {args.prompt[:60]}", sink=sink,
                         client=_client(store), max_rounds=max_rounds, budget_s=budget,
                         cancel_after_s=cancel_after, secrets=secrets)
        outcome = _play(agent, ended)
        status = _report(store, sink.run_id, outcome, args.json)
    # A key typed at the terminal that the keyring did not keep (said before the run): the run went on
    # with it, and the command ends failed if nothing else did.
    return EXIT_FAILED if unkept and status == EXIT_OK else status


def _api_key(args: argparse.Namespace) -> tuple[str | None, bool]:
    """The model's API key, a secret: from --api-key-env, the system keyring, the default variable,
    or (--ask-api-key) a prompt at the terminal. Never printed; never written to the database. With
    it, whether the keyring refused to keep the key typed (said on stderr). A keyring that refuses to
    give the key kept in it, with no key in the default variable, ends the command before anything is
    sent (exit status 1)."""
    from inspector.agent.chat_model import completions_url
    from inspector.mcp import public_url

    from .keyring_refusals import NotingKeeper

    if args.api_key_env:
        api_key = os.environ.get(args.api_key_env) or None
        if api_key is None:
            raise UsageError(Message(N_("The environment variable {name} is empty or not set; put the model's API "
                                        "key there, or leave out --api-key-env for a model that needs none."),
                                     {"name": args.api_key_env}))
        return api_key, False
    try:
        place = public_url(completions_url(args.model_url))
    except ValueError as exc:
        raise UsageError(exc) from None
    keeper = NotingKeeper()
    if args.ask_api_key:
        if not sys.stdin.isatty():
            raise UsageError(Message(N_("--ask-api-key needs a terminal to ask at; put the key in an environment "
                                        "variable and name it with --api-key-env instead.")))
        api_key = getpass.getpass(_("API key for {place}: ").format(place=place)) or None
        if api_key and keeper.save(place, KEYRING_ENTRY, api_key):
            print(_("The API key for {place} is kept in the system keyring for next time.").format(place=place),
                  file=sys.stderr)
            return api_key, False
        refused = api_key is not None and bool(keeper.refused)
        if refused:
            print(_("run-inspector: {sentence}").format(sentence=translate(_not_kept(place, keeper.refused[-1][3]))),
                  file=sys.stderr)
        return api_key, refused
    kept = keeper.load(place, KEYRING_ENTRY)
    if kept:
        return kept, False
    fallback = os.environ.get(DEFAULT_KEY_VARIABLE) or None
    if fallback is None and keeper.refused:  # the model would be asked without the key it needs
        raise CommandError(Message(N_(
            "The system keyring did not give the API key for {place} ({problem}); nothing was sent. Unlock the "
            "keyring, or give the key with --api-key-env (or --ask-api-key at a terminal)."),
            {"place": place, "problem": keeper.refused[-1][3]}))
    return fallback, False


def _not_kept(place: str, answer: str) -> Message:
    """The key typed at the terminal that the keyring did not keep (``answer``: its answer)."""
    from inspector.store.keyring_words import longest_entry, too_long

    if too_long(answer):  # no unlocking helps: the key is wrong
        return Message(N_("The system keyring cannot keep the API key for {place}: it is longer than the {most} "
                          "characters one entry holds, and is used for this run only. Check what was pasted (a key "
                          "is rarely longer than a few thousand characters)."), {"place": place, **longest_entry()})
    return Message(N_("The system keyring did not keep the API key for {place} ({problem}): it is used for this run "
                      "only. Unlock the keyring and give it again with --ask-api-key to keep it."),
                   {"place": place, "problem": answer})


def _play(agent: AgentRun, ended: EarlyInterrupt) -> AgentOutcome:
    """Run the loop; the first Ctrl-C or SIGTERM cancels the run (as --cancel-after does), a second exits at once.
    Once the run has ended (stored), they go to ``ended``, where they change nothing."""

    async def go() -> AgentOutcome:
        loop = asyncio.get_running_loop()

        def on_interrupt() -> None:
            if agent.cancelled:
                os._exit(EXIT_CANCELLED)
            agent.cancel()

        try:
            for signum in STOP_SIGNALS:
                loop.add_signal_handler(signum, on_interrupt)
        except (NotImplementedError, RuntimeError):  # not the main thread
            pass
        try:
            return await agent.run()
        finally:
            ended.after_end()

    try:
        return asyncio.run(go())
    except StoreError as exc:
        raise UsageError(Message(N_("The run could not be stored: {reason}"),
                                 {"reason": getattr(exc, "sentence", None) or str(exc)})) from None


def _report(store: Any, run_id: int | None, outcome: AgentOutcome, as_json: bool) -> int:
    _print_report(store, run_id, outcome, as_json)
    if outcome.status == "cancelled":
        return EXIT_CANCELLED
    return EXIT_OK if outcome.status == "ok" else EXIT_FAILED


def _client(store: RunStore, remember_era: bool = True) -> McpClient:
    """The client of an agent's or a scenario's tool calls: what travelled is kept, without tokens;
    the era the server speaks is remembered (not for a demo server started for one run)."""
    return McpClient(eras=StoredEras(store) if remember_era else None, wire_patterns=redact_text)


def _print_report(store: Any, run_id: int | None, outcome: AgentOutcome, as_json: bool) -> None:
    if as_json:
        steps = []
        for step in outcome.trace.steps:
            payload = step.to_payload()
            entry: dict[str, Any] = {"kind": payload["kind"], "round": payload["round"],
                                     "outcome": step_outcome(payload), "duration_ms": payload["durationMs"]}
            if step.tool_name is not None:
                entry["tool"] = step.tool_name
            if step.cancelled_in_flight is not None:
                entry["cancelled_in_flight"] = step.cancelled_in_flight
            if step.content is not None:
                entry["content"] = step.content
            steps.append(entry)
        emit_json({"run_id": run_id, "status": outcome.status, "stop_reason": outcome.stop_reason,
                   "rounds": outcome.rounds, "steps": steps})
    else:
        from .runs import _show

        if run_id is not None:
            _show(store, run_id, False)
        if outcome.final_answer:
            print(safe("\n" + _("The model's answer: {answer}").format(answer=outcome.final_answer)))
        if outcome.error:
            print(safe("\n" + _("The run stopped: {reason}").format(reason=translate(outcome.error_sentence))))
