"""Find finds what the reader sees: a step stores our sentences in English ("timed out: …", "no outcome
recorded: …", "the tool reported an error …"), a German reader sees them in German in the Details column
and the Result tab, and Find finds them by either wording; the Details column's note on a cancelled
call, which is not stored, too. On the real traces of the mcp SDK and Traceloop's instrumentation."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from inspector.i18n import set_language
from inspector.i18n.details import localized_step_details
from inspector.store import RunStore
from inspector.store.browse import find_in_timeline, find_step_ids, timeline_page
from inspector.transfer.importing import import_trace
from tests.support.sample_runs import mixed_run

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "otel"


@pytest.fixture
def store(tmp_path: Path) -> Iterator[RunStore]:
    opened = RunStore.open(tmp_path / "runs.db")
    yield opened
    opened.close()


def agent_run(store: RunStore, fixture: str) -> int:
    report = import_trace(store, FIXTURES / fixture)
    (run_id,) = [run_id for run_id in report.run_ids if store.get_run(run_id).title == "invoke_agent support-agent"]
    return run_id


def shown(store: RunStore, run_id: int, needle: str) -> list[str]:
    """The Details column, in the current language, of the rows Find finds."""
    page = timeline_page(store, run_id, 0, 1000)
    return [localized_step_details(page[row].detail_fields) for row in find_in_timeline(store, run_id, needle)]


@pytest.mark.parametrize("fixture", ["traceloop.jsonl", "mcp_sdk.jsonl"])
def test_german_words_find_the_steps_that_say_them(store: RunStore, german, fixture: str) -> None:
    run_id = agent_run(store, fixture)
    # The time-out: its exception says it in its own words (stored once, as they are), the Outcome column in ours.
    timed_out = shown(store, run_id, "Zeitüberschreitung")
    assert len(timed_out) == 1 and timed_out[0].startswith(("slow: TimeoutError", "slow: mcp.shared.exceptions."))
    nothing = shown(store, run_id, "kein Ergebnis")
    assert len(nothing) == 1 and nothing[0].startswith("slow: kein Ergebnis erfasst: ")
    # In any case, a phrase that runs from our words into the stored value, and the Result tab's lines.
    assert shown(store, run_id, "DAS TOOL MELDETE EINEN FEHLER (error.type tool_error)") == [
        "fail: das Tool meldete einen Fehler (error.type tool_error)"]
    assert shown(store, run_id, "KEIN ERGEBNIS ERFASST: ") == nothing
    # The stored English is still found, and a word in neither language finds nothing.
    assert shown(store, run_id, timed_out[0].removeprefix("slow: ")) == timed_out
    assert shown(store, run_id, "the tool reported an error") == [
        "fail: das Tool meldete einen Fehler (error.type tool_error)"]
    assert shown(store, run_id, "Zeitüberschreitungen") == []
    assert find_step_ids(store, run_id, "Zeitüberschreitung") == [
        timeline_page(store, run_id, 0, 1000)[row].id for row in find_in_timeline(store, run_id, "Zeitüberschreitung")]


@pytest.mark.parametrize("fixture", ["traceloop.jsonl", "mcp_sdk.jsonl"])
def test_english_finds_the_english_words_and_not_the_german_ones(store: RunStore, fixture: str) -> None:
    run_id = agent_run(store, fixture)
    timed_out = shown(store, run_id, "timed out")
    assert len(timed_out) == 1 and timed_out[0].startswith(("slow: TimeoutError", "slow: mcp.shared.exceptions."))
    assert len(shown(store, run_id, "No Outcome Recorded")) == 1
    assert shown(store, run_id, "the tool reported an error") == [
        "fail: the tool reported an error (error.type tool_error)"]
    assert shown(store, run_id, "Zeitüberschreitung") == []
    assert shown(store, run_id, "kein Ergebnis") == []


def test_the_note_on_a_cancelled_call_is_found_as_the_details_column_says_it(store: RunStore, german) -> None:
    run_id = mixed_run(store)
    assert [text.split(":")[0] for text in shown(store, run_id, "unterwegs abgebrochen")] == ["hang"]
    assert shown(store, run_id, "bevor die Anfrage gesendet") == []  # this one was sent
    set_language("en")
    assert [text.split(":")[0] for text in shown(store, run_id, "Cancelled in flight")] == ["hang"]
    assert shown(store, run_id, "unterwegs abgebrochen") == []


def test_german_words_stay_fast_in_ten_thousand_failed_spans(store: RunStore, german, tmp_path: Path) -> None:
    """Every step keeps a sentence of ours (each span failed): a needle a translation holds is looked for
    in each step's sentences as said; one no translation holds costs what Find cost before."""
    import json
    import time

    from tests.unit.store.test_find_in_spans import _big_trace

    path = _big_trace(tmp_path / "big.otlp.json", 10_000)
    document = json.loads(path.read_text(encoding="utf-8"))
    for span in document["resourceSpans"][0]["scopeSpans"][0]["spans"]:
        span["status"] = {"code": 2, "message": "deadline exceeded"}
        span["attributes"].append({"key": "error.type", "value": {"stringValue": "tool_error"}})
    path.write_text(json.dumps(document), encoding="utf-8")
    (run_id,) = import_trace(store, path).run_ids
    timings = {}
    # The Outcome column's words too: each step "fehlgeschlagen"; none "nicht erfasst", none disagreeing.
    for needle, found in (("meldete einen Fehler", 10_000), ("T-004242", 1), ("nothing like this", 0),
                          ("fehlgeschlagen", 10_000), ("nicht erfasst", 0), ("widersprechen", 0)):
        started = time.thread_time()
        assert len(find_in_timeline(store, run_id, needle)) == found, needle
        timings[needle] = time.thread_time() - started
    set_language("en")
    for needle, found in (("FAILED", 10_000), ("timed out", 0), ("not recorded", 0), ("disagree", 0)):
        started = time.thread_time()
        assert len(find_in_timeline(store, run_id, needle)) == found, needle
        timings[needle] = time.thread_time() - started
    # Measured on the busy 2-core shared machine: 0.3 s for the German words (each step's sentences said
    # in Python; 0.6 s for "nicht erfasst"), 0.05 to 0.08 s for the others (as in English; "timed out"
    # reads the legs of each failed step). The bound is generous; the thread's CPU seconds are timed (at a load
    # of 8 the wall clock took 3.3 s for them: the full run failed).
    assert max(timings.values()) < 3.0, timings
