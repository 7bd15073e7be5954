"""A tool's structured result checked against its output schema, on a real server: a result that
breaks it is a failed step naming the path and the rule; a schema's $ref never reaches the network."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator

import pytest

from inspector.agent import execute_tool
from inspector.mcp import McpClient, ServerEndpoint
from inspector.runs import ToolOutcome
from tests.support.asgi_server import serve_asgi
from tests.support.cli_process import cli_here
from tests.support.fault_server import FaultServer
from tests.support.output_schema_server import build_app


@pytest.fixture(scope="module")
def canary() -> Iterator[FaultServer]:
    with FaultServer("stateless") as server:
        yield server


@pytest.fixture(scope="module")
def url(canary: FaultServer) -> Iterator[str]:
    with serve_asgi(build_app(canary.url.replace("/mcp", "/canary/profile.json"))) as served:
        yield served


def call(url: str, tool: str, arguments: dict, *, with_definition: bool = True):
    async def work():
        client = McpClient()
        try:
            server = ServerEndpoint(url)
            catalogue = await client.list_tools(server, budget_s=10)
            definition = next(entry for entry in catalogue.tools if entry["name"] == tool)
            return await execute_tool(client, server, tool, arguments, budget_s=10,
                                      definition=definition if with_definition else None)
        finally:
            await client.close()

    return asyncio.run(work())


def test_a_result_that_breaks_the_output_schema_is_a_failed_step_naming_path_and_rule(url: str) -> None:
    record = call(url, "quote", {"prices": [1, 2, -1]})
    assert record.status == "failed"
    assert record.health == "tool_error"  # the server answered (contact), its tool broke its promise
    assert record.error is not None and record.error.to_dict()["kind"] == "output_schema"
    assert record.error.code == 1012
    sentence = (f"The result of the tool quote on the server {ServerEndpoint(url).label} breaks its output schema "
                "at $.items[2].price: -1 is less than the minimum of 0.")
    assert record.error.message == sentence
    assert record.step.tool_outcome is ToolOutcome.FAILED and record.step.tool_is_error is True
    assert record.step.tool_result.startswith(sentence)
    assert "quote answered" in record.step.tool_result  # what the tool said is kept after the reason


def test_a_result_that_keeps_its_schema_is_ok(url: str) -> None:
    record = call(url, "quote", {"prices": [1, 2.5, 0]})
    assert record.status == "ok" and record.error is None


def test_without_the_callers_definition_the_catalogue_the_client_listed_is_used(url: str) -> None:
    record = call(url, "quote", {"prices": [-1]}, with_definition=False)
    assert record.status == "failed" and record.error.to_dict()["kind"] == "output_schema"


def test_nothing_is_checked_when_no_definition_is_known(url: str) -> None:
    async def work():
        client = McpClient()
        try:  # the handshake era, and no catalogue listed: nothing to check against
            return await execute_tool(client, ServerEndpoint(url, era="handshake"), "quote", {"prices": [-1]},
                                      budget_s=10)
        finally:
            await client.close()

    assert asyncio.run(work()).status == "ok"


def test_the_command_line_checks_a_call_against_the_catalogue_it_listed_first(url: str) -> None:
    done = cli_here("call", url, "quote", "--args", '{"prices": [4, -2]}', "--json", "--no-store")  # what it says
    report = json.loads(done.stdout)
    assert done.returncode == 1, done.stderr
    assert [leg["method"] for leg in report["legs"]] == ["server/discover", "tools/list", "tools/call"]
    assert report["outcome"] == "failed" and report["error"]["kind"] == "output_schema"
    assert "at $.items[1].price: -2 is less than the minimum of 0" in report["error"]["message"]


@pytest.mark.parametrize(("language", "no_text", "heading"), [
    ("en", "The tool returned no textual content.", "Its structured content:"),
    ("de", "Das Tool gab keinen Text zurück.", "Sein strukturierter Inhalt:")])
def test_structured_content_that_no_text_block_repeats_is_shown_by_call(url: str, language: str, no_text: str,
                                                                         heading: str) -> None:
    """A server need not repeat its structured content in a text block (it should): `call` said "The tool
    returned no textual content." (in English, whatever --lang said) and nothing of the answer, which
    only --json had. Found with a low-level SDK server returning structured content alone."""
    done = cli_here("--lang", language, "call", url, "structure_only", "--no-store")
    assert done.returncode == 0, done.stderr
    said = done.stdout.split(no_text + "\n", 1)[1]
    assert said.startswith(heading + "\n")
    assert json.loads(said.removeprefix(heading + "\n")) == {"items": [{"price": 3, "note": "Grüße"}]}
    # An answer with a text block says its text, not the structure again (the text is meant to repeat it).
    shown = cli_here("call", url, "quote", "--args", '{"prices": [4]}', "--no-store").stdout
    assert shown.endswith("quote answered\n") and "structured content" not in shown


def test_a_tool_with_an_output_schema_must_return_structured_content(url: str) -> None:
    record = call(url, "no_structure", {})
    assert record.status == "failed" and record.error.kind.value == "output_schema"
    assert record.error.message == (f"The tool no_structure on the server {ServerEndpoint(url).label} declares an "
                                    "output schema but returned no structured content (a server must return it).")


def test_a_tool_error_is_not_checked_against_the_schema(url: str) -> None:
    record = call(url, "fails", {})
    assert record.status == "failed" and record.error is None and record.health == "tool_error"


def test_a_network_ref_in_the_output_schema_is_never_fetched(url: str, canary: FaultServer) -> None:
    record = call(url, "remote_ref", {})
    assert record.status == "failed" and record.error.kind.value == "output_schema"
    assert "never fetches a schema from the network" in record.error.message
    assert "/canary/profile.json" in record.error.message
    assert [received.path for received in canary.received] == []


def test_checking_arguments_in_the_window_never_fetches_a_network_ref(canary: FaultServer) -> None:
    from inspector.gui.widgets.arguments import schema_validator, validate_arguments

    address = canary.url.replace("/mcp", "/canary/arguments.json")
    schema = {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
              "$defs": {"id": {"type": "string", "pattern": "^[a-z]+$"}},
              "properties": {"id": {"$ref": "#/$defs/id"}, "profile": {"$ref": address}}}
    validator = schema_validator(schema)
    assert validate_arguments(schema, {"id": "ABC"}, validator)[0].path == ("id",)  # a local $ref is followed
    assert validate_arguments(schema, {"id": "abc", "profile": {"x": 1}}, validator) == []
    assert [received.path for received in canary.received if "arguments" in received.path] == []


def test_an_agent_run_checks_each_call_against_the_catalogue_it_walked(url: str) -> None:
    import json

    from inspector.agent import ScriptedModel, parse_scenario
    from inspector.agent.loop import AgentRun

    script = parse_scenario(json.dumps({
        "scenario": 1, "name": "t", "description": "d", "prompt": "p", "final": "Done.", "give_up": "Gave up.",
        "list_tools": True,
        "rounds": [{"say": "quote", "calls": [{"tool": "quote", "arguments": {"prices": [4, -3]}}]}]}), "t.json")
    outcome = asyncio.run(AgentRun(ScriptedModel(script), ServerEndpoint(url), "p", budget_s=10).run())
    [call] = [step for step in outcome.trace.steps if step.tool_name == "quote"]
    assert call.tool_outcome is ToolOutcome.FAILED
    assert "breaks its output schema at $.items[1].price: -3 is less than the minimum of 0." in call.tool_result


STRUCTURE = {"items": [{"price": 3, "note": "Grüße"}]}


@pytest.mark.parametrize(("language", "heading"), [("en", "Its structured content:"),
                                                    ("de", "Sein strukturierter Inhalt:")])
def test_a_stored_call_keeps_its_structured_content_and_runs_show_says_it(url: str, tmp_path, language: str,
                                                                          heading: str) -> None:
    """The stored step kept none of it: `runs show`, the window's step detail and exports said only
    "The tool returned no textual content.", as if the tool had returned nothing."""
    db = str(tmp_path / "runs.db")
    assert cli_here("call", url, "structure_only", "--db", db).returncode == 0
    [entry] = json.loads(cli_here("runs", "show", "1", "--json", "--db", db).stdout)["timeline"]
    assert entry["payload"]["structuredContent"] == STRUCTURE
    shown = cli_here("--lang", language, "runs", "show", "1", "--db", db).stdout
    lines = json.dumps(STRUCTURE, indent=2, ensure_ascii=False).splitlines()
    assert "\n".join([f"    {heading}", *(f"        {line}" for line in lines)]) + "\n" in shown


@pytest.mark.parametrize("file_format", ["trace", "otlp"])
def test_structured_content_goes_through_an_export_and_its_import(url: str, tmp_path, file_format: str) -> None:
    source, target, path = str(tmp_path / "source.db"), str(tmp_path / "target.db"), str(tmp_path / "run.json")
    assert cli_here("call", url, "structure_only", "--db", source).returncode == 0
    assert cli_here("export", "1", "-o", path, "--format", file_format, "--db", source).returncode == 0
    assert cli_here("import", path, "--db", target).returncode == 0
    [entry] = json.loads(cli_here("runs", "show", "1", "--json", "--db", target).stdout)["timeline"]
    assert entry["payload"]["structuredContent"] == STRUCTURE
    assert "    Its structured content:\n" in cli_here("runs", "show", "1", "--db", target).stdout


def test_beside_text_the_structured_content_is_stored_and_runs_show_says_the_text(url: str, tmp_path) -> None:
    """A tool that repeats its structured content as text (as a server should): the text is said, the
    structure is in the payload (--json, the window's Structured tab), not said twice."""
    db = str(tmp_path / "runs.db")
    assert cli_here("call", url, "quote", "--args", '{"prices": [4]}', "--db", db).returncode == 0
    [entry] = json.loads(cli_here("runs", "show", "1", "--json", "--db", db).stdout)["timeline"]
    assert entry["payload"]["structuredContent"] == {"items": [{"price": 4}]}
    shown = cli_here("runs", "show", "1", "--db", db).stdout
    assert "quote answered" in shown and "structured content" not in shown


def test_a_result_breaking_its_schema_keeps_the_structured_content_that_broke_it(url: str, tmp_path) -> None:
    db = str(tmp_path / "runs.db")
    assert cli_here("call", url, "quote", "--args", '{"prices": [4, -2]}', "--db", db).returncode == 1
    [entry] = json.loads(cli_here("runs", "show", "1", "--json", "--db", db).stdout)["timeline"]
    assert entry["outcome"] == "failed"
    assert entry["payload"]["structuredContent"] == {"items": [{"price": 4}, {"price": -2}]}


def test_the_recording_proxy_keeps_the_structured_content_of_a_call_it_passes_on(url: str, tmp_path) -> None:
    import httpx

    from inspector.capture.proxy import ProxyServer
    from inspector.store import RunStore

    db = tmp_path / "runs.db"
    call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "structure_only", "arguments": {},
            "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                      "io.modelcontextprotocol/clientCapabilities": {},
                      "io.modelcontextprotocol/clientInfo": {"name": "agent", "version": "1"}}}}
    with ProxyServer(url, db) as proxy:
        answer = httpx.post(proxy.url, json=call, timeout=10, headers={
            "Accept": "application/json, text/event-stream", "MCP-Protocol-Version": "2026-07-28",
            "Mcp-Method": "tools/call", "Mcp-Name": "structure_only"})
    assert answer.status_code == 200, answer.text
    with RunStore.open(db) as store:
        [run] = store.list_runs(limit=None)
        [step] = store.iter_steps(run.id)
    assert step.payload["structuredContent"] == STRUCTURE


def test_a_replay_whose_structured_content_differs_has_a_different_result(url: str, tmp_path) -> None:
    """Its text is the same each time ("The tool returned no textual content."): the replay said "the same
    result" whatever the structure held."""
    db = str(tmp_path / "runs.db")
    assert cli_here("call", url, "tally", "--db", db).returncode == 0
    done = cli_here("replay", "1:1", "--json", "--db", db)
    assert json.loads(done.stdout)["replay_of"]["compared"]["same_result"] is False, done.stderr
    assert "\nReplay: the same outcome, a different result, " in cli_here("replay", "1:1", "--db", db).stdout
