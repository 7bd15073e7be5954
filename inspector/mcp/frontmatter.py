"""A SKILL.md's YAML frontmatter, read safely, and compared field by field with a listing's.

The frontmatter is the block between a first line ``---`` and the next ``---`` line (as the
Agent Skills specification and the conformance suite read it). It comes from a server, so it is
read as hostile: only the first :data:`MAX_FRONTMATTER_CHARS` characters are looked at; the YAML
is first walked as a stream of events (no objects built) and refused when it has anchors or
aliases (an "alias bomb" expands a few lines into billions of nodes), nests deeper than
:data:`MAX_DEPTH` or has more than :data:`MAX_NODES` nodes; only then is it loaded with PyYAML's
safe loader (no tags that build objects), dates kept as the text they are (a listing is JSON,
which has none) and only ``true``/``false`` read as booleans, as YAML 1.2 has it. What is left
must be JSON-like: a mapping of text keys to text, numbers, booleans, null, lists and mappings.

PyYAML is imported when the first frontmatter is read: listing skills never needs it.
"""

from __future__ import annotations

import functools
import json
import math
import re
from typing import Any

from .messages import N_, Message
from .sanitize import sanitize_remote_text

#: The longest frontmatter block read (characters); a longer one is refused.
MAX_FRONTMATTER_CHARS = 64 * 1024
#: The deepest nesting of lists and mappings accepted.
MAX_DEPTH = 20
#: The most nodes (scalars, lists, mappings) accepted.
MAX_NODES = 5_000
#: A frontmatter block at the very start (after a byte order mark): ``---``, the YAML, ``---``.
_BLOCK = re.compile(r"---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)")
#: YAML 1.2's booleans (PyYAML's 1.1 also reads yes/no/on/off, which a JSON listing keeps as text).
_BOOLEAN = re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$")


class FrontmatterProblem(Exception):
    """Why a frontmatter cannot be read: ``reason`` is a translatable sentence fragment."""

    def __init__(self, reason: Message) -> None:
        super().__init__(str(reason))
        self.reason = reason


def frontmatter_block(text: str) -> str:
    """The YAML between the ``---`` lines at the start of ``text``."""
    head = text[1:] if text.startswith("\ufeff") else text
    found = _BLOCK.match(head[:MAX_FRONTMATTER_CHARS + 16])
    if found is None:
        if head.startswith("---") and len(head) > MAX_FRONTMATTER_CHARS:
            raise FrontmatterProblem(Message(N_("its frontmatter is longer than {count} characters, or not closed"),
                                             {"count": MAX_FRONTMATTER_CHARS}))
        raise FrontmatterProblem(Message(N_("it does not begin with a frontmatter block between --- lines")))
    return found.group(1)


@functools.cache
def _loader() -> Any:
    import yaml

    class JsonLikeLoader(yaml.SafeLoader):  # type: ignore[misc]
        """The safe loader without timestamps, with YAML 1.2's booleans."""

    resolvers: dict[Any, list[Any]] = {}
    for first, pairs in yaml.SafeLoader.yaml_implicit_resolvers.items():
        kept = [(tag, pattern) for tag, pattern in pairs
                if tag not in ("tag:yaml.org,2002:timestamp", "tag:yaml.org,2002:bool")]
        if kept:
            resolvers[first] = kept
    JsonLikeLoader.yaml_implicit_resolvers = resolvers
    JsonLikeLoader.add_implicit_resolver("tag:yaml.org,2002:bool", _BOOLEAN, list("tTfF"))
    return JsonLikeLoader


