"""A demo goes from the Play tab to the Runs tab ("Show in Runs") and to `runs show`: the run's number
and each step's kind are said with the same words in all three (and in the status line). The Play tab
and the status line said "Run #4", the Runs tab and `runs show` "Run 4"; the Play tab headed the
column of kinds "Step" and called the catalogue's walk "catalogue", where the Runs tab and `runs show`
say "Kind" and "request" (German: "Schritt"/"Katalog" against "Art"/"Anfrage"; its state column read
"Stand"). And the scripted model speaks to a German audience as the window does, with "Sie" (it said
"Zuerst begrüße ich dich." under "Das Fenster fragt Sie")."""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import Qt

from inspector.gui.language import switch_language
from inspector.gui.play.steps_model import COLUMNS as PLAY_COLUMNS
from inspector.gui.runs.timeline_model import COLUMNS as STEP_COLUMNS
from tests.gui.test_play_audience import played_in, shown_in_runs
from tests.gui.test_same_words import cli

PLAY_KIND, RUNS_KIND = PLAY_COLUMNS.index("maker"), STEP_COLUMNS.index("kind")
HEADING = {"en": "Kind", "de": "Art"}
RUN = {"en": "Run {id}: ", "de": "Lauf {id}: "}
LAST = {"en": " · last run {id}: ", "de": " · letzter Lauf {id}: "}
KINDS = {"en": ["request", "model", "tool", "model"], "de": ["Anfrage", "Modell", "Tool", "Modell"]}


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_play_tab_says_the_run_and_its_kinds_as_the_runs_tab_and_runs_show_do(qtbot, make_window, language) -> None:
    # long-catalogue: the catalogue's walk, a model's step, a tool call
    with played_in(qtbot, make_window, "long-catalogue", language, (1280, 800)) as (window, room, run):
        assert run.status == "ok", run.error
        horizontal = Qt.Orientation.Horizontal
        assert room.model.headerData(PLAY_KIND, horizontal) == HEADING[language]
        # Its running or ended state ("läuft · noch 1,0 s", "ok · 0,02 s"): "Zustand", not "Stand".
        assert room.model.headerData(PLAY_COLUMNS.index("state"), horizontal) == {"en": "State",
                                                                                   "de": "Zustand"}[language]
        played = [room.model.index(row, PLAY_KIND).data() for row in range(room.model.rowCount())]
        assert played == KINDS[language]
        number = RUN[language].format(id=run.run_id)
        assert room.status.text().startswith(number), room.status.text()
        assert LAST[language].format(id=run.run_id) in window.status.text(), window.status.text()
        tab = shown_in_runs(qtbot, window, run)
        assert tab.timeline.headerData(RUNS_KIND, horizontal) == HEADING[language]
        assert [tab.timeline.index(row, RUNS_KIND).data() for row in range(len(played))] == played
        assert tab.run_heading.text().startswith(number), tab.run_heading.text()
        shown = cli(language, "runs", "show", str(run.run_id))
        assert shown[0].startswith(number), shown[0]
        heading = next(line for line in shown if line.startswith("#"))
        columns = re.compile(r"\s{2,}")  # "MCP client" is one column's words
        assert columns.split(heading)[3] == HEADING[language]
        assert [columns.split(line)[3] for line in shown if re.match(r"\d+ ", line)] == played


def test_the_scripted_model_speaks_to_a_german_audience_with_sie() -> None:
    from inspector.agent.scenario import shipped_scenarios
    from inspector.i18n import _

    switch_language("de")
    try:
        said = [text for scenario in shipped_scenarios().values()
                for text in (*(round_.say for round_ in scenario.played(_).rounds), scenario.played(_).final)]
        assert "Zuerst begrüße ich Sie." in said and "Ich rufe echo auf." in said  # it said "Echo läuft."
        assert not [text for text in said if re.search(r"\b(du|dich|dir|dein\w*)\b", text, re.IGNORECASE)], said
    finally:
        switch_language("en")
