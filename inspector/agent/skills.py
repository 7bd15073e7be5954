"""The operations on a server's skills (``inspector.mcp.skills``) as run steps: each recorded as a
``request`` step, as the other offerings are (``inspector.agent.offerings`` hands them here).

``operation``: ``skills/list``, ``skills/get`` (``params["uri"]``) or ``skills/load``
(``params["uri"]``, and ``params["entry"]``: the entry the user holds, as the listing gave it).
"""

from __future__ import annotations

from typing import Any

from inspector.mcp import CancelSignal, FanOut, McpClient, OperationObserver, ServerEndpoint
from inspector.mcp.skills import LOAD, GotSkill, LoadedSkill, SkillListing, Skills

from .operations import OperationRecord, request_step

#: The operations, in the order a user meets them.
SKILL_OPERATIONS = ("skills/list", "skills/get", LOAD)


def _listing_sentence(listing: SkillListing) -> str:
    """The step's stored sentence (English, as every step's): "2 skills in 1 page: a, b"."""
    skills = "1 skill" if len(listing.entries) == 1 else f"{len(listing.entries)} skills"
    pages = "1 page" if listing.pages == 1 else f"{listing.pages} pages"
    return f"{skills} in {pages}: {', '.join(entry.uri for entry in listing.entries)}"


def _got_sentence(got: GotSkill) -> str:
    files = "dynamic files" if got.entry.dynamic else (
        "1 file" if len(got.entry.files or ()) == 1 else f"{len(got.entry.files or ())} files")
    return f"the skill {got.entry.name or got.entry.uri}: {files}"


def _loaded_sentence(loaded: LoadedSkill) -> str:
    count = len(loaded.files)
    files = "1 file" if count == 1 else f"{count} files"
    how = "read, not verifiable (dynamic)" if loaded.entry.dynamic else "read and verified"
    return f"the skill {loaded.entry.name}: {files} {how}"


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
