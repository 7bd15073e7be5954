"""Resources, resource templates, prompts and completion (issue 25): the demo server (the official
SDK's server) answering our client and the command line in both eras, each an operation with
legs and a budget, stored as a run, cancellable; a server that answers them badly, and one that
does not offer them, get a sentence, not a crash."""

from __future__ import annotations

import asyncio
import base64
import json
from pathlib import Path

import pytest

from inspector.cli import main
from inspector.demo import DemoServer
from inspector.mcp import CancelSignal, McpClient, McpTransportError, ServerEndpoint
from inspector.mcp.offerings import Offerings
from tests.support.fault_server import FaultServer

ERAS = ("handshake", "stateless")


@pytest.fixture(scope="module")
def demo():
    with DemoServer() as server:
        yield server


def _run(coroutine):
    return asyncio.run(coroutine)


async def _with(era: str, url: str, work):
    client = McpClient()
    try:
        return await work(Offerings(client), ServerEndpoint(url, era=era))
    finally:
        await client.close()


@pytest.mark.parametrize("era", ERAS)
def test_listing_reading_and_prompting_in_both_eras(demo, era: str) -> None:
    async def work(offerings: Offerings, server: ServerEndpoint):
        return (await offerings.list_resources(server), await offerings.list_templates(server),
                await offerings.read(server, "demo://readme"), await offerings.read(server, "demo://stripes.png"),
                await offerings.list_prompts(server),
                await offerings.get_prompt(server, "greet", {"name": "<Ada>"}),
                await offerings.complete(server, {"type": "ref/prompt", "name": "summarize"}, "style", "b"))

    resources, templates, readme, picture, prompts, greeting, completion = _run(_with(era, demo.url, work))
    assert resources.names("uri") == ["demo://readme", "demo://stripes.png", "demo://clock"] and resources.pages == 1
    assert templates.names("uriTemplate") == ["demo://notes/{index}"]
    assert readme.contents[0].text.startswith("Run Inspector's demo server.")
    [png] = picture.contents
    assert png.is_image and png.mime_type == "image/png" and png.text is None
    assert base64.b64decode(png.blob).startswith(b"\x89PNG") and png.size == len(base64.b64decode(png.blob))
    assert prompts.names() == ["summarize", "greet"]
    assert [(m.role, m.kind, m.text) for m in greeting.messages] == [
        ("user", "text", "Write a friendly greeting for <Ada>.")]
    assert completion.values == ["bullet points"] and completion.total == 1 and not completion.has_more


def test_a_template_is_completed_and_read_from_what_a_tool_wrote(demo) -> None:
    async def work(offerings: Offerings, server: ServerEndpoint):
        await offerings.client.call_tool(server, "write_note", {"text": "first"})
        await offerings.client.call_tool(server, "write_note", {"text": "second"})
        ref = {"type": "ref/resource", "uri": "demo://notes/{index}"}
        return await offerings.complete(server, ref, "index", ""), await offerings.read(server, "demo://notes/2")

    completion, note = _run(_with("auto", demo.url, work))
    assert completion.values[-2:] == [str(len(completion.values) - 1), str(len(completion.values))]
    assert note.contents[0].text == "second"


def test_the_command_line_stores_each_as_a_run_and_says_it_in_json(demo, tmp_path: Path, capsys) -> None:
    db = str(tmp_path / "runs.db")
    reports = {}
    for words in (["resources", "list"], ["resources", "templates"], ["resources", "read", "URL", "demo://stripes.png"],
                  ["prompts", "list"], ["prompts", "get", "URL", "summarize", "--args", '{"text": "hi"}'],
                  ["complete", "URL", "--prompt", "summarize", "--argument", "style", "--value", "s"]):
        words = [demo.url if word == "URL" else word for word in words]
        if demo.url not in words:
            words.insert(2, demo.url)
        assert main([*words, "--json", "--db", db]) == 0
        report = json.loads(capsys.readouterr().out)
        reports[report["operation"]] = report
        assert report["outcome"] == "ok" and report["legs"] and isinstance(report["run_id"], int)
    assert [item["uri"] for item in reports["resources/list"]["resources"]] == ["demo://readme", "demo://stripes.png",
                                                                            "demo://clock"]
    assert reports["resources/templates/list"]["resource_templates"][0]["uriTemplate"] == "demo://notes/{index}"
    [content] = reports["resources/read"]["contents"]
    assert content["mime_type"] == "image/png" and content["size"] == len(base64.b64decode(content["blob"]))
    assert [prompt["name"] for prompt in reports["prompts/list"]["prompts"]] == ["summarize", "greet"]
    assert reports["prompts/get"]["messages"][0]["text"].endswith("\n\nhi")
    assert reports["completion/complete"] == {**reports["completion/complete"], "values": ["short"], "has_more": False}
    assert main(["runs", "list", "--json", "--db", db]) == 0
    runs = json.loads(capsys.readouterr().out)["runs"]
    assert {run["title"].split(" ")[0] for run in runs} == set(reports) and all(run["status"] == "ok" for run in runs)


