"""Replaying a stored step: the same tool, with the same arguments and the same budget, called again.

A step of any run (live, scenario, imported) that called a tool can be replayed. What the replay
needs is read from the stored step alone (:func:`plan_replay`); where it cannot be known (an
imported trace names no server Run Inspector can reach, a command server not configured here), the
plan says so and the caller asks which server to use. The new run is linked to the step it came
from (:class:`ReplayLink`): its tool step carries ``replayOf`` (so the link travels in exports) and
its run row ``replay_of`` (so the replayed step finds its replays at once).

The budget: the one the step recorded (``budgetS``, written since replays exist), else what its
first leg was granted (the budget rounded up to whole seconds), else none (the caller's default).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ._frozen import thaw
from .step import RunStep, StepKind


class NotReplayable(ValueError):
    """The step cannot be replayed (the message says why, for a user)."""


@dataclass(frozen=True)
class ReplayLink:
    """Which step a run replays: the replayed run's uid and the step's sequence number."""

    run_uid: str
    sequence: int

    def key(self) -> str:
        """How the run row keeps it: ``"<uid>:<sequence>"``."""
        return f"{self.run_uid}:{self.sequence}"

    def to_payload(self) -> dict[str, Any]:
        return {"run": self.run_uid, "step": self.sequence}

    def marked(self, step: RunStep) -> RunStep:
        """``step`` (the replay's tool step) carrying this link."""
        return dataclasses.replace(step, replay_of=self.to_payload())

    @classmethod
    def from_payload(cls, value: object) -> ReplayLink | None:
        """The link a step's ``replayOf`` holds, or ``None`` when it holds none (or nonsense)."""
        if not hasattr(value, "get"):
            return None
        run, step = value.get("run"), value.get("step")  # type: ignore[union-attr]
        if not isinstance(run, str) or not run or isinstance(step, bool) or not isinstance(step, int) or step < 1:
            return None
        return cls(run, step)


#: ``runs.origin`` of a run played on a demo server started for that run alone (a played scenario's,
#: or a model's run on the Play tab's fresh demo server): its address died with the run.
OWN_DEMO_ORIGIN = "a demo server of its own"


@dataclass(frozen=True)
class ReplayPlan:
    """What a replay sends: the tool, its arguments, the budget (``None``: the caller's default)
    and the server it was called on (``None`` when the step cannot say: ask the user)."""

    link: ReplayLink
    tool: str
    arguments: dict[str, Any]
    budget_s: float | None
    server: str | None
    #: The step's run was a played scenario, or played on a demo server of its own: unless its
    #: server is configured here, that server was gone with the run (the user is asked which to use).
    played: bool = False


def plan_replay(run_uid: str, run_source: str, run_server: str | None, sequence: int, step: RunStep,
                run_origin: str | None = None) -> ReplayPlan:
    """The replay of ``step`` (sequence ``sequence`` of the run ``run_uid``); :class:`NotReplayable`
    when it did not call a tool."""
    if step.kind is not StepKind.TOOL or not step.tool_name:
        raise NotReplayable(step.kind.value)
    arguments = step.tool_arguments
    plain = thaw(arguments) if arguments is not None else {}
    if not isinstance(plain, dict):  # the reference writes an empty object as []
        plain = {}
    server = None if run_source == "imported" else (run_server or None)
    return ReplayPlan(ReplayLink(run_uid, sequence), step.tool_name, plain, budget_of(step), server,
                      played=run_source == "scenario" or run_origin == OWN_DEMO_ORIGIN)


def budget_of(step: RunStep) -> float | None:
    """The budget the step was given: recorded, else its first leg's grant, else ``None``."""
    if step.budget_s is not None and step.budget_s > 0:
        return float(step.budget_s)
    granted = step.legs[0].granted_s if step.legs else None
    return float(granted) if granted is not None and granted > 0 else None



def same_structure(first: Mapping[str, Any], second: Mapping[str, Any]) -> bool:
    """Whether two stored payloads' structured content (``structuredContent``, or its cut text
    ``structuredContentText``) agree, as a replay's verdict reads them: one that kept none (stored before
    steps kept it, or its tool returned none) has nothing to disagree with."""
    kept = [payload.get("structuredContent", payload.get("structuredContentText")) for payload in (first, second)]
    return None in kept or kept[0] == kept[1]
