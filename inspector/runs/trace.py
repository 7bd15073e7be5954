"""The steps of one run, recorded in order."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .bounding import bound_text
from .leg import Leg
from .outcome import ToolOutcome
from .progress import bound_progress
from .result import MAX_CONTENT_BYTES, Artifact, ToolResult, WriteTarget
from .step import RunStep, StepKind
from .timeline import step_outcome


class RunTrace:
    """Accumulates the steps of one run, in the order they happened.

    Tool steps enter only through :meth:`record_tool_result` and
    :meth:`record_tool_execution`; both build the step in :meth:`_tool_step`,
    which derives ``tool_is_error`` from the outcome, so the pair cannot
    disagree whichever entry point a caller uses.
    """

    def __init__(self, steps: Iterable[RunStep] = ()) -> None:
        """Start a trace, optionally from the steps of a stored run."""
        self._steps: list[RunStep] = []
        for step in steps:
            if not isinstance(step, RunStep):
                raise TypeError(f"a trace holds RunStep values, got {type(step).__name__}")
            self._steps.append(step)

    @property
    def steps(self) -> tuple[RunStep, ...]:
        """The recorded steps, oldest first."""
        return tuple(self._steps)

    def payloads(self) -> list[dict[str, Any]]:
        """Return the stored form of every step, oldest first."""
        return [step.to_payload() for step in self._steps]

    def record_step(self, step: RunStep) -> RunStep:
        """Record a step that is not a tool call (e.g. an ``llm`` step).

        Tool steps are refused here so that every new one goes through the
        entry points that derive its outcome pair.
        """
        if not isinstance(step, RunStep):
            raise TypeError(f"record_step takes a RunStep, got {type(step).__name__}")
        if step.kind is StepKind.TOOL:
            raise ValueError("record tool steps with record_tool_result or record_tool_execution")
        self._steps.append(step)
        return step

    def record_tool_result(
        self,
        round: int,
        tool_name: str,
        arguments: Mapping[str, Any],
        result: ToolResult,
        duration_ms: float,
        legs: Iterable[Leg] = (),
        *,
        server_requests: Iterable[Mapping[str, Any]] = (),
        progress: Iterable[Mapping[str, Any]] = (),
        progress_dropped: int = 0,
        server_told_to_stop: bool | None = None,
        server_notifications: Iterable[Mapping[str, Any]] = (),
        wire: Mapping[str, Any] | None = None,
    ) -> RunStep:
        """Record a tool call from its typed result; the outcome is read off it.

        The result is bounded first (see :meth:`ToolResult.with_bounded_channels`),
        which changes nothing for a result the loop has already bounded.
        ``server_requests`` are the requests the server sent the client meanwhile
        (see :func:`inspector.agent.operations.server_requests_summary`); ``progress``
        the server's progress notes in stored form, bounded here (see
        :func:`inspector.runs.progress.bound_progress`), ``progress_dropped`` how many were heard
        between them and not kept even there (a long call's). ``server_told_to_stop`` says, for a
        request torn down on the wire, whether the server could be told to stop it. ``wire``:
        how the server was reached, as step fields (``transport``, ``server_command``,
        ``protocol_version``, ``era``, ``stderr``, ``stderr_dropped``, ``line_problems``).
        """
        if not isinstance(result, ToolResult):
            raise TypeError(f"record_tool_result takes a ToolResult, got {type(result).__name__}")
        bounded = result.with_bounded_channels()
        return self._tool_step(
            round,
            tool_name,
            arguments,
            bounded.content,
            bounded.outcome,
            duration_ms,
            legs,
            artifacts=bounded.artifacts,
            write_target=bounded.write_target,
            cancelled_in_flight=bounded.cancelled_in_flight,
            content_blocks=bounded.content_blocks,
            content_blocks_dropped=bounded.content_blocks_dropped,
            structured_content=bounded.structured_content,
            wording=bounded.wording,
            server_requests=tuple(server_requests),
            progress=tuple(progress),
            progress_dropped=progress_dropped,
            server_told_to_stop=server_told_to_stop,
            server_notifications=tuple(server_notifications),
            wire=wire or {},
        )

    def record_tool_execution(
        self,
        round: int,
        tool_name: str,
        arguments: Mapping[str, Any],
        content: str,
        is_error: bool,
        duration_ms: float,
        legs: Iterable[Leg] = (),
    ) -> RunStep:
        """Record a tool call from the older boolean form.

        The outcome is derived from ``is_error``: failed when true, ok when
        false. A cancellation cannot be stated this way; use
        :meth:`record_tool_result` with :meth:`ToolResult.cancelled`.
        """
        if not isinstance(is_error, bool):
            raise TypeError(f"is_error must be a bool, got {type(is_error).__name__}")
        outcome = ToolOutcome.FAILED if is_error else ToolOutcome.OK
        return self._tool_step(
            round, tool_name, arguments, bound_text(content, MAX_CONTENT_BYTES), outcome, duration_ms, legs
        )

    def _tool_step(
        self,
        round: int,
        tool_name: str,
        arguments: Mapping[str, Any],
        content: str,
        outcome: ToolOutcome,
        duration_ms: float,
        legs: Iterable[Leg],
        *,
        artifacts: tuple[Artifact, ...] = (),
        write_target: WriteTarget | None = None,
        cancelled_in_flight: bool | None = None,
        content_blocks: tuple[Mapping[str, Any], ...] = (),
        content_blocks_dropped: int = 0,
        structured_content: Mapping[str, Any] | str | None = None,
        server_requests: tuple[Mapping[str, Any], ...] = (),
        progress: tuple[Mapping[str, Any], ...] = (),
        progress_dropped: int = 0,
        server_told_to_stop: bool | None = None,
        server_notifications: tuple[Mapping[str, Any], ...] = (),
        wire: Mapping[str, Any] | None = None,
        wording: Mapping[str, Any] | None = None,
    ) -> RunStep:
        # The one place a tool step is built. tool_is_error is computed from
        # the outcome, never taken from a caller, so it cannot contradict it.
        kept_progress, dropped_here = bound_progress(progress)
        progress_dropped += dropped_here
        step = RunStep(
            kind=StepKind.TOOL,
            round=round,
            duration_ms=duration_ms,
            tool_name=tool_name,
            tool_arguments=arguments,
            tool_result=content,
            tool_is_error=outcome is not ToolOutcome.OK,
            tool_outcome=outcome,
            # Absent rather than [] when there are none: a failed or
            # cancelled call never has any, and an empty list says nothing.
            tool_artifacts=tuple(a.to_dict() for a in artifacts) or None,
            write_target_table=write_target.table if write_target else None,
            write_target_uid=write_target.uid if write_target else None,
            legs=tuple(legs),
            cancelled_in_flight=cancelled_in_flight,
            content_blocks=content_blocks or None,
            content_blocks_dropped=content_blocks_dropped or None,
            # Whole, or (too large) its JSON text cut: one key or the other, never both.
            structured_content=structured_content if isinstance(structured_content, Mapping) else None,
            structured_content_text=structured_content if isinstance(structured_content, str) else None,
            server_requests=server_requests or None,
            server_notifications=server_notifications or None,
            progress=kept_progress or None,
            progress_dropped=progress_dropped or None,
            server_told_to_stop=server_told_to_stop,
            wording=wording,
            **(wire or {}),
        )
        self._steps.append(step)
        return step

    @property
    def outcome(self) -> ToolOutcome:
        """The run's status as its tool steps tell it.

        * ``cancelled`` when the last tool step was cancelled: a cancelled
          run stops at the call it cut off, and the user's cancel is what
          ended it, even if an earlier call had failed;
        * otherwise ``failed`` when any tool step failed;
        * otherwise ``ok``. A cancelled call the loop carried on from (the
          model was told and the run went on) is not a failure.

        Legacy steps without ``tool_outcome`` count by their ``tool_is_error``.
        """
        # Read through the timeline's rule so the summary and the rows can
        # never disagree on what a (possibly legacy) step's outcome is.
        outcomes = [
            ToolOutcome.parse(step_outcome(step.to_payload()))
            for step in self._steps
            if step.kind is StepKind.TOOL
        ]
        outcomes = [outcome for outcome in outcomes if outcome is not None]
        if outcomes and outcomes[-1] is ToolOutcome.CANCELLED:
            return ToolOutcome.CANCELLED
        if ToolOutcome.FAILED in outcomes:
            return ToolOutcome.FAILED
        return ToolOutcome.OK
