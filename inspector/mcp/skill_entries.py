"""A skill's entry as ``skills/list`` and ``skills/get`` give it (SEP-2640, the
``io.modelcontextprotocol/skills`` extension), read defensively.

An entry names the skill's ``SKILL.md`` (``uri``), carries its YAML frontmatter as a JSON object
(``frontmatter``: ``name``, ``description`` and whatever else the author wrote) and lists every
file of the skill with the SHA-256 digest and size of its bytes (``resources``), or says
``"dynamic"`` (a generated skill: no digests). An entry that breaks the rules keeps what it said
and a :attr:`SkillEntry.problem`: a host must not load it, and says why before reading anything.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .messages import N_, Message
from .sanitize import sanitize_remote_text

#: The extension's identifier, under ``capabilities.extensions``.
SKILLS_EXTENSION = "io.modelcontextprotocol/skills"
#: The marker of a skill whose files have no published digests.
DYNAMIC = "dynamic"
#: The SKILL.md every skill has at its root.
SKILL_MD = "SKILL.md"
#: How a digest is written: ``sha256:`` and 64 lowercase hexadecimal digits.
DIGEST = re.compile(r"sha256:[0-9a-f]{64}")
#: The limits every host must accept (and this one keeps to): files per skill, bytes per skill.
MAX_FILES = 512
MAX_TOTAL_BYTES = 16 * 1024 * 1024


def _shown(text: object, limit: int = 120) -> str:
    return sanitize_remote_text(text, limit)


@dataclass(frozen=True)
class SkillFile:
    """One file of a skill as its entry lists it."""

    uri: str
    digest: str
    size: int
    #: Its path inside the skill's folder (``SKILL.md``, ``references/FORMS.md``), for sentences.
    path: str


@dataclass(frozen=True)
class SkillEntry:
    """One skill's entry. ``files`` is ``None`` for a dynamic skill; ``problem`` says why it must
    not be loaded (``None``: it may)."""

    uri: str
    frontmatter: dict[str, Any]
    files: tuple[SkillFile, ...] | None
    raw: dict[str, Any]
    problem: Message | None = None

    @property
    def name(self) -> str:
        name = self.frontmatter.get("name")
        return name if isinstance(name, str) else ""

    @property
    def description(self) -> str:
        description = self.frontmatter.get("description")
        return description if isinstance(description, str) else ""

    @property
    def dynamic(self) -> bool:
        return self.files is None

    @property
    def total_size(self) -> int:
        return sum(file.size for file in self.files or ())

    def file(self, uri: str) -> SkillFile | None:
        return next((file for file in self.files or () if file.uri == uri), None)


def skill_root(uri: str) -> str | None:
    """The skill's folder: its SKILL.md's URI without ``/SKILL.md`` (``None``: not such a URI)."""
    suffix = "/" + SKILL_MD
    if not uri.endswith(suffix) or "://" not in uri:
        return None
    root = uri[: -len(suffix)]
    return root if root.split("://", 1)[1] else None


def path_in_skill(uri: str, root: str | None) -> str:
    """``uri`` as a path inside the skill's folder (the URI itself when it is outside)."""
    if root and uri.startswith(root + "/"):
        return uri[len(root) + 1:]
    return uri


