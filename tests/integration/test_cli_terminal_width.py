"""``runs show`` and ``runs list`` at a terminal use its width (COLUMNS, as shutil reads it); piped, the
same bytes as ever. Run through a real pseudo-terminal: only there is standard output a terminal. The
first test starts the command as a process of its own at one; the others, which try many widths, run
it in this process with its standard output on one (``here_at_terminal``: the same lines, measured),
and piped is the command in this process too (``cli_here``, whose output is a pipe's)."""

from __future__ import annotations

import json
import os
import pty
import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from inspector.cli.terminal_width import display_width
from inspector.i18n.run_cells import cut_reasons
from tests.support.cli_process import cli_here
from tests.support.pty_reading import read_until_closed

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "otel"
#: The end of a sentence the importer writes of a client that stopped waiting (fastmcp.jsonl, step 6).
SENTENCE_END = "(a cancel, or a client that gave up: the trace does not say which)"
GERMAN_END = "(ein Abbruch oder ein Client, der aufgab: der Trace sagt nicht, was davon zutrifft)"
#: The head of that sentence, what step 6's row says where the sentence is said whole under it.
HEAD = {"en": "slow: no outcome recorded", "de": "slow: kein Ergebnis erfasst"}


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = str(tmp_path_factory.mktemp("width") / "runs.db")
    for fixture in ("fastmcp", "logfire"):
        done = cli_here("--db", path, "import", str(FIXTURES / f"{fixture}.jsonl"))
        assert done.returncode == 0, done.stderr
    return path


def at_terminal(columns: int, *args: str) -> list[str]:
    """``run-inspector ARGS`` with its standard output on a pseudo-terminal, COLUMNS=``columns``: its lines."""
    main, secondary = pty.openpty()
    try:
        process = subprocess.Popen([sys.executable, "-m", "inspector", *args], stdout=secondary,
                                   stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, cwd=ROOT,
                                   env={**os.environ, "COLUMNS": str(columns), "PYTHONIOENCODING": "utf-8"})
        os.close(secondary)
        seen = read_until_closed(main, 30)
        _, stderr = process.communicate(timeout=30)
    finally:
        os.close(main)
    assert process.returncode == 0, stderr
    return seen.decode().replace("\r\n", "\n").splitlines()


def here_at_terminal(columns: int, *args: str) -> list[str]:
    """As :func:`at_terminal`, the command run in this process (``cli_here``): its standard output the
    same kind of pseudo-terminal, without a process's start (0.5 s each)."""
    main, secondary = pty.openpty()
    seen: list[bytes] = []
    reader = threading.Thread(target=lambda: seen.append(read_until_closed(main, 30)))
    reader.start()
    try:
        with open(secondary, "w", encoding="utf-8") as terminal:
            done = cli_here(*args, env={"COLUMNS": str(columns), "PYTHONIOENCODING": "utf-8"}, stdout=terminal)
        reader.join(30)
    finally:
        os.close(main)
    assert done.returncode == 0, done.stderr
    return seen[0].decode().replace("\r\n", "\n").splitlines()


def piped(*args: str) -> list[str]:
    """``run-inspector ARGS`` with its standard output a pipe (``cli_here``: what it says, not its process),
    COLUMNS=250: its lines."""
    done = cli_here(*args, env={"COLUMNS": "250", "PYTHONIOENCODING": "utf-8"})
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def step_line(lines: list[str], number: int) -> str:
    """The row of step ``number`` (its number first)."""
    return next(line for line in lines if line.split()[:1] == [str(number)])


