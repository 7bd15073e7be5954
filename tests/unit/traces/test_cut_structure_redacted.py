"""A credential in a tool's structured content too large to keep whole: the step keeps its JSON text cut
to 50,000 bytes (``structuredContentText``), and the cut may land inside the credential's value, whose
closing quote is then gone. An export (both formats) must still remove what is left of it: the quoted
value of a secret-named key was removed only when its closing quote followed, so the credential's first
part was written to the file. A real SQLite file and the real export."""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector.runs import MAX_CONTENT_BYTES, RunTrace, ToolResult
from inspector.runs.bounding import cut_note
from inspector.store import RunStore
from inspector.traces.redact import REDACTED, redact_text
from inspector.transfer.exporting import export

SECRET = "s3cr3t-" + "Q7w" * 40  # no known token shape: found by its key's name only


def cut_inside_the_secret() -> dict:
    """Structured content whose kept JSON text ends 40 characters into the secret's value."""
    head = '{"pad":"","api_key":"'
    kept = MAX_CONTENT_BYTES - len(cut_note(10**6, MAX_CONTENT_BYTES).encode()) - len(head) - 40
    return {"pad": "y" * kept, "api_key": SECRET, "rest": "z" * 10**6}


@pytest.mark.parametrize("file_format", ["trace", "otlp"])
def test_a_credential_cut_short_in_structured_content_is_not_exported(tmp_path: Path, file_format: str) -> None:
    step = RunTrace().record_tool_result(0, "echo_headers", {}, ToolResult.text(
        "The tool returned no textual content.", structured_content=cut_inside_the_secret()), 1.0)
    kept = step.to_payload()["structuredContentText"]
    assert SECRET[:40] in kept and SECRET[:41] not in kept  # the cut is inside the value
    store = RunStore.open(tmp_path / "runs.db")
    try:
        run_id = store.start_run("echo headers")
        store.append_step(run_id, step)
        store.finish_run(run_id, "ok")
        export(store, None, None, tmp_path / "t.json", format=file_format)
    finally:
        store.close()
    written = (tmp_path / "t.json").read_text(encoding="utf-8")
    assert SECRET[:12] not in written
    assert REDACTED in written


@pytest.mark.parametrize(("text", "expected"), [
    ('{"password":"hunter2hunter2\n\n[Cut: …]', f'{{"password":"{REDACTED}"\n\n[Cut: …]'),
    ('it said token: "abc123def456', f'it said token: "{REDACTED}"'),
    ('{"api_key":"', '{"api_key":"'),  # nothing of a value left to remove
    ('{"api_key":"abc", "note":"a "quoted" word', f'{{"api_key":"{REDACTED}", "note":"a "quoted" word'),
])
def test_a_quoted_secret_value_cut_at_the_end_of_its_line_is_removed(text: str, expected: str) -> None:
    assert redact_text(text) == expected
