"""What a tool call returned, as the agent loop hands it on.

A result states its outcome (ok, failed, cancelled) and keeps the ``is_error``
boolean beside it, because every older reader decides on that boolean alone.
The pair is checked on construction so that it can never disagree.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ._frozen import FrozenMap, freeze
from .bounding import bound_text, utf8_size
from .finite import finite_json
from .nesting import nested_deeper
from .outcome import ToolOutcome

MAX_CONTENT_BYTES = 50_000
"""The reference bounds a tool result's text at 50,000 UTF-8 bytes."""

MAX_ARTIFACTS = 20
"""How many artifacts a bounded result keeps.

The reference does not publish its number; 20 leaves room for a tool that
returns a handful of files while stopping a runaway listing from flooding the
model's context and the stored run.
"""

MAX_CONTENT_BLOCKS = 100
"""How many described content blocks a bounded result keeps (the first ones, in order)."""

MAX_RESOURCE_TEXT_BYTES = 10_000
"""How much of the text of one embedded text resource a bounded result keeps (UTF-8 bytes)."""

MAX_STRUCTURE_DEPTH = 100
"""The deepest nesting of lists and objects a result keeps of structured content as a JSON value: as
deep as a call's arguments may be (``inspector.traces.format.MAX_VALUE_DEPTH``), since what is stored
is exported and must import again. Deeper structured content is kept as its JSON text."""

#: Kept instead of structured content too deeply nested even to be written as JSON text here.
TOO_DEEP_NOTE = "[The structured content is not kept: it is nested too deeply to be written as JSON.]"


def _require_str(owner: str, name: str, value: object) -> None:
    if not isinstance(value, str):
        raise ValueError(f"{owner}.{name} must be a string, got {type(value).__name__}")


@dataclass(frozen=True)
class Artifact:
    """A named piece of output beside the text, e.g. a file or an image.

    ``data`` is text; binary payloads are expected to arrive base64-encoded,
    as MCP sends them.
    """

    name: str
    media_type: str
    data: str

    def __post_init__(self) -> None:
        _require_str("Artifact", "name", self.name)
        _require_str("Artifact", "media_type", self.media_type)
        _require_str("Artifact", "data", self.data)

    def to_dict(self) -> dict[str, str]:
        """Return the artifact as stored in a step payload (camelCase keys)."""
        return {"name": self.name, "mediaType": self.media_type, "data": self.data}


@dataclass(frozen=True)
class WriteTarget:
    """The record a tool call wrote to: a table name and a row uid."""

    table: str
    uid: int

    def __post_init__(self) -> None:
        if not isinstance(self.table, str) or not self.table:
            raise ValueError(f"WriteTarget.table must be a non-empty string, got {self.table!r}")
        # bool is an int in Python; True as a uid is a bug, not a row.
        if isinstance(self.uid, bool) or not isinstance(self.uid, int) or self.uid < 0:
            raise ValueError(f"WriteTarget.uid must be a non-negative whole number, got {self.uid!r}")


