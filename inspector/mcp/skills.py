"""Skills (SEP-2640, the ``io.modelcontextprotocol/skills`` extension) as operations: listing them
(``skills/list``, page by page), getting one entry (``skills/get``), and loading one.

Each is an operation like the other offerings (:mod:`.offerings`): one deadline spent across its
legs, cancellable, in both eras, reported to the observer. None is asked of a server whose
capabilities do not declare the extension (a sentence says so; nothing is sent).

Loading a skill reads its files with ``resources/read``, ``SKILL.md`` first, then the others in
the order the entry lists them, and checks each against the entry (:mod:`.skill_files`: size,
SHA-256 digest); ``SKILL.md``'s YAML frontmatter is parsed (:mod:`.frontmatter`) and compared
field by field with the entry's. The first mismatch fails the operation with a sentence naming
the file and what differed, and no further file is read. Nothing is read before the user asks
to load: listing and getting read no file. The entry is the one the user holds (the window
passes the listed one), else it is looked for in the listing, else asked for with ``skills/get``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .errors import McpTransportError
from .frontmatter import FrontmatterProblem, differences, parse_frontmatter, shown_value
from .messages import N_, Message
from .offerings import MAX_PAGES
from .page_cursors import CursorTrail
from .sanitize import sanitize_remote_text
from .skill_entries import MAX_TOTAL_BYTES, SKILL_MD, SkillEntry, declares_skills, read_entry
from .skill_files import FileMismatch, ReadFile, unverified_file, verify_file

if TYPE_CHECKING:
    from .cancel import CancelSignal
    from .client import McpClient
    from .reports import OperationObserver
    from .server import ServerEndpoint

#: Run Inspector's name for loading a skill (not an MCP method: its legs are skills/list or
#: skills/get, then resources/read of each file).
LOAD = "skills/load"


@dataclass(frozen=True)
class Freshness:
    """What a result of the 2026-07-28 era says of its freshness (``ttlMs``, ``cacheScope``)."""

    ttl_ms: int | None = None
    cache_scope: str | None = None

    @classmethod
    def of(cls, result: dict[str, Any]) -> Freshness:
        ttl, scope = result.get("ttlMs"), result.get("cacheScope")
        return cls(ttl if isinstance(ttl, int) and not isinstance(ttl, bool) and ttl >= 0 else None,
                   scope if isinstance(scope, str) else None)


@dataclass(frozen=True)
class SkillListing:
    """Every page of ``skills/list``: the entries (each with its problem, if any) and the pages walked."""

    entries: list[SkillEntry]
    pages: int
    freshness: Freshness


@dataclass(frozen=True)
class GotSkill:
    """The entry ``skills/get`` gave."""

    entry: SkillEntry
    freshness: Freshness


@dataclass(frozen=True)
class LoadedSkill:
    """A skill whose files were read and verified: its entry, its files (SKILL.md first), the
    frontmatter read from SKILL.md (equal to the entry's) and SKILL.md's text."""

    entry: SkillEntry
    files: list[ReadFile]
    frontmatter: dict[str, Any]
    skill_md: str
    #: How the entry was found: "held" (given), "skills/list" or "skills/get".
    entry_from: str


async def _require(op: Any, server: ServerEndpoint, method: str) -> None:
    """The server's declaration of the extension, observed before anything of it is asked: in the
    stateless era, a ``server/discover`` leg first when this operation has not discovered yet."""
    if op.session.stateless and not op.server_capabilities:
        await op.discover()
    if not declares_skills(op.server_capabilities):
        raise McpTransportError.not_offered(server.label, method, Message(
            N_("the skills extension ({extension})"), {"extension": "io.modelcontextprotocol/skills"}))


def _failed(server: ServerEndpoint, problem: Message, method: str = "resources/read",
            file: str | None = None) -> McpTransportError:
    """The named failure; ``skill_file``: the URI of the file that did not match (``None``: the entry)."""
    error = McpTransportError.skill_verification(server.label, method, problem)
    error.skill_file = file  # type: ignore[attr-defined]
    return error


async def _pages(op: Any, server: ServerEndpoint, stop_at: str | None = None) -> SkillListing:
    entries: list[SkillEntry] = []
    cursor: str | None = None
    freshness = Freshness()
    trail = CursorTrail(server.label, "skills/list")
    for page in range(1, MAX_PAGES + 1):
        result = await op.request("skills/list", {} if cursor is None else {"cursor": cursor}, is_work=True)
        listed = result.get("skills")
        if not isinstance(listed, list):
            raise McpTransportError.malformed(server.label, "skills/list", Message(N_("its result has no list {key}"),
                                                                                   {"key": "skills"}))
        if page == 1:
            freshness = Freshness.of(result)
        entries.extend(read_entry(item) for item in listed)
        next_cursor = result.get("nextCursor")
        found = stop_at is not None and any(entry.uri == stop_at for entry in entries)
        if found or not isinstance(next_cursor, str) or not next_cursor:
            return SkillListing(entries, page, freshness)
        cursor = trail.follow(next_cursor, page)
    raise McpTransportError.malformed(server.label, "skills/list", Message(
        N_("the listing did not end within {count} pages"), {"count": MAX_PAGES}))


async def _get(op: Any, server: ServerEndpoint, uri: str) -> GotSkill:
    result = await op.request("skills/get", {"uri": uri}, is_work=True)
    if not isinstance(result.get("skill"), dict):
        raise McpTransportError.malformed(server.label, "skills/get", Message(N_("its result has no skill object")))
    return GotSkill(read_entry(result["skill"]), Freshness.of(result))


def _check_frontmatter(server: ServerEndpoint, entry: SkillEntry, text: str) -> dict[str, Any]:
    try:
        found = parse_frontmatter(text)
    except FrontmatterProblem as problem:
        raise _failed(server, Message(N_("{file}: {reason}"), {"file": SKILL_MD, "reason": problem.reason}),
                      file=entry.uri) from None
    differing = differences(found, entry.frontmatter)
    if differing:
        name, in_file, listed = differing[0]
        raise _failed(server, Message(
            N_("{file}: its frontmatter says {field} is {value}, the listing says {listed}"),
            {"file": SKILL_MD, "field": sanitize_remote_text(name, 60), "value": shown_value(in_file),
             "listed": shown_value(listed)}), file=entry.uri)
    return found


async def _load(op: Any, server: ServerEndpoint, entry: SkillEntry, entry_from: str) -> LoadedSkill:
    if entry.problem is not None:
        raise _failed(server, Message(N_("its entry cannot be loaded: {problem}"), {"problem": entry.problem}),
                      LOAD)
    files: list[ReadFile] = []
    if entry.files is None:  # dynamic: only SKILL.md, read and measured, its frontmatter still compared
        result = await op.request("resources/read", {"uri": entry.uri}, is_work=True)
        try:
            read = unverified_file(entry.uri, SKILL_MD, result)
        except FileMismatch as mismatch:
            raise _failed(server, mismatch.problem, file=entry.uri) from None
        if read.size > MAX_TOTAL_BYTES:
            raise _failed(server, Message(N_("{file}: {size} bytes, more than the {limit} a host must accept"),
                                          {"file": SKILL_MD, "size": read.size, "limit": MAX_TOTAL_BYTES}),
                          file=entry.uri)
        files.append(read)
    else:
        ordered = sorted(entry.files, key=lambda file: file.uri != entry.uri)  # SKILL.md first
        for listed in ordered:
            result = await op.request("resources/read", {"uri": listed.uri}, is_work=True)
            try:
                read = verify_file(listed, result)
            except FileMismatch as mismatch:
                raise _failed(server, mismatch.problem, file=listed.uri) from None
            if listed.uri == entry.uri:
                if read.text is None:
                    raise _failed(server, Message(N_("{file}: it is not UTF-8 text"), {"file": SKILL_MD}),
                                  file=entry.uri)
                _check_frontmatter(server, entry, read.text)
            files.append(read)
    skill_md = files[0].text or ""
    frontmatter = _check_frontmatter(server, entry, skill_md) if entry.files is None else dict(entry.frontmatter)
    return LoadedSkill(entry, files, frontmatter, skill_md, entry_from)


class Skills:
    """The operations on a server's skills, made through ``client``."""

    def __init__(self, client: McpClient) -> None:
        self.client = client

    async def _operate(self, method: str, server: ServerEndpoint, work: Any, budget_s: object,
                       cancel: CancelSignal | None, observer: OperationObserver | None, wire: str | None) -> Any:
        return await self.client._operate(method, server, work, budget_s, cancel, observer, wire)  # noqa: SLF001

    async def list(self, server: ServerEndpoint, *, budget_s: object = None, cancel: CancelSignal | None = None,
                   observer: OperationObserver | None = None, wire: str | None = None) -> SkillListing:
        """Every page of ``skills/list`` (no file is read)."""

        async def work(op: Any) -> SkillListing:
            await _require(op, server, "skills/list")
            return await _pages(op, server)

        return await self._operate("skills/list", server, work, budget_s, cancel, observer, wire)

    async def get(self, server: ServerEndpoint, uri: str, *, budget_s: object = None,
                  cancel: CancelSignal | None = None, observer: OperationObserver | None = None,
                  wire: str | None = None) -> GotSkill:
        """``skills/get`` of the skill whose SKILL.md is ``uri`` (no file is read)."""

        async def work(op: Any) -> GotSkill:
            await _require(op, server, "skills/get")
            return await _get(op, server, uri)

        return await self._operate("skills/get", server, work, budget_s, cancel, observer, wire)

    async def load(self, server: ServerEndpoint, uri: str, entry: dict[str, Any] | None = None, *,
                   budget_s: object = None, cancel: CancelSignal | None = None,
                   observer: OperationObserver | None = None, wire: str | None = None) -> LoadedSkill:
        """Load the skill whose SKILL.md is ``uri``: its files read and verified against ``entry``
        (as the listing gave it), or the entry the listing or ``skills/get`` gives now."""

        async def work(op: Any) -> LoadedSkill:
            await _require(op, server, LOAD)
            if entry is not None:
                held, found_in = read_entry(entry), "held"
            else:
                listing = await _pages(op, server, stop_at=uri)
                held = next((listed for listed in listing.entries if listed.uri == uri), None)
                found_in = "skills/list"
                if held is None:
                    held, found_in = (await _get(op, server, uri)).entry, "skills/get"
            if held.uri != uri:
                raise _failed(server, Message(N_("the entry names {entry}, not the skill asked for"),
                                              {"entry": sanitize_remote_text(held.uri, 120)}), LOAD)
            return await _load(op, server, held, found_in)

        return await self._operate(LOAD, server, work, budget_s, cancel, observer, wire)


__all__ = ["LOAD", "Freshness", "GotSkill", "LoadedSkill", "SkillListing", "Skills"]
