"""What ``skills list|get|load`` found (SEP-2640): the ``--json`` fields (docs/cli-json.md) and the
readable lines, every server text made safe for the terminal. The operations themselves are made
by cli/operations.py as every offering's is (inspector.agent.skills)."""

from __future__ import annotations

import json
from typing import Any

from inspector.i18n import _, ngettext
from inspector.i18n.formatting import format_duration, format_number, format_size
from inspector.i18n.messages import translate
from inspector.mcp.skill_entries import SkillEntry, read_entry
from inspector.mcp.skills import Freshness, GotSkill, LoadedSkill, SkillListing

from .common import safe
from .safe_text import one_line


def _freshness(freshness: Freshness) -> dict[str, Any]:
    return {"ttl_ms": freshness.ttl_ms, "cache_scope": freshness.cache_scope}


def skill_fields(result: Any) -> dict[str, Any]:
    """The ``--json`` fields of a skills result: entries as the server sent them, with the English
    sentence saying why one cannot be loaded; a loaded skill's files with what was checked."""
    if isinstance(result, SkillListing):
        return {"skills": [entry.raw for entry in result.entries], "pages": result.pages,
                "unloadable": [{"index": index, "uri": entry.uri, "problem": str(entry.problem)}
                               for index, entry in enumerate(result.entries) if entry.problem is not None],
                **_freshness(result.freshness)}
    if isinstance(result, GotSkill):
        return {"skill": result.entry.raw, "problem": str(result.entry.problem) if result.entry.problem else None,
                **_freshness(result.freshness)}
    if isinstance(result, LoadedSkill):
        return {"skill": result.entry.raw, "entry_from": result.entry_from, "dynamic": result.entry.dynamic,
                "frontmatter": result.frontmatter, "skill_md": result.skill_md,
                "files": [{"uri": file.uri, "path": file.path, "size": file.size, "digest": file.digest,
                           "verified": file.verified, "mime_type": file.mime_type, "text": file.text}
                          for file in result.files]}
    return {}


def _value(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def frontmatter_lines(frontmatter: dict[str, Any]) -> list[str]:
    """One line per field, ``name`` and ``description`` first."""
    names = sorted(frontmatter, key=lambda name: {"name": 0, "description": 1}.get(name, 2))
    return [one_line(f"  {name}: {_value(frontmatter[name])}") for name in names]


def file_lines(entry: SkillEntry) -> list[str]:
    if entry.dynamic:
        return [_("  Files: dynamic (the server publishes no digests, so they cannot be verified).")]
    return [one_line(_("  {path}  {size}  {digest}").format(path=file.path, size=format_size(max(file.size, 0)),
                                                          digest=file.digest)) for file in entry.files or ()]


def _fresh_line(report: dict[str, Any]) -> list[str]:
    if report.get("ttl_ms") is None:
        return []
    return [one_line(_("The server says this stays fresh for {duration} ({scope}).").format(
        duration=format_duration(report["ttl_ms"] / 1000), scope=report.get("cache_scope") or _("no scope given")))]


def _entry_heading(entry: SkillEntry) -> str:
    size = ngettext("{count} file", "{count} files", len(entry.files or ())).format(
        count=format_number(len(entry.files or ()))) if not entry.dynamic else _("dynamic files")
    return one_line(_("  {uri} — {name}: {description} ({files})").format(
        uri=entry.uri, name=entry.name or "?", description=entry.description, files=size))


def skill_lines(operation: str, report: dict[str, Any]) -> list[str]:
    """The readable lines of a skills report."""
    if operation == "skills/list":
        entries = [read_entry(raw) for raw in report.get("skills", [])]
        pages = ngettext("{count} page", "{count} pages", report["pages"]).format(
            count=format_number(report["pages"]))
        lines = [ngettext("{count} skill in {pages}:", "{count} skills in {pages}:", len(entries)).format(
            count=format_number(len(entries)), pages=pages)]
        for entry in entries:
            lines.append(_entry_heading(entry))
            if entry.problem is not None:
                lines.append(one_line(_("    cannot be loaded: {problem}").format(problem=translate(entry.problem))))
        return lines + _fresh_line(report)
    if operation == "skills/get":
        entry = read_entry(report.get("skill"))
        lines = [one_line(entry.uri), _("Frontmatter:"), *frontmatter_lines(entry.frontmatter), _("Files:"),
                 *file_lines(entry)]
        if entry.problem is not None:
            said = _("This skill cannot be loaded: {problem}.")
            lines.append(one_line(said.format(problem=translate(entry.problem))))
        return lines + _fresh_line(report)
    entry = read_entry(report.get("skill"))
    count = len(report.get("files", []))
    if report.get("dynamic"):
        said = _("The skill {name} was loaded: its SKILL.md was read, but the server publishes no digests for a "
                 "dynamic skill, so only its frontmatter was checked against the entry's.")
    else:
        said = ngettext("The skill {name} was loaded: {count} file read and verified (size and SHA-256 digest), "
                        "SKILL.md's frontmatter the same as the entry's.",
                        "The skill {name} was loaded: {count} files read and verified (size and SHA-256 digest), "
                        "SKILL.md's frontmatter the same as the entry's.", count)
    lines = [one_line(said.format(name=entry.name, count=format_number(count))), _("Frontmatter:"),
             *frontmatter_lines(report.get("frontmatter") or {}), _("Files:")]
    for file in report.get("files", []):
        mark = _("verified") if file["verified"] else _("not verifiable")
        lines.append(one_line(_("  {path}  {size}  {digest}  {mark}").format(
            path=file["path"], size=format_size(file["size"]), digest=file["digest"], mark=mark)))
    lines += [_("SKILL.md:"), safe(report.get("skill_md") or "")]
    return lines


__all__ = ["file_lines", "frontmatter_lines", "skill_fields", "skill_lines"]