@dataclass(frozen=True)
class ToolResult:
    """The result of one tool call.

    Invariants (checked on construction, ``ValueError`` otherwise):

    * ``is_error`` is true exactly when ``outcome`` is not ``OK``;
    * a failed or cancelled result carries no artifacts and no write target
      (fail-closed: a call that did not finish has no claim to either);
    * ``cancelled_in_flight`` is a bool for a cancelled result and ``None``
      otherwise. ``True`` means the ``tools/call`` request had been sent, so
      whether the remote side wrote anything is unknown; ``False`` means the
      call was cancelled before the request went out.

    Prefer the factories :meth:`text`, :meth:`error` and :meth:`cancelled`.
    """

    content: str
    is_error: bool
    artifacts: tuple[Artifact, ...]
    outcome: ToolOutcome
    write_target: WriteTarget | None
    cancelled_in_flight: bool | None = None
    #: Every content block the tool returned, described (type, MIME type, URI, name, size, the
    #: text of text resources; never binary bytes). Kept on a failed result too: a tool that
    #: reports an error may point to its log. A cancelled result has none.
    content_blocks: tuple[Mapping[str, Any], ...] = ()
    #: How many blocks were left out by the bound (see :meth:`with_bounded_channels`).
    content_blocks_dropped: int = 0
    #: The sentence of ours the content begins with, as data (``RunStep.wording``), or ``None``.
    wording: Mapping[str, Any] | None = None
    #: The tool's ``structuredContent`` (a JSON object), or, once bounded and too large to keep whole,
    #: its JSON text cut as the content is (see :meth:`with_bounded_channels`). Kept on a failed
    #: result too (it may be what broke the output schema); a cancelled result has none.
    structured_content: Mapping[str, Any] | str | None = None

    def __post_init__(self) -> None:
        _require_str("ToolResult", "content", self.content)
        if self.wording is not None and not isinstance(self.wording, Mapping):
            raise ValueError(f"ToolResult.wording must be a mapping or None, got {type(self.wording).__name__}")
        outcome = ToolOutcome.parse(self.outcome)
        if outcome is None:
            raise ValueError(
                f"ToolResult.outcome must be one of {[o.value for o in ToolOutcome]}, got {self.outcome!r}"
            )
        # Normalise a plain "ok" string to the enum so equality and hashing
        # do not depend on how the caller spelled it.
        object.__setattr__(self, "outcome", outcome)
        if not isinstance(self.is_error, bool):
            raise ValueError(f"ToolResult.is_error must be a bool, got {type(self.is_error).__name__}")
        if self.is_error != (outcome is not ToolOutcome.OK):
            raise ValueError(
                f"ToolResult.is_error={self.is_error} contradicts outcome '{outcome.value}': "
                "is_error must be true exactly when the outcome is not ok"
            )
        artifacts = tuple(self.artifacts)
        for artifact in artifacts:
            if not isinstance(artifact, Artifact):
                raise ValueError(
                    f"ToolResult.artifacts must hold Artifact values, got {type(artifact).__name__}"
                )
        object.__setattr__(self, "artifacts", artifacts)
        if self.write_target is not None and not isinstance(self.write_target, WriteTarget):
            raise ValueError(
                f"ToolResult.write_target must be a WriteTarget or None, got {type(self.write_target).__name__}"
            )
        if outcome is not ToolOutcome.OK:
            if artifacts:
                raise ValueError(f"a {outcome.value} tool result carries no artifacts")
            if self.write_target is not None:
                raise ValueError(f"a {outcome.value} tool result carries no write target")
        if outcome is ToolOutcome.CANCELLED:
            if not isinstance(self.cancelled_in_flight, bool):
                raise ValueError(
                    "a cancelled tool result must say whether the request had been sent: "
                    f"cancelled_in_flight must be a bool, got {self.cancelled_in_flight!r}"
                )
        elif self.cancelled_in_flight is not None:
            raise ValueError(
                f"cancelled_in_flight is only for cancelled results, not for a {outcome.value} one"
            )
        blocks = tuple(self.content_blocks)
        for block in blocks:
            if not isinstance(block, Mapping) or not isinstance(block.get("type"), str):
                raise ValueError("ToolResult.content_blocks must hold mappings with a string 'type'")
        object.__setattr__(self, "content_blocks",
                           tuple(block if isinstance(block, FrozenMap) else freeze(block) for block in blocks))
        dropped = self.content_blocks_dropped
        if isinstance(dropped, bool) or not isinstance(dropped, int) or dropped < 0:
            raise ValueError(f"ToolResult.content_blocks_dropped must be a non-negative whole number, "
                             f"got {dropped!r}")
        if outcome is ToolOutcome.CANCELLED and (blocks or dropped):
            raise ValueError("a cancelled tool result carries no content blocks")
        structured = self.structured_content
        if isinstance(structured, Mapping) and not isinstance(structured, FrozenMap):
            # Too deep to keep as a value (an export of it would not import), it is kept as its text.
            # NaN and the infinities (no JSON numbers) are kept as their text.
            object.__setattr__(self, "structured_content", _json_text(structured) if nested_deeper(
                structured, MAX_STRUCTURE_DEPTH) else freeze(_json_numbers(structured)))
        elif structured is not None and not isinstance(structured, Mapping | str):
            raise ValueError(f"ToolResult.structured_content must be a mapping, a string or None, "
                             f"got {type(structured).__name__}")
        if outcome is ToolOutcome.CANCELLED and structured is not None:
            raise ValueError("a cancelled tool result carries no structured content")

    @classmethod
    def text(
        cls,
        content: str,
        artifacts: Iterable[Artifact] = (),
        write_target: WriteTarget | None = None,
        content_blocks: Iterable[Mapping[str, Any]] = (),
        wording: Mapping[str, Any] | None = None,
        structured_content: Mapping[str, Any] | None = None,
    ) -> ToolResult:
        """Return a successful result (``wording``: the sentence of ours it begins with, as data)."""
        return cls(content, False, tuple(artifacts), ToolOutcome.OK, write_target,
                   content_blocks=tuple(content_blocks), wording=wording, structured_content=structured_content)

    @classmethod
    def error(cls, content: str, content_blocks: Iterable[Mapping[str, Any]] = (),
              wording: Mapping[str, Any] | None = None,
              structured_content: Mapping[str, Any] | None = None) -> ToolResult:
        """Return a failed result: no artifacts, no write target (the blocks and structured content
        of a tool that reported an error are kept, as a description). ``wording``: the sentence of
        ours the content begins with, as data."""
        return cls(content, True, (), ToolOutcome.FAILED, None, content_blocks=tuple(content_blocks),
                   wording=wording, structured_content=structured_content)

    @classmethod
    def cancelled(cls, content: str, in_flight: bool, wording: Mapping[str, Any] | None = None) -> ToolResult:
        """Return a cancelled result, fail-closed exactly like :meth:`error`.

        ``in_flight`` is true when the ``tools/call`` request had already been
        sent: the remote write may or may not have happened, and nothing here
        claims either. ``wording``: the sentence of ours the content begins with, as data.
        """
        return cls(content, True, (), ToolOutcome.CANCELLED, None, in_flight, wording=wording)

    def with_bounded_channels(
        self,
        max_content_bytes: int = MAX_CONTENT_BYTES,
        max_artifacts: int = MAX_ARTIFACTS,
        max_blocks: int = MAX_CONTENT_BLOCKS,
    ) -> ToolResult:
        """Return a copy whose content and artifacts fit the bounds.

        The content is cut to at most ``max_content_bytes`` UTF-8 bytes, on a
        code point boundary; a cut content ends with a note giving the size of
        the original, and the note counts within the bound. At most
        ``max_artifacts`` artifacts are kept, in order, and at most ``max_blocks`` content
        blocks (the count of the others is added to ``content_blocks_dropped``), each text
        resource's text cut to :data:`MAX_RESOURCE_TEXT_BYTES`. Structured content whose JSON
        text takes more than ``max_content_bytes`` is kept as that text, cut as the content is.

        Everything else is kept as it was, on every branch: a cancelled result
        stays cancelled (with its ``cancelled_in_flight``) and a failed one
        stays failed. Bounding an already bounded result returns an equal one.
        """
        if isinstance(max_artifacts, bool) or not isinstance(max_artifacts, int) or max_artifacts < 0:
            raise ValueError(f"max_artifacts must be a non-negative whole number, got {max_artifacts!r}")
        if isinstance(max_blocks, bool) or not isinstance(max_blocks, int) or max_blocks < 0:
            raise ValueError(f"max_blocks must be a non-negative whole number, got {max_blocks!r}")
        kept = self.content_blocks[:max_blocks]
        # dataclasses.replace copies every field not named here, so the
        # outcome cannot be lost by rebuilding the result field by field;
        # that is how a cancelled call would get relabelled as failed.
        return dataclasses.replace(
            self,
            content=bound_text(self.content, max_content_bytes),
            artifacts=self.artifacts[:max_artifacts],
            content_blocks=tuple(_bounded_block(block) for block in kept),
            content_blocks_dropped=self.content_blocks_dropped + len(self.content_blocks) - len(kept),
            structured_content=bound_structure(self.structured_content, max_content_bytes),
        )


