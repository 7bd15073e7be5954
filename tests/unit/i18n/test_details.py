"""A timeline step's details in the user's language; the stored/exported English is unchanged."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from inspector import i18n
from inspector.i18n.details import localized_step_details
from inspector.runs import step_details


@pytest.fixture
def german() -> Iterator[None]:
    assert i18n.set_language("de") == "de", "the German catalogue is not compiled (make translations)"
    yield
    i18n.set_language("en")


CANCELLED_IN_FLIGHT = {"kind": "tool", "toolName": "hang", "toolOutcome": "cancelled", "toolIsError": True,
                       "cancelledInFlight": True}
CANCELLED_BEFORE_SEND = dict(CANCELLED_IN_FLIGHT, cancelledInFlight=False)
PAYLOADS = [
    CANCELLED_IN_FLIGHT,
    CANCELLED_BEFORE_SEND,
    {"kind": "tool", "toolName": "write_note", "toolResult": "saved", "toolOutcome": "ok",
     "writeTargetTable": "notes", "writeTargetUid": 3},
    {"kind": "llm", "requestedToolCalls": [None, None]},
    {"kind": "llm", "requestedToolCalls": [None]},
    {"kind": "dropped", "droppedSources": [None, None, None]},
    {"kind": "tool_write", "writeTargetTable": "pages", "writeTargetUid": 9},
    {"kind": "llm", "content": "plan: write a note"},
]


@pytest.mark.parametrize("payload", PAYLOADS)
def test_in_english_the_localized_details_are_the_stored_ones(payload: dict) -> None:
    i18n.set_language("en")
    assert localized_step_details(payload) == step_details(payload)


def test_in_german_our_words_are_translated_and_the_servers_text_kept(german: None) -> None:
    assert localized_step_details(CANCELLED_IN_FLIGHT).startswith("hang: ")
    assert "abgebrochen" in localized_step_details(CANCELLED_IN_FLIGHT)
    assert "cancelled" not in localized_step_details(CANCELLED_IN_FLIGHT)
    assert "abgebrochen" in localized_step_details(CANCELLED_BEFORE_SEND)
    assert localized_step_details(PAYLOADS[3]) != localized_step_details(PAYLOADS[4])  # real plural forms
    assert "2" in localized_step_details(PAYLOADS[3])
    assert localized_step_details(PAYLOADS[-1]) == "plan: write a note"  # the model's own words stay
    # The stored (and exported) English never changes with the language.
    assert step_details(CANCELLED_IN_FLIGHT).endswith("whether the remote side acted on it is unknown)")
    for payload in PAYLOADS[:-1]:
        assert localized_step_details(payload) != step_details(payload)
