"""`runs list --json`'s `reason` of the shapes the fixtures' traces do not make: a run whose model still answered,
and an ok run whose only said calls were cancelled (its reason counts them apart, none failed nor unrecorded)."""

from __future__ import annotations

from inspector.cli.reason_json import reason_dict
from inspector.i18n import current_language, set_language
from inspector.store.recovery import UNRECORDED, Recovery


def test_a_run_whose_model_answered_and_an_ok_run_with_cancelled_calls() -> None:
    language = current_language()
    set_language("de")  # the words stay English
    try:
        answered = reason_dict(Recovery(1, 4))
        cancelled = reason_dict(Recovery(0, 3, answered=False, kind=UNRECORDED, cancelled=1))
    finally:
        set_language(language)
    assert answered == {"failed": 1, "calls": 4, "cancelled": 0, "unrecorded": 0, "failed_as": None,
                        "model_answered": True, "text": "1 of 4 tool calls failed; the model still gave its answer"}
    assert cancelled == {"failed": 0, "calls": 3, "cancelled": 1, "unrecorded": 0, "failed_as": None,
                         "model_answered": False, "text": "1 of 3 tool calls cancelled"}
    assert reason_dict(None) is None
