"""The command line's answers to a server's requests, built from its options."""

from __future__ import annotations

import argparse
import os
from typing import TextIO

from inspector.i18n import N_, _
from inspector.i18n.messages import Message, translate
from inspector.mcp import NullObserver, ServerRequestHandler, ServerRequestSeen
from inspector.mcp.roots import RootNotUsable, parse_root
from inspector.mcp.sampling_limits import SamplingLimits, limit_reached
from inspector.mcp.server_requests import Elicitor, Root

from .abbreviations import naming
from .common import UsageError, safe
from .progress import LiveProgressLine
from .secrets import known_secrets
from .typed_secrets import typed_start


def handler_from_options(args: argparse.Namespace) -> ServerRequestHandler:
    """``--elicit``, ``--allow-sampling [N]`` with its model, ``--root``: what the client can answer."""
    sampler = _sampler(args)
    limits = SamplingLimits.approving(args.allow_sampling) if sampler is not None else SamplingLimits()
    return ServerRequestHandler(elicit=_elicitor(getattr(args, "elicit", None)), sample=sampler,
                                roots=roots_from_options(getattr(args, "root", [])), sampling_limits=limits)


def _elicitor(choice: str | None) -> Elicitor | None:
    """The ``--elicit`` answerer; its forms (``mcp.elicitation``) load only when the option is given."""
    if choice is None:
        return None
    from .elicit import elicitor_for

    return elicitor_for(choice)


class SamplingLimitNotice(NullObserver):
    """Says on ``stream`` (stderr) each time a sampling limit refuses a server's request."""

    def __init__(self, stream: TextIO, live: LiveProgressLine | None = None) -> None:
        self._stream = stream
        self._live = live  # its line is cleared first, so the sentence stands on a line of its own

    def server_request(self, report: ServerRequestSeen) -> None:
        sentence = limit_reached(report.answered) if report.declined else None
        if sentence is None:
            return
        if self._live is not None:
            self._live.clear()
        try:
            print(safe(translate(sentence)), file=self._stream, flush=True)
        except (OSError, ValueError):  # a closed terminal must not fail the operation
            pass


def roots_from_options(raw: list[str]) -> tuple[Root, ...] | None:
    """``--root`` values as roots: a ``file://`` URI as given, a path made absolute."""
    if not raw:
        return None
    roots = []
    for item in raw:
        try:
            roots.append(parse_root(item))
        except RootNotUsable:
            raise UsageError(Message(N_("--root takes a folder or a file:// URI (got {value})."),
                                     {"value": repr(typed_start(item, 80))})) from None
    return tuple(roots)


def _sampler(args: argparse.Namespace):  # -> Sampler | None
    url, model = getattr(args, "sampling_model_url", None), getattr(args, "sampling_model", None)
    if not getattr(args, "allow_sampling", None):
        if url or model:
            raise naming(UsageError(Message(N_("--sampling-model-url and --sampling-model take effect only with "
                                               "--allow-sampling."))), "--sampling-model-url", "--sampling-model")
        if getattr(args, "sampling_max_tokens", None) is not None:
            raise naming(UsageError(Message(N_("--sampling-max-tokens takes effect only with --allow-sampling."))),
                         "--sampling-max-tokens")
        return None
    if not url or not model:
        # `ping export --all`: --all is read as --allow-sampling, which the refusal says (cli/abbreviations.py).
        raise naming(UsageError(Message(N_("--allow-sampling needs a model: give --sampling-model-url and "
                                           "--sampling-model."))), "--allow-sampling")
    from inspector.agent.chat_model import OpenAIChatModel
    from inspector.agent.sampling import ChatModelSampler

    api_key = None
    if args.sampling_api_key_env:
        api_key = os.environ.get(args.sampling_api_key_env) or None
        if api_key is None:
            raise UsageError(Message(N_("The environment variable {name} is empty or not set; put the sampling model's "
                                        "API key there or leave out --sampling-api-key-env."),
                                     {"name": args.sampling_api_key_env}))
    secrets = known_secrets(api_key)
    try:
        chat = OpenAIChatModel(url, model, api_key=api_key, secrets=secrets)
    except ValueError as exc:
        raise UsageError(exc) from None
    tokens = args.sampling_max_tokens
    return ChatModelSampler(chat, model, secrets=secrets, **({} if tokens is None else {"max_tokens": tokens}))


def unoffered_line(handler: ServerRequestHandler) -> str | None:
    """Said after a call of a tool the server does not list: what this call did not offer the server
    (answers to its questions, sampling, roots), since some servers list a tool only to a client that
    offers what the tool needs (the reference server's trigger-elicitation-request, get-roots-list…);
    ``None`` when it offered them all."""
    missing = [word for offered, word in ((handler.elicit, _("answers to questions (--elicit)")),
                                          (handler.sample, _("sampling (--allow-sampling)")),
                                          (handler.roots, _("roots (--root)"))) if offered is None]
    if not missing:
        return None
    return _("Some servers list a tool only to clients that offer what it needs; this call did not offer "
             "{missing}.").format(missing=", ".join(missing))
