"""The operations on a server's skills (``inspector.mcp.skills``) as run steps: each recorded as a
``request`` step, as the other offerings are (``inspector.agent.offerings`` hands them here).

``operation``: ``skills/list``, ``skills/get`` (``params["uri"]``) or ``skills/load``
(``params["uri"]``, and ``params["entry"]``: the entry the user holds, as the listing gave it).
"""

from __future__ import annotations

from typing import Any

from inspector.mcp import CancelSignal, FanOut, McpClient, OperationObserver, ServerEndpoint
from inspector.mcp.messages import N_, NP_, Message
from inspector.mcp.skills import LOAD, GotSkill, LoadedSkill, SkillListing, Skills

from .operations import OperationRecord, Said, pages_words, request_step

#: The operations, in the order a user meets them.
SKILL_OPERATIONS = ("skills/list", "skills/get", LOAD)


def _listing_sentence(listing: SkillListing) -> Said:
    """The step's stored sentence (English, as every step's): "2 skills in 1 page: a, b"; its head
    is also kept as data, to be said in a reader's language."""
    head = NP_("{count} skill in {pages}:", "{count} skills in {pages}:",
               {"count": len(listing.entries), "pages": pages_words(listing.pages)}, "count")
    return Said(head, ", ".join(entry.uri for entry in listing.entries))


def _got_sentence(got: GotSkill) -> Message:
    name = got.entry.name or got.entry.uri
    if got.entry.dynamic:
        return Message(N_("the skill {name}: dynamic files"), {"name": name})
    return NP_("the skill {name}: {count} file", "the skill {name}: {count} files",
               {"name": name, "count": len(got.entry.files or ())}, "count")


def _loaded_sentence(loaded: LoadedSkill) -> Message:
    said = {"name": loaded.entry.name, "count": len(loaded.files)}
    if loaded.entry.dynamic:
        return NP_("the skill {name}: {count} file read, not verifiable (dynamic)",
                   "the skill {name}: {count} files read, not verifiable (dynamic)", said, "count")
    return NP_("the skill {name}: {count} file read and verified", "the skill {name}: {count} files read and verified",
               said, "count")


async def skill_step(client: McpClient, server: ServerEndpoint, operation: str, params: dict[str, Any], *,
                     budget_s: object = None, cancel: CancelSignal | None = None,
                     observer: OperationObserver | None = None, wire: str | None = None) -> OperationRecord:
    """Run ``operation`` on ``server``'s skills and record it as a ``request`` step (its result:
    the skills' result object, or ``None`` when it failed: a verification failure among them)."""
    skills = Skills(client)
    common: dict[str, Any] = {"budget_s": budget_s, "cancel": cancel, "wire": wire}

    def run(call: Any, describe: Any) -> Any:
        return request_step(operation, server, describe,
                            lambda recorder: call(observer=FanOut(recorder, observer) if observer else recorder,
                                                  **common))

    if operation == "skills/list":
        return await run(lambda **kw: skills.list(server, **kw), _listing_sentence)
    if operation == "skills/get":
        return await run(lambda **kw: skills.get(server, params["uri"], **kw), _got_sentence)
    if operation == LOAD:
        return await run(lambda **kw: skills.load(server, params["uri"], params.get("entry"), **kw), _loaded_sentence)
    raise ValueError(f"not an operation on a server's skills: {operation!r}")


__all__ = ["SKILL_OPERATIONS", "skill_step"]
