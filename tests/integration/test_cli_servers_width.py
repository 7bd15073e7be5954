"""``servers`` at a terminal narrower than its table (COLUMNS=60: the nine columns take some 150): each
server is said as a block of named cells wrapped to the width, its address and command wrapped, never cut;
in English and German (run in this process at a real pseudo-terminal). Piped, and at a wide terminal
in a process of its own, the same table as ever."""

from __future__ import annotations

import pytest

from inspector.cli.terminal_width import display_width
from tests.integration.test_cli_terminal_width import at_terminal, here_at_terminal, piped
from tests.support.cli_process import cli_here

ADDRESS = "https://very-long-host-name.example.internal.company.com/services/mcp/v2/endpoint"
COMMAND = "/usr/local/bin/some-long-mcp-server-binary --root /home/someone/projects/a-long-folder-name --verbose"


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = str(tmp_path_factory.mktemp("servers-width") / "runs.db")
    for words in (("servers", "set", ADDRESS, "--name", "Support tools (staging)"),
                  ("servers", "set", "local-files", "--command", COMMAND),
                  ("servers", "set", "http://127.0.0.1:9/mcp")):
        done = cli_here("--db", path, *words)
        assert done.returncode == 0, done.stderr
    return path


@pytest.mark.parametrize(("language", "words"), [
    ("en", ("Transport: stdio", "Last contact: -", "failed: 0 (tool errors: 0)", "cancelled: 0")),
    ("de", ("Transport: stdio", "Letzter Kontakt: -", "fehlgeschlagen: 0 (Tool-Fehler: 0)", "abgebrochen: 0")),
])
def test_a_narrow_terminal_gets_every_server_in_lines_that_fit(db: str, language: str,
                                                               words: tuple[str, ...]) -> None:
    lines = here_at_terminal(60, "--lang", language, "--db", db, "servers")
    assert all(display_width(line) <= 59 for line in lines), "\n".join(lines)  # was 150 columns wide
    said = " ".join(line.strip() for line in lines)
    for word in words:
        assert word in said, said
    # Wrapped, never cut: the address and the command read whole again with the breaks taken out.
    assert ADDRESS in "".join(line.strip() for line in lines)
    assert COMMAND in said or COMMAND.replace(" ", "") in "".join(line.strip() for line in lines), said
    assert [line for line in lines if not line.startswith(" ")] == [
        "http://127.0.0.1:9/mcp", "Support tools (staging)", "local-files"]
    assert "…" not in said


def test_piped_and_at_a_wide_terminal_the_table_is_as_it_was(db: str) -> None:
    table = piped("--db", db, "servers")
    assert table[0].split() == ["Server", "Transport", "Era", "Last", "contact", "Latency", "ok", "failed",
                                "(tool", "errors)", "cancelled"]
    rows = [line.split("  ")[0] if not line.startswith(" ") else line for line in table[1:]]
    assert rows == ["http://127.0.0.1:9/mcp", "Support tools (staging)", f"    {ADDRESS}", "local-files",
                    f"    {COMMAND}"], table
    assert at_terminal(250, "--db", db, "servers") == table
