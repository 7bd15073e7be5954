"""docs/trace-format.md names every key of a step's payload the format knows, and the leg's keys, and no key
the format does not know: a reader of another program writes its importer from that row and that list."""

from __future__ import annotations

import re
from pathlib import Path

from inspector.runs.leg import Leg
from inspector.runs.step import PAYLOAD_KEYS

DOC = (Path(__file__).resolve().parents[2] / "docs" / "trace-format.md").read_text(encoding="utf-8")
PAYLOAD_ROW = next(line for line in DOC.splitlines() if line.startswith("| `payload` |"))
#: Words in backticks in the row that are no payload key: the row's own name, a value, the keys of a leg,
#: of a task's handle and of ``replayOf``.
OTHER_WORDS = {"payload", "false", "method", "grantedS", "elapsedMs", "httpStatus", "outcome", "exchange",
               "taskId", "server", "shape", "status", "polls", "statusMessage", "sessionId"}


def test_the_payload_row_names_every_key_and_only_those() -> None:
    named = set(re.findall(r"`([A-Za-z]+)`", PAYLOAD_ROW))
    assert sorted(set(PAYLOAD_KEYS) - named) == []
    assert sorted(named - set(PAYLOAD_KEYS) - OTHER_WORDS) == []


def test_the_payload_row_names_the_keys_a_leg_is_stored_with() -> None:
    stored = Leg(method="tools/call", granted_s=20, elapsed_ms=1.5, http_status=200, outcome="ok").to_dict()
    legs = PAYLOAD_ROW[PAYLOAD_ROW.index("`legs` (one object per request"):]
    legs = legs[:legs.index(")")]
    assert set(stored) <= set(re.findall(r"`([A-Za-z]+)`", legs)) and "`exchange`" in legs
