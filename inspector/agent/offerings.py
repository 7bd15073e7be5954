"""The operations on what a server offers besides tools (``inspector.mcp.offerings``) as run steps:
each recorded as a ``request`` step, as ``tools/list`` is, for the command line and the window alike.

``operation`` is the MCP method; ``params`` what it needs: ``uri`` (``resources/read``), ``name`` and
``arguments`` (``prompts/get``), ``ref``, ``argument``, ``value`` and ``context``
(``completion/complete``). ``resources/subscribe`` and ``resources/unsubscribe`` (``uri``) are
made on a listening session (``session``: its :class:`~inspector.mcp.resource_subscriptions.
SessionSubscriptions`), to which a subscription belongs.
"""

from __future__ import annotations

from typing import Any

from inspector.mcp import CancelSignal, FanOut, McpClient, OperationObserver, ServerEndpoint
from inspector.mcp.messages import N_, NP_, Message
from inspector.mcp.offerings import Listing, Offerings
from inspector.mcp.resource_subscriptions import SUBSCRIPTION_OPERATIONS, SessionSubscriptions, SubscriptionChange

from .operations import OperationRecord, Said, pages_words, request_step

#: The operations, in the order a user meets them.
OFFERING_OPERATIONS = ("resources/list", "resources/templates/list", "resources/read", "prompts/list",
                       "prompts/get", "completion/complete", *SUBSCRIPTION_OPERATIONS)


def _listing_sentence(noun: str, listing: Listing, key: str) -> Said:
    """The step's stored sentence (English, as every step's): "2 resources in 1 page: a, b"; its head
    is also kept as data, to be said in a reader's language."""
    found = {"count": len(listing.items), "pages": pages_words(listing.pages)}
    if noun == "resources":
        head = NP_("{count} resource in {pages}:", "{count} resources in {pages}:", found, "count")
    elif noun == "resource templates":
        head = NP_("{count} resource template in {pages}:", "{count} resource templates in {pages}:", found, "count")
    else:
        head = NP_("{count} prompt in {pages}:", "{count} prompts in {pages}:", found, "count")
    return Said(head, ", ".join(listing.names(key)))


async def offering_step(client: McpClient, server: ServerEndpoint, operation: str, params: dict[str, Any], *,
                        budget_s: object = None, cancel: CancelSignal | None = None,
                        observer: OperationObserver | None = None, wire: str | None = None,
                        session: SessionSubscriptions | None = None) -> OperationRecord:
    """Run ``operation`` on ``server`` and record it as a ``request`` step (its result: the
    offerings' result object, or ``None`` when it failed). A subscription's operation needs the
    listening ``session`` it belongs to. Skills go to :mod:`.skills`."""
    if operation.startswith("skills/"):
        from .skills import skill_step

        return await skill_step(client, server, operation, params, budget_s=budget_s, cancel=cancel,
                                observer=observer, wire=wire)
    offerings = Offerings(client)
    common: dict[str, Any] = {"budget_s": budget_s, "cancel": cancel, "wire": wire}

    def run(call: Any, describe: Any) -> Any:
        return request_step(operation, server, describe,
                            lambda recorder: call(observer=FanOut(recorder, observer) if observer else recorder,
                                                  **common))

    if operation == "resources/list":
        return await run(lambda **kw: offerings.list_resources(server, **kw),
                         lambda found: _listing_sentence("resources", found, "uri"))
    if operation == "resources/templates/list":
        return await run(lambda **kw: offerings.list_templates(server, **kw),
                         lambda found: _listing_sentence("resource templates", found, "uriTemplate"))
    if operation == "resources/read":
        return await run(lambda **kw: offerings.read(server, params["uri"], **kw),
                         lambda found: NP_("{count} content of {uri}", "{count} contents of {uri}",
                                           {"count": len(found.contents), "uri": found.uri}, "count"))
    if operation == "prompts/list":
        return await run(lambda **kw: offerings.list_prompts(server, **kw),
                         lambda found: _listing_sentence("prompts", found, "name"))
    if operation == "prompts/get":
        return await run(lambda **kw: offerings.get_prompt(server, params["name"], params.get("arguments"), **kw),
                         lambda found: NP_("the prompt {name}: {count} message", "the prompt {name}: {count} messages",
                                           {"name": found.name, "count": len(found.messages)}, "count"))
    if operation == "completion/complete":
        return await run(lambda **kw: offerings.complete(server, params["ref"], params["argument"],
                                                         params.get("value", ""), params.get("context"), **kw),
                         lambda found: Said(NP_("{count} value:", "{count} values:", {"count": len(found.values)},
                                                "count"), ", ".join(found.values)))
    if operation in SUBSCRIPTION_OPERATIONS:
        if session is None:
            raise ValueError(f"{operation} needs the listening session it belongs to")
        return await run(lambda **kw: session.change(operation, params["uri"], **kw), _subscription_sentence)
    raise ValueError(f"not an operation on what a server offers: {operation!r}")


def _subscription_sentence(change: SubscriptionChange) -> Message:
    """The step's stored sentence: "subscribed to demo://clock (stateless era)"."""
    said = {"uri": change.uri, "era": change.era}
    if change.subscribed:
        return Message(N_("subscribed to {uri} ({era} era)"), said)
    return Message(N_("unsubscribed from {uri} ({era} era)"), said)


__all__ = ["OFFERING_OPERATIONS", "offering_step"]
