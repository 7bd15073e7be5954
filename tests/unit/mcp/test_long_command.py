"""A command line longer than any typed (a stranger's file's server key) is named by its first words, their credentials
hidden, and a hash of the whole: in a moment, never shown whole, the name kept as it is when read again."""

from __future__ import annotations

import time

import pytest

from inspector.mcp.address_query import address_to_keep
from inspector.mcp.command_line import shown_command_line, shown_typed_command_line, without_credentials
from inspector.mcp.long_command import LONGEST
from inspector.mcp.server_command import MAX_COMMAND_CHARS

SECRET = "s3cr3tTokenValue"


def _long(head: str, size: int = 1_000_000, end: str = "'") -> str:
    return head + "a " * (size // 2) + end


@pytest.mark.parametrize("head", [
    f"sh -c 'srv --token {SECRET} ",
    f"sh -c 'API_KEY={SECRET} exec srv ",
    f"srv --header \"Authorization: Bearer {SECRET}\" ",
    f"sh -c 'srv --header \"Authorization: Bearer {SECRET}\" \"unclosed ",  # cut inside a quote in the script
    f"srv --api-key={SECRET} ",
    f"curl -u bob:{SECRET} ",
    f"srv ghp_{SECRET}{SECRET} ",
])
def test_a_megabyte_command_line_is_named_in_a_moment_by_its_first_words_hidden(head: str) -> None:
    started = time.thread_time()
    kept = address_to_keep("stdio:" + _long(head))
    assert time.thread_time() - started < 3.0  # about 30 s before
    assert SECRET not in kept and len(kept) < 4_000
    assert kept.startswith("stdio:") and kept.split(" ")[-2] == "…" and kept.split(" ")[-1].startswith("sha256:")
    assert address_to_keep(kept) == kept  # read again (a run's export imported), the same server


def test_two_long_commands_are_two_servers_unless_they_differ_only_in_a_credential() -> None:
    first = without_credentials(_long(f"sh -c 'srv --token {SECRET} ", end="b'"))
    assert first != without_credentials(_long(f"sh -c 'srv --token {SECRET} ", end="c'"))  # at its far end only
    assert first == without_credentials(_long("sh -c 'srv --token other ", end="b'"))


def test_the_rest_of_a_long_command_line_is_never_shown() -> None:
    text = _long("srv --verbose ", 100_000, end=f"API_KEY={SECRET} tail-word-x")
    for name in (without_credentials(text), shown_typed_command_line(text), shown_command_line(text.split(" "))):
        assert name is not None and SECRET not in name and "tail-word-x" not in name and len(name) < 4_000


def test_a_configured_servers_command_line_is_named_whole() -> None:
    assert MAX_COMMAND_CHARS == LONGEST  # none accepted is named by a hash
    argv = ["srv", "--token", SECRET, *(["a"] * ((LONGEST - 40) // 2))]
    assert len(" ".join(argv)) <= LONGEST
    assert shown_command_line(argv) == " ".join(["srv", "--token", "…", *argv[3:]])
    assert without_credentials(" ".join(argv)) == shown_command_line(argv)
    longer = [*argv, "b" * 100]
    assert shown_command_line(longer) == without_credentials(" ".join(longer))  # its run's key, imported
