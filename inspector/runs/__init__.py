"""The run outcome model: tool results, run steps, their timeline and traces.

Pure Python with no I/O and no dependency on the rest of the application,
so the store, the MCP client and the views can all build on it.
"""

from .bounding import bound_text, utf8_size
from .leg import InvalidLegError, Leg
from .outcome import ToolOutcome
from .result import MAX_ARTIFACTS, MAX_CONTENT_BLOCKS, MAX_CONTENT_BYTES, Artifact, ToolResult, WriteTarget
from .status import RUN_SOURCES, RUN_STATUSES
from .step import InvalidStepError, RunStep, StepKind
from .timeline import (
    ENGLISH_DETAILS,
    LABEL_KEY_PREFIX,
    DetailWords,
    TimelineEntry,
    ordered,
    outcome_label_key,
    step_details,
    step_outcome,
)
from .trace import RunTrace

__all__ = [
    "ENGLISH_DETAILS",
    "LABEL_KEY_PREFIX",
    "MAX_ARTIFACTS",
    "MAX_CONTENT_BLOCKS",
    "MAX_CONTENT_BYTES",
    "RUN_SOURCES",
    "RUN_STATUSES",
    "Artifact",
    "DetailWords",
    "InvalidLegError",
    "InvalidStepError",
    "Leg",
    "RunStep",
    "RunTrace",
    "StepKind",
    "TimelineEntry",
    "ToolOutcome",
    "ToolResult",
    "WriteTarget",
    "bound_text",
    "ordered",
    "outcome_label_key",
    "step_details",
    "step_outcome",
    "utf8_size",
]
