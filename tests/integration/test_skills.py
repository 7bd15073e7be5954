"""Skills (SEP-2640, issue 25): the demo server's (the official SDK's server) listed, got and loaded in
both eras; a misbehaving server whose files do not match its listing (digest, size, frontmatter,
a file far larger than announced, hostile YAML, malformed entries) fails each load with a named
failure and reads nothing after it; listing and getting read no file; a server that does not
declare the extension is asked nothing. Each is an operation: legs, a budget, a cancel, a run."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path

import pytest

from inspector.cli import main
from inspector.demo import DemoOptions, DemoServer
from inspector.mcp import CancelSignal, ErrorKind, McpClient, McpTransportError, OperationRecorder, ServerEndpoint
from inspector.mcp.skills import Skills
from tests.support.skills_server import FORMS, SKILL, SkillsServer

ERAS = ("handshake", "stateless")


@pytest.fixture(scope="module")
def demo():
    with DemoServer() as server:
        yield server


async def _with(url: str, work, era: str = "handshake"):
    client = McpClient()
    try:
        return await work(Skills(client), ServerEndpoint(url, era=era))
    finally:
        await client.close()


def _run(url: str, work, era: str = "handshake"):
    return asyncio.run(_with(url, work, era))


@pytest.mark.parametrize("era", ERAS)
def test_the_demo_servers_skills_are_listed_got_and_loaded_in_both_eras(demo, era: str) -> None:
    async def work(skills: Skills, server: ServerEndpoint):
        return (await skills.list(server), await skills.get(server, "skill://demo-tour/SKILL.md"),
                await skills.load(server, "skill://demo-tour/SKILL.md"))

    listing, got, loaded = _run(demo.url, work, era)
    assert [entry.uri for entry in listing.entries] == ["skill://demo-tour/SKILL.md",
                                                         "skill://run-inspector/cancel-a-call/SKILL.md"]
    assert all(entry.problem is None for entry in listing.entries) and listing.pages == 1
    assert (listing.freshness.ttl_ms, listing.freshness.cache_scope) == (300_000, "public")
    assert got.entry.name == "demo-tour" and got.entry.frontmatter["license"] == "MIT"
    assert [file.path for file in got.entry.files] == ["SKILL.md", "references/TOOLS.md"]
    assert loaded.entry_from == "skills/list" and [file.verified for file in loaded.files] == [True, True]
    assert loaded.frontmatter["metadata"] == {"version": "1.0", "audience": "people trying Run Inspector"}
    assert loaded.skill_md.startswith("---\nname: demo-tour") and "# A tour of the demo server" in loaded.skill_md
    assert [file.size for file in loaded.files] == [file.size for file in got.entry.files]


def test_a_german_demo_servers_skills_say_their_texts_in_german_and_load_verified() -> None:
    """The German demo server said its tools, resources and prompts in German and its skills in English
    ("demo-tour — Tour Run Inspector's demo server - call its tools…" in the German window's Skills tab)."""
    async def work(skills: Skills, server: ServerEndpoint):
        return await skills.list(server), await skills.load(server, "skill://demo-tour/SKILL.md")

    with DemoServer(DemoOptions(language="de")) as german:
        listing, loaded = _run(german.url, work)
    descriptions = [entry.frontmatter["description"] for entry in listing.entries]
    assert descriptions == ["Eine Tour durch den Demo-Server von Run Inspector – seine Tools aufrufen, seine "
                            "Ressourcen lesen und seine Prompts ausfüllen.",
                            "Einen laufenden Tool-Aufruf abbrechen und sehen, dass ein Schritt mit Abbruch kein "
                            "Fehlschlag ist."]
    assert [file.verified for file in loaded.files] == [True, True]  # its files as its listing says them
    assert loaded.frontmatter["description"] == descriptions[0]
    assert loaded.frontmatter["metadata"]["audience"] == "alle, die Run Inspector ausprobieren"
    assert "# Eine Tour durch den Demo-Server" in loaded.skill_md
    assert loaded.files[1].text.startswith("# Die Tools des Demo-Servers")
    assert [entry.name for entry in listing.entries] == ["demo-tour", "cancel-a-call"]  # names stay


def test_an_unknown_skill_is_refused_by_the_demo_with_invalid_params(demo) -> None:
    with pytest.raises(McpTransportError) as caught:
        _run(demo.url, lambda skills, server: skills.get(server, "skill://nope/SKILL.md"))
    assert caught.value.kind is ErrorKind.RPC_ERROR and caught.value.rpc_code == -32602


def test_listing_and_getting_read_no_file_and_loading_reads_each_listed_file_once() -> None:
    with SkillsServer() as server:
        listing = _run(server.url, lambda skills, endpoint: skills.list(endpoint))
        _run(server.url, lambda skills, endpoint: skills.get(endpoint, SKILL))
        assert server.reads == [] and len(server.posts("skills/list")) == 1
        loaded = _run(server.url, lambda skills, endpoint: skills.load(endpoint, SKILL, listing.entries[0].raw))
        assert server.reads == [SKILL, FORMS] and len(server.posts("skills/list")) == 1  # the held entry served
    assert loaded.entry_from == "held" and [file.path for file in loaded.files] == ["SKILL.md", "references/FORMS.md"]
    assert loaded.files[1].text == "F" * 789 + "\n"


def test_a_paged_listing_is_walked_and_a_load_stops_listing_once_its_skill_is_found() -> None:
    with SkillsServer("paged") as server:
        listing = _run(server.url, lambda skills, endpoint: skills.list(endpoint))
        assert [entry.uri for entry in listing.entries] == ["skill://other/SKILL.md", SKILL] and listing.pages == 2
        assert (listing.freshness.ttl_ms, listing.freshness.cache_scope) == (1000, "private")
        assert [post.params.get("cursor") for post in server.posts("skills/list")] == [None, "2"]
        loaded = _run(server.url, lambda skills, endpoint: skills.load(endpoint, "skill://other/SKILL.md"))
        assert len(server.posts("skills/list")) == 3  # found on the first page: no second one asked
    assert loaded.entry.dynamic and [file.verified for file in loaded.files] == [False]


#: Each lie, the words of its named failure, and what was read before the load stopped.
LIES = [
    ("digest", "SKILL.md: its SHA-256 digest is sha256:", [SKILL]),
    ("size", "SKILL.md: 139 bytes, the listing says 97", [SKILL]),
    ("frontmatter", 'SKILL.md: its frontmatter says description is "Exfiltrate credentials", the listing says '
                    '"Extract, fill, and assemble PDF documents"', [SKILL]),
    ("forms-size", "references/FORMS.md: 812 bytes, the listing says 790", [SKILL, FORMS]),
    ("huge", "references/FORMS.md: 1000000 bytes, the listing says 790", [SKILL, FORMS]),
    ("alias-bomb", "SKILL.md: its frontmatter uses YAML anchors or aliases", [SKILL]),
    ("deep-yaml", "SKILL.md: its frontmatter nests deeper than 20 levels", [SKILL]),
    ("huge-frontmatter", "SKILL.md: its frontmatter is longer than 65536 characters, or not closed", [SKILL]),
    ("python-tag", "SKILL.md: its frontmatter is not valid YAML: could not determine a constructor", [SKILL]),
]


@pytest.mark.parametrize(("mode", "words", "read"), LIES, ids=[lie[0] for lie in LIES])
def test_a_file_that_does_not_match_its_listing_fails_the_load_by_name(mode: str, words: str, read: list[str]) -> None:
    recorder = OperationRecorder()
    with SkillsServer(mode) as server:
        with pytest.raises(McpTransportError) as caught:
            _run(server.url, lambda skills, endpoint: skills.load(endpoint, SKILL, observer=recorder))
        assert server.reads == read  # nothing is read after the failed file
    error = caught.value
    assert error.kind is ErrorKind.SKILL_VERIFICATION and error.code == 1015
    assert "failed verification and was not loaded" in error.message and words in error.message
    assert "Evil body" not in error.message and "\n" not in error.message
    assert recorder.finished is not None and recorder.finished.outcome == "failed"


def test_malformed_entries_are_listed_each_with_its_problem_and_none_is_loaded() -> None:
    with SkillsServer("malformed") as server:
        listing = _run(server.url, lambda skills, endpoint: skills.list(endpoint))
        with pytest.raises(McpTransportError) as caught:
            _run(server.url, lambda skills, endpoint: skills.load(endpoint, SKILL))
        assert server.reads == []
    problems = [str(entry.problem) for entry in listing.entries]
    assert problems[:9] == [
        "the entry is not an object",
        "the entry has no uri",
        "its uri skill://pdf-processing/README.md does not name a SKILL.md",
        "its uri ends in pdf-processing, but its frontmatter names it other-name",
        "the digest of SKILL.md is not sha256: and 64 lowercase hexadecimal digits",
        "skill://elsewhere/x.md is outside the skill's folder",
        "its files do not include its SKILL.md",
        'its resources are neither a list of files nor "dynamic"',
        "the size of SKILL.md is not a whole number of bytes",
    ]
    assert listing.entries[9].problem is None and listing.entries[9].dynamic
    assert caught.value.kind is ErrorKind.SKILL_VERIFICATION
    assert "its entry cannot be loaded: its uri ends in pdf-processing" in caught.value.message


def test_a_server_that_does_not_declare_the_extension_is_asked_nothing() -> None:
    with SkillsServer("undeclared") as server:
        for work in (lambda skills, endpoint: skills.list(endpoint),
                     lambda skills, endpoint: skills.load(endpoint, SKILL)):
            with pytest.raises(McpTransportError) as caught:
                _run(server.url, work)
            assert caught.value.kind is ErrorKind.NOT_OFFERED
            assert "does not offer the skills extension (io.modelcontextprotocol/skills)" in caught.value.message
        assert server.posts("skills/list") == [] and server.reads == []


def test_a_load_is_cancelled_while_a_file_is_read() -> None:
    cancel = CancelSignal()

    async def work(skills: Skills, endpoint: ServerEndpoint):
        running = asyncio.ensure_future(skills.load(endpoint, SKILL, cancel=cancel))
        while not server.reads:
            await asyncio.sleep(0.01)
        cancel.fire()
        return await running

    with SkillsServer(delays={"resources/read": 3}) as server:  # the cancel comes as soon as the read is seen
        with pytest.raises(McpTransportError) as caught:
            _run(server.url, work)
    assert caught.value.is_cancellation and server.reads == [SKILL]


def test_the_command_line_lists_gets_and_loads_and_stores_each_as_a_run(demo, tmp_path: Path, capsys) -> None:
    db = str(tmp_path / "runs.db")
    reports = {}
    for words in (["list", demo.url], ["get", demo.url, "skill://demo-tour/SKILL.md"],
                  ["load", demo.url, "skill://demo-tour/SKILL.md"]):
        assert main(["skills", *words, "--json", "--db", db]) == 0
        reports[words[0]] = json.loads(capsys.readouterr().out)
    assert [skill["uri"] for skill in reports["list"]["skills"]] == ["skill://demo-tour/SKILL.md",
                                                                    "skill://run-inspector/cancel-a-call/SKILL.md"]
    assert reports["list"]["unloadable"] == [] and reports["list"]["ttl_ms"] == 300_000
    assert reports["get"]["skill"]["frontmatter"]["name"] == "demo-tour" and reports["get"]["problem"] is None
    loaded = reports["load"]
    assert loaded["operation"] == "skills/load" and loaded["outcome"] == "ok"
    assert [file["path"] for file in loaded["files"]] == ["SKILL.md", "references/TOOLS.md"]
    assert all(file["verified"] and file["digest"].startswith("sha256:") for file in loaded["files"])
    assert [leg["method"] for leg in loaded["legs"]][-3:] == ["skills/list", "resources/read", "resources/read"]
    with sqlite3.connect(db) as connection:
        titles = [row[0] for row in connection.execute("SELECT title FROM runs ORDER BY id")]
    assert titles == [f"skills/list {demo.url}", "skills/get skill://demo-tour/SKILL.md",
                      "skills/load skill://demo-tour/SKILL.md"]


def test_the_command_line_says_a_failed_verification_in_words_and_exits_1(tmp_path: Path, capsys) -> None:
    db = str(tmp_path / "runs.db")
    with SkillsServer("forms-size") as server:
        assert main(["skills", "load", server.url, SKILL, "--db", db, "--era", "handshake"]) == 1
        said = capsys.readouterr().out
        assert main(["skills", "load", server.url, SKILL, "--json", "--no-store", "--era", "handshake"]) == 1
        report = json.loads(capsys.readouterr().out)
    assert "references/FORMS.md: 812 bytes, the listing says 790" in said and "Skill body." not in said
    assert report["error"]["kind"] == "skill_verification" and report["error"]["code"] == 1015
    assert "skill_md" not in report and "files" not in report
    with sqlite3.connect(db) as connection:
        (status,) = connection.execute("SELECT status FROM runs").fetchone()
    assert status == "failed"


def test_the_command_line_needs_the_skills_uri(capsys) -> None:
    assert main(["skills", "load", "http://127.0.0.1:9/mcp", "--json"]) == 2
    assert "skills load needs a server and the skill's URI" in json.loads(capsys.readouterr().out)["error"]["message"]
