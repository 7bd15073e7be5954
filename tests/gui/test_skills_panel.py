"""The Skills tab of the Workbench (SEP-2640): against the real demo server, List lists the skills
(no file read), choosing one shows its frontmatter and files, Load reads and verifies them and shows
SKILL.md as plain text; against a server whose SKILL.md does not match its listing, Load fails in
words and shows nothing of it. Screenshots in English and German."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QStyle, QTableWidget

from inspector.gui.main_window import DEFAULT_SIZE
from tests.gui.test_main_window import finished
from tests.support.skills_server import FORMS, SKILL, SkillsServer

SHOTS = Path(__file__).parent / "screenshots"


def _shot(qtbot, window, name: str) -> None:
    """The window in English and German, saved as ``NAME-en.png`` and ``NAME-de.png``."""
    SHOTS.mkdir(exist_ok=True)
    for language in ("en", "de"):
        window.settings.language = language
        assert window.apply_language() == language
        qtbot.wait(50)
        assert window.grab().save(str(SHOTS / f"{name}-{language}.png"))
    window.settings.language = "en"
    window.apply_language()


def test_skills_are_listed_shown_and_loaded_from_the_demo_server(qtbot, make_window, demo_server) -> None:
    window = make_window((demo_server.url, "Demo server"))
    room = window.workbench
    room.browse.setCurrentWidget(room.skills)
    panel = room.skills
    assert not room.call_box.isVisibleTo(window) and not panel.load_button.isEnabled()
    listing = panel.list_skills()
    assert finished(qtbot, listing).status == "ok" and listing.title == "skills/list"
    room.detail.show_task(listing)
    assert "The server says this stays fresh for 5 min (public)." in room.result.text.toPlainText()
    qtbot.waitUntil(lambda: panel.items.count() == 2, timeout=10000)
    assert panel.items.item(0).text().startswith("demo-tour — Tour Run Inspector's demo server")
    panel.items.setCurrentRow(0)
    fields = [(panel.frontmatter.item(row, 0).text(), panel.frontmatter.item(row, 1).text())
              for row in range(panel.frontmatter.rowCount())]
    assert fields[:3] == [("name", "demo-tour"), ("description", fields[1][1]), ("license", "MIT")]
    assert [panel.files.item(row, 0).text() for row in range(panel.files.rowCount())] == [
        "SKILL.md", "references/TOOLS.md"]
    assert panel.files.item(0, 3).text().startswith("sha256:") and panel.files.item(0, 2).text() == "not read"
    task = panel.load()
    assert finished(qtbot, task).status == "ok" and task.title == "skills/load skill://demo-tour/SKILL.md"
    qtbot.waitUntil(lambda: panel.skill_md.toPlainText().startswith("---\nname: demo-tour"), timeout=5000)
    assert [panel.files.item(row, 2).text() for row in range(2)] == ["✓ verified", "✓ verified"]
    assert panel.state.text().replace("\u200b", "").startswith("Loaded: every file has the size and SHA-256 digest")
    assert task.outcome.run_id is not None
    room.detail.show_task(task)
    assert "The skill demo-tour was loaded: 2 files read and verified." in room.result.text.toPlainText()
    _shot(qtbot, window, "workbench-skills")
    assert room.browse.tabText(room.browse.indexOf(panel)) == "Skills"
    assert window.size() == DEFAULT_SIZE
    for language in ("en", "de"):  # every heading of the files table whole (the digest's was "A-256-Prüfsumr")
        window.settings.language = language
        window.apply_language()
        qtbot.wait(50)
        assert cut_headings(panel.files) == [], language
    window.settings.language = "en"
    window.apply_language()


def cut_headings(table: QTableWidget) -> list[str]:
    """The headings of ``table`` narrower than their words (and the header's margins)."""
    header = table.horizontalHeader()
    margin = header.style().pixelMetric(QStyle.PixelMetric.PM_HeaderMargin, None, header)
    headings = [table.horizontalHeaderItem(column).text() for column in range(table.columnCount())]
    return [text for column, text in enumerate(headings)
            if header.sectionSize(column) < header.fontMetrics().horizontalAdvance(text) + 2 * margin]


def test_a_skill_that_fails_verification_is_said_in_words_and_not_shown(qtbot, make_window) -> None:
    with SkillsServer("digest") as server:
        window = make_window((server.url, "tampering"), era="handshake", wait_tools=False)
        room = window.workbench
        room.browse.setCurrentWidget(room.skills)
        panel = room.skills
        assert finished(qtbot, panel.list_skills()).status == "ok"
        qtbot.waitUntil(lambda: panel.items.count() == 1, timeout=10000)
        assert server.reads == []  # listing reads no file
        panel.items.setCurrentRow(0)
        task = panel.load()
        assert finished(qtbot, task).status == "failed"
        qtbot.waitUntil(lambda: "failed" in panel.state.text(), timeout=5000)
        assert server.reads == [SKILL] and FORMS not in server.reads
        said = panel.state.text().replace("\u200b", "")
        assert said.startswith("✗ failed: verification failed: The skill from the server")
        assert "SKILL.md: its SHA-256 digest is sha256:" in said
        assert panel.skill_md.toPlainText() == "" and "Evil" not in said
        assert [panel.files.item(row, 2).text() for row in range(2)] == ["✗ does not match", "not read"]
        room.detail.show_task(task)
        assert "Evil body" not in room.result.text.toPlainText()
        _shot(qtbot, window, "workbench-skills-failed")