@pytest.mark.parametrize(("language", "columns", "end"), [("en", 300, SENTENCE_END), ("de", 360, GERMAN_END)])
def test_runs_show_at_a_wide_terminal_says_the_details_whole(db: str, language: str, columns: int,
                                                             end: str) -> None:
    wide = at_terminal(columns, "--lang", language, "--db", db, "runs", "show", "1")
    line = step_line(wide, 6)
    assert line.endswith(end), line
    assert all(display_width(each) < columns for each in wide)
    # Piped, the same run keeps the details cut where they always were (120 characters), whatever COLUMNS says.
    # Piped, the same run keeps the details to their 120 characters, whatever COLUMNS says: too few for the
    # note, whose head the row says, the note whole on the line under it.
    piped_lines = piped("--lang", language, "--db", db, "runs", "show", "1")
    cut = step_line(piped_lines, 6)
    assert not cut.endswith(end) and cut.endswith(HEAD[language])
    assert line.startswith(cut)
    assert piped_lines[piped_lines.index(cut) + 1].endswith(end)


def test_runs_show_cuts_the_details_to_a_terminal_narrower_than_the_whole(db: str, tmp_path: Path) -> None:
    cancelled = str(tmp_path / "cancelled.db")  # step 10: a request cancelled by a cancel scope, 228 columns whole
    assert cli_here("--db", cancelled, "import", str(FIXTURES / "logfire_mcp2.jsonl")).returncode == 0
    line = step_line(here_at_terminal(225, "--db", cancelled, "runs", "show", "1"), 10)
    assert display_width(line) == 224 and line.endswith("…"), line  # a column spare: no full line to wrap
    # A call's outcome note too long for the row is said whole on the line under it: the row says its head.
    lines = here_at_terminal(240, "--db", db, "runs", "show", "1")
    line = step_line(lines, 6)
    assert line.endswith("slow: no outcome recorded") and lines[lines.index(line) + 1].endswith(SENTENCE_END)
    # A terminal that leaves the details no more than their 120 characters changes nothing.
    for columns in (200, 80):
        assert here_at_terminal(columns, "--lang", "de", "--db", db, "runs", "show", "1") == \
            piped("--lang", "de", "--db", db, "runs", "show", "1")


def test_runs_list_fits_an_80_column_terminal_cutting_titles_then_reasons(db: str) -> None:
    for language, word in (("en", "failed ("), ("de", "fehlgeschlagen (")):
        rows = here_at_terminal(80, "--lang", language, "--db", db, "runs", "list")
        assert all(display_width(row) <= 79 for row in rows), rows
        assert any(row.endswith("invoke_agen…") for row in rows), rows  # the title gives way first
        failed = [row for row in rows if word in row]
        assert failed and all("…" in row.split(word, 1)[1].split("  ")[0] for row in failed), failed
        # Wide enough, nothing is cut; piped, the rows are as wide as ever (German's 139 columns: the
        # reason says the call with no outcome recorded too).
        assert not any("…" in row for row in here_at_terminal(200, "--lang", language, "--db", db, "runs", "list"))
        # 80 columns are too few for Server, Steps and Duration too: those are left out there; 200 show them.
        assert " Server " not in rows[0] and " Server " in here_at_terminal(200, "--lang", language, "--db", db,
                                                                             "runs", "list")[0]
    assert max(map(len, piped("--lang", "de", "--db", db, "runs", "list"))) == 176


def test_runs_list_cuts_the_server_before_leaving_it_out(db: str) -> None:
    """At a terminal with room for the Server, Steps and Duration columns once the title is cut, a long
    server's address is cut with "…" (to 16 columns at least) rather than the columns left out."""
    rows = here_at_terminal(120, "--lang", "en", "--db", db, "runs", "list")
    assert all(display_width(row) <= 119 for row in rows), rows
    assert " Server " in rows[0] and any("  weather-mcp-ser…  " in row for row in rows), rows


@pytest.mark.parametrize("service", ["天気エージェント", "東京の天気を調べるエージェントです東京の"],
                         ids=["wide", "wider-than-the-column"])
