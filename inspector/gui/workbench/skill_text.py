"""What an operation on a server's skills found, as the result pane's text (plain, in the user's
language): a listing's skills, an entry's frontmatter and files, a loaded skill's files and its
verified SKILL.md. A failed verification has no result: the pane shows its sentence."""

from __future__ import annotations

import json
from typing import Any

from inspector.i18n import _, ngettext
from inspector.i18n.formatting import format_duration, format_number, format_size
from inspector.i18n.messages import translate
from inspector.mcp.skill_entries import SkillEntry
from inspector.mcp.skills import Freshness, GotSkill, LoadedSkill, SkillListing


def _entry_lines(entry: SkillEntry) -> list[str]:
    names = sorted(entry.frontmatter, key=lambda name: {"name": 0, "description": 1}.get(name, 2))
    lines = [entry.uri, _("Frontmatter:")]
    lines += [f"  {name}: {value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)}"
              for name, value in ((name, entry.frontmatter[name]) for name in names)]
    lines.append(_("Files:"))
    if entry.dynamic:
        lines.append(_("  dynamic: the server publishes no digests"))
    lines += [f"  {file.path}  {format_size(max(file.size, 0))}  {file.digest}" for file in entry.files or ()]
    if entry.problem is not None:
        lines.append(_("This skill cannot be loaded: {problem}.").format(problem=translate(entry.problem)))
    return lines


def _fresh(freshness: Freshness) -> list[str]:
    if freshness.ttl_ms is None:
        return []
    return [_("The server says this stays fresh for {duration} ({scope}).").format(
        duration=format_duration(freshness.ttl_ms / 1000), scope=freshness.cache_scope or _("no scope given"))]


def skill_text(result: Any) -> str | None:
    """The text of a skills result, or ``None`` when ``result`` is none."""
    if isinstance(result, SkillListing):
        count = len(result.entries)
        lines = [ngettext("{count} skill:", "{count} skills:", count).format(count=format_number(count))]
        for entry in result.entries:
            lines.append(f"  {entry.uri} — {entry.description}" if entry.problem is None else
                         _("  {uri}: cannot be loaded: {problem}").format(uri=entry.uri,
                                                                        problem=translate(entry.problem)))
        return "\n".join(lines + _fresh(result.freshness))
    if isinstance(result, GotSkill):
        return "\n".join(_entry_lines(result.entry) + _fresh(result.freshness))
    if isinstance(result, LoadedSkill):
        count = len(result.files)
        said = ngettext("The skill {name} was loaded: {count} file read and verified.",
                        "The skill {name} was loaded: {count} files read and verified.", count)
        if result.entry.dynamic:
            said = _("The skill {name} was loaded: its SKILL.md read; a dynamic skill has no digests to check.")
        lines = [said.format(name=result.entry.name, count=format_number(count))]
        lines += [f"  {file.path}  {format_size(file.size)}  {file.digest}" for file in result.files]
        return "\n".join([*lines, "", result.skill_md])
    return None


__all__ = ["skill_text"]