def bound_structure(structured: Mapping[str, Any] | str | None, max_bytes: int) -> Mapping[str, Any] | str | None:
    """Structured content as a step keeps it: whole while its JSON text (compact) takes at most
    ``max_bytes`` UTF-8 bytes, else that text cut to them by :func:`bound_text` (with its note)."""
    if not isinstance(structured, Mapping):
        return structured if structured is None else bound_text(structured, max_bytes)
    text = _json_text(structured)
    return structured if utf8_size(text) <= max_bytes else bound_text(text, max_bytes)


def _json_text(structured: Mapping[str, Any]) -> str:
    """Structured content as compact JSON text (a frozen one too), or :data:`TOO_DEEP_NOTE`."""
    try:
        return json.dumps(structured, ensure_ascii=False, separators=(",", ":"), default=dict)
    except RecursionError:
        return TOO_DEEP_NOTE


def _json_numbers(structured: Mapping[str, Any]) -> Mapping[str, Any]:
    """Structured content with each NaN and infinity (a server may send them: Python's reader takes them)
    as its text (:func:`finite_json`): as numbers the stored payload is no JSON. Copied only when it
    holds one."""
    try:
        json.dumps(structured, allow_nan=False, default=dict)
    except ValueError:
        return finite_json(structured)
    return structured


def _bounded_block(block: Mapping[str, Any]) -> Mapping[str, Any]:
    text = block.get("text")
    if not isinstance(text, str):
        return block
    bounded = bound_text(text, MAX_RESOURCE_TEXT_BYTES)
    return block if bounded is text else FrozenMap({**block, "text": bounded})