def test_runs_show_aligns_a_service_named_in_wide_characters(tmp_path: Path, service: str) -> None:
    trace = tmp_path / "wide.jsonl"
    trace.write_text((FIXTURES / "logfire.jsonl").read_text(encoding="utf-8").replace(
        '"support-agent"', json.dumps(service, ensure_ascii=False)), encoding="utf-8")
    path = str(tmp_path / "wide.db")
    assert cli_here("--db", path, "import", str(trace)).returncode == 0
    for language in ("en", "de"):
        lines = piped("--lang", language, "--db", path, "runs", "show", "1")
        heading = next(line for line in lines if line.startswith("#"))
        kind = display_width(heading[:heading.index(" Kind " if language == "en" else " Art ")]) + 1
        rows = [line for line in lines if line.split()[:1] and line.split()[0].isdigit()]
        assert len(rows) == 7 and all(service[:4] in row for row in rows)
        for row in rows:  # the Kind column starts where its heading does, on the terminal's columns
            cut = next(index for index in range(len(row)) if display_width(row[:index]) >= kind)
            assert display_width(row[:cut]) == kind and row[cut - 2:cut] == "  " and row[cut] != " ", row


def _statuses(rows: list[str], source: str) -> dict[str, str]:
    """Each run's Status cell by its id, as the heading's columns place it (``source``: the next column's heading)."""
    heading = rows[0]
    begin, end = heading.index(" Status ") + 1, heading.index(f" {source} ") + 1
    return {row.split()[0]: row[begin:end].strip() for row in rows[1:] if row.split() and row.split()[0].isdigit()}


def test_runs_list_cuts_a_reason_after_whole_words_as_the_window_does(tmp_path: Path) -> None:
    """A status's reason cut for a narrow terminal keeps two whole words at least and ends with one ("failed (2 of 4
    tool…", not "failed (2 of 4 tool cal…"), as the window's Runs list cuts it (the same function); else the
    status word alone. German's "fehlgeschlagen (der Tool-…" was cut in the compound "Tool-Aufruf", saying nothing
    the status word does not; "fehlgeschlagen (2 von 4 Tool-…" keeps the counts. Piped, the whole reason."""
    path = str(tmp_path / "words.db")
    for fixture in ("mcp_sdk", "traceloop", "google_adk"):
        assert cli_here("--db", path, "import", str(FIXTURES / f"{fixture}.jsonl")).returncode == 0
    for language, source, whole in (("en", "Source", "failed (2 of 4 tool calls failed, 1 not recorded)"),
                                    ("de", "Quelle", "fehlgeschlagen (der Tool-Aufruf schlug fehl)")):
        wholes = _statuses(piped("--lang", language, "--db", path, "runs", "list"), source)
        assert whole in wholes.values()
        cuts = set()
        for columns in range(64, 112, 2):
            rows = here_at_terminal(columns, "--lang", language, "--db", path, "runs", "list")
            assert columns < 72 or all(display_width(row) < columns for row in rows), rows  # narrower: rows wrap
            for run, said in _statuses(rows, source).items():
                word = wholes[run].split(" (")[0]
                # A run whose failed calls all timed out says so alone before a cut that no longer names it.
                shorts = {f"{word}: {kind}" for kind in ("timed out", "Zeitüberschreitung")}
                assert said in {wholes[run], *cut_reasons(wholes[run], word), f"{word}…", *shorts}, (columns, said)
                cuts.add(said)
        said_of_whole = {cut for cut in cuts if cut.startswith(whole.split(" (")[0]) and cut != whole}
        assert len(said_of_whole) >= 3, cuts


#: A stranger's trace names its runs' servers (the service that recorded each) and titles (its root span's name) as
#: it likes: wide characters, combining marks, zero-width and bidirectional characters, tabs, line breaks, escapes.
HOSTILE_CELLS = [("漢字サーバー名前", "日本語のタイトル"), ("a\u0301\u0301\u0301bc", "e\u0301\u0301x"),
                 ("zero\u200b\u200bwidth", "t\u200dx"), ("bidi\u202eevil\u202c", "ti\u2067tle\u2069"),
                 ("tab\there\tx", "tab\ttitle"), ("new\nline\r\nsrv", "line\nFAKE: ok"),
                 ("esc\x1b[31mred\x1b[0m", "bell\x07\x9b31m"), ("soft\u00adhyphen", "x\u00ady"), ("plain", "plain")]