def test_readable_output_keeps_a_servers_text_plain(demo, tmp_path: Path, capsys) -> None:
    assert main(["prompts", "get", demo.url, "greet", "--args", '{"name": "\\u001b[31mEve\\u202e"}',
                 "--db", str(tmp_path / "runs.db")]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\u202e" not in out and "Eve" in out


def test_missing_words_and_bad_arguments_are_usage_errors(demo, capsys) -> None:
    assert main(["resources", "read", demo.url, "--no-store"]) == 2
    assert "resources read needs a server and the resource's URI" in capsys.readouterr().err
    assert main(["prompts", "get", demo.url, "greet", "--args", '{"name": 5}', "--no-store"]) == 2
    assert "--args must be a JSON object of strings" in capsys.readouterr().err
    assert main(["complete", demo.url, "--argument", "style", "--no-store"]) == 2  # neither --prompt nor --resource


def test_an_error_answer_and_a_missing_resource_are_failures_with_the_servers_words(demo, capsys) -> None:
    assert main(["resources", "read", demo.url, "demo://nothing", "--no-store", "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["outcome"] == "failed" and "There is no resource 'demo://nothing'" in report["error"]["message"]


def test_a_read_is_cancelled_in_flight_never_failed(tmp_path: Path) -> None:
    with FaultServer("stateless", work=lambda exchange: exchange.stall()) as server:
        async def work(offerings: Offerings, endpoint: ServerEndpoint):
            cancel = CancelSignal()
            asyncio.get_running_loop().call_later(0.5, cancel.fire)
            with pytest.raises(McpTransportError) as raised:
                await offerings.read(endpoint, "file:///x", cancel=cancel, budget_s=10)
            return raised.value

        error = _run(_with("stateless", server.url, work))
    assert error.is_cancellation and error.in_flight


def test_malformed_answers_are_named(tmp_path: Path) -> None:
    def answer(exchange) -> None:
        exchange.send_result({"contents": "not a list", "resources": {"a": 1}, "messages": None})

    with FaultServer("stateless", work=answer) as server:
        async def work(offerings: Offerings, endpoint: ServerEndpoint):
            problems = []
            for call in (lambda: offerings.read(endpoint, "x://y"), lambda: offerings.list_resources(endpoint),
                         lambda: offerings.get_prompt(endpoint, "p")):
                with pytest.raises(McpTransportError) as raised:
                    await call()
                problems.append(raised.value.message)
            return problems

        problems = _run(_with("stateless", server.url, work))
    assert "no list of contents" in problems[0] and "no list resources" in problems[1]
    assert "no list of messages" in problems[2]


def test_a_listing_whose_cursor_comes_again_stops_at_once_and_says_it_loops() -> None:
    def answer(exchange) -> None:  # every page points to the same next page
        exchange.send_result({"resources": [{"uri": "x://a", "name": "a"}], "nextCursor": "again"})

    with FaultServer("stateless", work=answer) as server:
        async def work(offerings: Offerings, endpoint: ServerEndpoint):
            with pytest.raises(McpTransportError) as raised:
                await offerings.list_resources(endpoint, budget_s=20)
            return raised.value

        error = _run(_with("handshake", server.url, work))
        asked = [received.params for received in server.posts("resources/list")]
    assert "page 2 gave the same next cursor as page 1, so its pages would go round in a loop" in error.message
    assert asked == [{}, {"cursor": "again"}], "not walked to the page limit"


def test_the_grammar_names_the_operations_the_commands_make() -> None:
    from inspector.cli.offerings import OFFERINGS
    from inspector.cli.parser import OFFERING_COMMANDS, OFFERING_METHODS

    assert set(OFFERING_METHODS) == set(OFFERINGS.values())
    assert set(OFFERING_COMMANDS) == {command for command, _action in OFFERINGS}


def test_readable_listings_say_their_plurals_in_words(demo, tmp_path: Path, capsys) -> None:
    assert main(["resources", "list", demo.url, "--no-store"]) == 0
    out = capsys.readouterr().out
    assert "3 resources in 1 page:" in out and "(s)" not in out
    assert main(["prompts", "list", demo.url, "--no-store", "--lang", "de"]) == 0
    out = capsys.readouterr().out
    assert "2 Prompts auf 1 Seite:" in out and "(n)" not in out
