"""Run from the window: a result that breaks the tool's output schema is a failed operation whose
result says where and why, and the run is stored as failed with that sentence."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from inspector.gui.language import switch_language
from inspector.store import RunStore, resolve_db_path
from tests.support.asgi_server import serve_asgi
from tests.support.output_schema_server import build_app

SHOTS = Path(__file__).parent / "screenshots"  # git-ignored: for looking at, not for comparing
SENTENCE = ("The result of the tool quote on the server Schema server breaks its output schema at "
            "$.items[2].price: -1 is less than the minimum of 0.")


@pytest.fixture
def schema_server() -> Iterator[str]:
    with serve_asgi(build_app("http://127.0.0.1:9/never.json")) as url:
        yield url


def test_a_result_breaking_the_output_schema_fails_in_the_window_and_in_the_stored_run(
        qtbot, make_window, schema_server) -> None:
    window = make_window((schema_server, "Schema server"))
    assert window.workbench.tools.select_tool("quote")
    task = window.workbench.run_current_tool()
    with qtbot.waitSignal(task.finished, timeout=15000):
        pass
    outcome = task.outcome
    assert outcome.status == "failed" and outcome.record.error.kind.value == "output_schema"
    result = window.workbench.result
    assert result.sentence.text().startswith("✗ Failed: output schema violated.")
    assert result.text.toPlainText().splitlines()[:2] == [SENTENCE, "quote answered"]
    assert task.state.reason == "output_schema"  # the bar and the row say "failed: output schema violated"
    with RunStore.open(resolve_db_path()) as store:
        run = store.get_run(outcome.run_id)
        assert run.status == "failed"
        [step] = list(store.iter_steps(run.id))
        assert step.payload["toolOutcome"] == "failed"
        assert step.payload["toolResult"].startswith(SENTENCE)
    SHOTS.mkdir(parents=True, exist_ok=True)
    window.resize(1280, 800)
    window.grab().save(str(SHOTS / "output-schema-en.png"))
    switch_language("de")
    try:
        qtbot.waitUntil(lambda: "Ausgabeschema" in result.text.toPlainText(), timeout=3000)
        window.grab().save(str(SHOTS / "output-schema-de.png"))
    finally:
        switch_language("en")