#: What no row may hold: a control character (a tab among them) or a bidirectional control.
CONTROL = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]")


@pytest.mark.parametrize("columns", [None, 110, 200], ids=["piped", "terminal-110", "terminal-200"])
def test_runs_list_keeps_a_strangers_servers_and_titles_in_their_columns(tmp_path: Path, columns: int | None) -> None:
    """Every row's Steps and Duration cells end where their heading does, and no control character but the line's
    end reaches the terminal (a tab would jump to the next tab stop, out of the padded column)."""
    lines = []
    for number, (service, title) in enumerate(HOSTILE_CELLS, start=1):
        start = 1_700_000_000_000_000_000 + number * 10**9
        resource = {"attributes": [{"key": "service.name", "value": {"stringValue": service}}]}
        root = {"traceId": f"{number:032x}", "spanId": f"{number:016x}", "name": title, "kind": 1,
                "startTimeUnixNano": str(start), "endTimeUnixNano": str(start + 123_456_789), "status": {"code": 0}}
        lines.append(json.dumps({"resourceSpans": [{"resource": resource, "scopeSpans": [{"spans": [root]}]}]}))
    (tmp_path / "stranger.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    path = str(tmp_path / "cells.db")
    assert cli_here("--db", path, "import", str(tmp_path / "stranger.jsonl")).returncode == 0
    listing = ("--lang", "en", "--db", path, "runs", "list")
    heading, *rows = piped(*listing) if columns is None else here_at_terminal(columns, *listing)
    assert len(rows) == len(HOSTILE_CELLS)  # no row forged by a line break
    assert not [row for row in [heading, *rows] if CONTROL.search(row)]
    assert "Duration" in heading and all(" s  " in row for row in rows), rows
    ends = {display_width(row[:row.index(" s  ") + 2]) for row in rows}
    assert ends == {display_width(heading[:heading.index("Duration") + len("Duration")])}, rows


def test_runs_list_says_a_timed_out_runs_kind_before_a_cut_that_no_longer_names_it(tmp_path: Path) -> None:
    """A run whose failed call timed out says "failed: timed out" where its whole reason does not fit, as the
    window's narrow Status cell says "timed out" beside the failed icon (the same function, ``fitted_status``,
    with ``short_reason``): a cut is shown only while it still names the kind ("failed (the tool call…" said
    nothing of it). Run against a real server on 127.0.0.1 that never answers the call."""
    from tests.integration.test_cli_outcome_words import stall_the_call
    from tests.support.fault_server import FaultServer

    path = str(tmp_path / "slow.db")
    with FaultServer("session", work=stall_the_call) as server:
        assert cli_here("--db", path, "call", server.url, "slow", "--budget", "1").returncode == 1
    for language, source, kind, short in (("en", "Source", "timed out", "failed: timed out"),
                                          ("de", "Quelle", "Zeitüberschreitung", "fehlgeschlagen: Zeitüberschreitung")):
        [whole] = _statuses(piped("--lang", language, "--db", path, "runs", "list"), source).values()
        word = whole.split(" (")[0]
        assert kind in whole and short not in whole
        said = set()
        for columns in (*range(56, display_width(whole) + 72, 2), 250):
            rows = here_at_terminal(columns, "--lang", language, "--db", path, "runs", "list")
            [cell] = _statuses(rows, source).values()
            naming = [cut for cut in cut_reasons(whole, word) if kind in cut]
            assert cell in {whole, *naming, short, f"{word}…"}, (columns, cell)
            said.add(cell)
        assert short in said and whole in said, said