def _walk_events(block: str) -> None:
    """Refuse anchors, aliases, deep nesting and too many nodes before anything is built."""
    import yaml

    depth = nodes = 0
    try:
        for event in yaml.parse(block, Loader=_loader()):
            if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
                raise FrontmatterProblem(Message(N_("its frontmatter uses YAML anchors or aliases")))
            if isinstance(event, (yaml.ScalarEvent, yaml.SequenceStartEvent, yaml.MappingStartEvent)):
                nodes += 1
                if nodes > MAX_NODES:
                    raise FrontmatterProblem(Message(N_("its frontmatter has more than {count} values"),
                                                     {"count": MAX_NODES}))
            if isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
                depth += 1
                if depth > MAX_DEPTH:
                    raise FrontmatterProblem(Message(N_("its frontmatter nests deeper than {count} levels"),
                                                     {"count": MAX_DEPTH}))
            elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
                depth -= 1
    except yaml.YAMLError as exc:
        raise FrontmatterProblem(Message(N_("its frontmatter is not valid YAML: {reason}"),
                                         {"reason": sanitize_remote_text(str(exc).splitlines()[0], 120)})) from None


def _json_like(value: Any) -> Any:
    if isinstance(value, dict):
        if not all(isinstance(key, str) for key in value):
            raise FrontmatterProblem(Message(N_("its frontmatter has a key that is not text")))
        return {key: _json_like(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_json_like(item) for item in value]
    if isinstance(value, float) and not math.isfinite(value):
        raise FrontmatterProblem(Message(N_("its frontmatter has a number JSON cannot carry")))
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    raise FrontmatterProblem(Message(N_("its frontmatter has a value of a kind JSON cannot carry")))


def parse_frontmatter(text: str) -> dict[str, Any]:
    """The frontmatter of a SKILL.md's ``text`` as a JSON-like mapping; :class:`FrontmatterProblem`
    says why it cannot be read."""
    block = frontmatter_block(text)
    _walk_events(block)
    import yaml

    try:
        value = yaml.load(block, Loader=_loader())  # noqa: S506 - a SafeLoader subclass
    except yaml.YAMLError as exc:
        raise FrontmatterProblem(Message(N_("its frontmatter is not valid YAML: {reason}"),
                                         {"reason": sanitize_remote_text(str(exc).splitlines()[0], 120)})) from None
    if not isinstance(value, dict):
        raise FrontmatterProblem(Message(N_("its frontmatter is not a mapping of fields")))
    return _json_like(value)


def same_value(one: Any, other: Any) -> bool:
    """Equal as JSON values are: ``1`` and ``1.0`` alike, ``true`` never ``1``, lists in order."""
    if isinstance(one, bool) or isinstance(other, bool):
        return type(one) is type(other) and one == other
    if isinstance(one, (int, float)) and isinstance(other, (int, float)):
        return one == other
    if isinstance(one, list) and isinstance(other, list):
        return len(one) == len(other) and all(same_value(a, b) for a, b in zip(one, other, strict=True))
    if isinstance(one, dict) and isinstance(other, dict):
        return one.keys() == other.keys() and all(same_value(one[key], other[key]) for key in one)
    if one is None or other is None:
        return one is None and other is None
    return type(one) is type(other) and one == other


def shown_value(value: Any, limit: int = 80) -> str:
    """A value as compact JSON on one line, cut at ``limit`` characters (for a sentence)."""
    try:
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    except (TypeError, ValueError, RecursionError):
        text = repr(value)
    return sanitize_remote_text(text, limit)


def differences(in_file: dict[str, Any], listed: dict[str, Any]) -> list[tuple[str, Any, Any]]:
    """The fields whose values differ, ``(field, the file's, the listing's)``; a missing field
    counts as null (as the conformance suite compares them). The listing's fields come first."""
    fields = list(dict.fromkeys([*listed, *in_file]))
    found = []
    for name in fields:
        try:
            equal = same_value(in_file.get(name), listed.get(name))
        except RecursionError:
            equal = False
        if not equal:
            found.append((name, in_file.get(name), listed.get(name)))
    return found


__all__ = ["MAX_DEPTH", "MAX_FRONTMATTER_CHARS", "MAX_NODES", "FrontmatterProblem", "differences",
           "frontmatter_block", "parse_frontmatter", "same_value", "shown_value"]
