"""Find's first search in a long run of joined client and server spans (0.13-0.25 ms a step to say in
words, against the 0.05 ms the rows said at once were counted for) says at once what a moment holds and
the rest between the window's events, in pages that each take a moment: a run of 10,001 such steps held
the first Find 0.5-1.0 s, and each later page of 1,000 steps 0.25-0.5 s."""

from __future__ import annotations

from pathlib import Path

from inspector.gui.runs.shown_words import AT_ONCE_ROWS, PAGE_ROWS
from inspector.gui.runs.timeline_model import TimelineModel
from inspector.store import RunStore
from inspector.transfer.importing import import_trace
from tests.support.one_root_trace import write_one_root_trace

#: Four tool calls a copy: 3,000 calls under the agent's span, fewer steps than AT_ONCE_ROWS.
COPIES = 750


def test_the_first_find_in_a_long_run_of_joined_spans_says_its_words_a_moment_at_a_time(qtbot, tmp_path: Path) -> None:
    store = RunStore.open(tmp_path / "runs.db")
    (run_id,) = import_trace(store, write_one_root_trace(tmp_path / "calls.jsonl", COPIES)).run_ids
    run = store.get_run(run_id)
    steps = run.step_count
    assert steps == 4 * COPIES + 1 <= AT_ONCE_ROWS  # the calls and the agent's span
    model = TimelineModel(store)
    model.set_run(run)
    words = model.shown_words
    pages: list[int] = []
    said = words._say_page

    def counted(background: bool) -> None:
        before = words._said_rows
        said(background)
        pages.append(words._said_rows - before)

    words._say_page = counted
    assert model.find("nothing like this") == []
    # Before, every step of a run this short was said at once (0.4-0.75 s here): now a moment's worth.
    assert not words.complete and words._said_rows < steps
    qtbot.waitUntil(lambda: words.complete, timeout=60_000)
    assert max(pages) <= PAGE_ROWS and sum(pages) >= steps
    # Every step's words are said: the heading of the last call (words the store does not keep) is found.
    assert len(model.find(f"Step {4 * COPIES}: tool")) == 1
    store.close()