def _files(listed: Any, uri: str, root: str | None) -> tuple[tuple[SkillFile, ...], Message | None]:
    """The entry's files, and the first rule they break (``None``: none)."""
    files: list[SkillFile] = []
    problem: Message | None = None
    seen: set[str] = set()

    def fail(message: Message) -> None:
        nonlocal problem
        problem = problem or message

    for number, item in enumerate(listed, start=1):
        if not isinstance(item, dict) or not isinstance(item.get("uri"), str) or not item["uri"]:
            fail(Message(N_("its file {number} has no uri"), {"number": number}))
            continue
        file_uri = item["uri"]
        path = path_in_skill(file_uri, root)
        digest, size = item.get("digest"), item.get("size")
        if not isinstance(digest, str) or not DIGEST.fullmatch(digest):
            fail(Message(N_("the digest of {file} is not sha256: and 64 lowercase hexadecimal digits"),
                         {"file": _shown(path)}))
        if isinstance(size, bool) or not isinstance(size, int) or size < 0:
            fail(Message(N_("the size of {file} is not a whole number of bytes"), {"file": _shown(path)}))
        if file_uri in seen:
            fail(Message(N_("{file} is listed twice"), {"file": _shown(path)}))
        if file_uri != uri and (root is None or not file_uri.startswith(root + "/")):
            fail(Message(N_("{file} is outside the skill's folder"), {"file": _shown(file_uri)}))
        seen.add(file_uri)
        files.append(SkillFile(file_uri, digest if isinstance(digest, str) else "",
                               size if isinstance(size, int) and not isinstance(size, bool) else -1, path))
    if uri not in seen:
        fail(Message(N_("its files do not include its {skill_md}"), {"skill_md": SKILL_MD}))
    if len(files) > MAX_FILES:
        fail(Message(N_("it lists {count} files, more than the {limit} a host must accept"),
                     {"count": len(files), "limit": MAX_FILES}))
    total = sum(max(file.size, 0) for file in files)
    if total > MAX_TOTAL_BYTES:
        fail(Message(N_("its files add up to {size} bytes, more than the {limit} a host must accept"),
                     {"size": total, "limit": MAX_TOTAL_BYTES}))
    return tuple(files), problem


def read_entry(raw: Any) -> SkillEntry:
    """The entry ``raw`` (an object as the server sent it), with the first rule it breaks."""
    if not isinstance(raw, dict):
        return SkillEntry("", {}, (), {}, Message(N_("the entry is not an object")))
    uri = raw.get("uri") if isinstance(raw.get("uri"), str) else ""
    frontmatter = raw.get("frontmatter") if isinstance(raw.get("frontmatter"), dict) else {}
    root = skill_root(uri)
    problem: Message | None = None
    if not uri:
        problem = Message(N_("the entry has no uri"))
    elif root is None:
        problem = Message(N_("its uri {uri} does not name a {skill_md}"), {"uri": _shown(uri), "skill_md": SKILL_MD})
    elif not isinstance(raw.get("frontmatter"), dict):
        problem = Message(N_("the entry has no frontmatter object"))
    elif not isinstance(frontmatter.get("name"), str) or not frontmatter["name"]:
        problem = Message(N_("its frontmatter has no name"))
    elif not isinstance(frontmatter.get("description"), str) or not frontmatter["description"]:
        problem = Message(N_("its frontmatter has no description"))
    elif root.split("://", 1)[1].rsplit("/", 1)[-1] != frontmatter["name"]:
        problem = Message(N_("its uri ends in {segment}, but its frontmatter names it {name}"),
                          {"segment": _shown(root.split("://", 1)[1].rsplit("/", 1)[-1]),
                           "name": _shown(frontmatter["name"])})
    listed = raw.get("resources")
    if listed == DYNAMIC:
        return SkillEntry(uri, frontmatter, None, raw, problem)
    if not isinstance(listed, list):
        return SkillEntry(uri, frontmatter, (), raw, problem or Message(
            N_("its resources are neither a list of files nor \"{dynamic}\""), {"dynamic": DYNAMIC}))
    files, file_problem = _files(listed, uri, root)
    return SkillEntry(uri, frontmatter, files, raw, problem or file_problem)


def declares_skills(capabilities: dict[str, Any]) -> bool:
    """Whether a server's capabilities declare the skills extension."""
    extensions = capabilities.get("extensions")
    return isinstance(extensions, dict) and SKILLS_EXTENSION in extensions


__all__ = ["DIGEST", "DYNAMIC", "MAX_FILES", "MAX_TOTAL_BYTES", "SKILLS_EXTENSION", "SKILL_MD", "SkillEntry",
           "SkillFile", "declares_skills", "path_in_skill", "read_entry", "skill_root"]
