"""Find in a German window on a run imported from a trace: our stored sentences (the importer's notes,
the line on how a joined call's two sides disagree) are said in German once, with the steps' other shown
words, not by SQLite for each step at each Find (0.1 ms a step: a German Find in a run of 10,001 joined
steps took 0.9-1.6 s, an English one 0.2-0.5 s). The German sentences are still found."""

from __future__ import annotations

from pathlib import Path

import inspector.gui.runs.shown_words as shown_words
import inspector.i18n.find_said as find_said
from inspector.gui.language import switch_language
from inspector.gui.runs.timeline_model import TimelineModel
from inspector.store import RunStore
from inspector.transfer.importing import import_trace
from tests.support.one_root_trace import write_one_root_trace

#: Four joined tool calls a copy: 201 steps.
COPIES = 50
FINDS = ("nichts dergleichen", "Zeitüberschreitung", "Der Client gab nach", "abgebrochen")


def test_a_german_find_says_each_steps_sentences_once_not_at_each_find(qtbot, tmp_path: Path, monkeypatch) -> None:
    store = RunStore.open(tmp_path / "runs.db")
    (run_id,) = import_trace(store, write_one_root_trace(tmp_path / "calls.jsonl", COPIES)).run_ids
    run = store.get_run(run_id)
    (kept,) = store.db.conn.execute("SELECT COUNT(*) FROM steps WHERE run_id = ? AND instr(payload, '\"template\"')"
                                    " > 0", (run_id,)).fetchone()
    assert kept >= 2 * COPIES  # steps whose stored sentences are said in the reader's words
    said: list[int] = []
    real = find_said.sentences_said

    def counted(parts):
        said.append(1)
        return real(parts)

    # Every saying of a step's sentences counted, by the shown words and by Find in SQL.
    monkeypatch.setattr(find_said, "sentences_said", counted)
    monkeypatch.setattr(shown_words, "sentences_said", counted)
    model = TimelineModel(store)
    model.set_run(run)
    switch_language("de")
    try:
        model.find("warm")
        qtbot.waitUntil(lambda: model.shown_words.complete, timeout=60_000)
        found = {needle: len(model.find(needle)) for needle in FINDS for _ in range(3)}
        # Said once a step (by the shown words), not again at each Find (before: 1,500 times for 150 steps).
        assert len(said) <= kept, (len(said), kept)
        # The German sentences are found: the band on the sides' disagreement, the time-outs.
        assert found["Der Client gab nach"] >= COPIES and found["Zeitüberschreitung"] >= COPIES, found
        assert found["nichts dergleichen"] == 0
    finally:
        switch_language("en")
        store.close()
