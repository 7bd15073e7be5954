"""The demo server speaks one language, chosen when it starts: its texts in it, its names unchanged."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys

import pytest
from mcp.client import Client

from inspector.demo import DEMO_TOOLS, DemoOptions, DemoServer, InvalidDemoOptionsError
from inspector.mcp import McpClient, ServerEndpoint


def sdk(url: str, work):
    async def go():
        async with Client(url, mode="legacy") as client:
            return await work(client)
    return asyncio.run(go())


def listed_tools(url: str) -> list[dict]:
    async def go():
        client = McpClient()
        try:
            return (await client.list_tools(ServerEndpoint(url))).tools
        finally:
            await client.drain()
    return asyncio.run(go())


def test_a_german_demo_server_says_its_texts_in_german_and_keeps_its_names():
    with DemoServer(DemoOptions(language="de", page_size=20, catalogue_size=2)) as server:
        tools = {tool["name"]: tool for tool in listed_tools(server.url)}

        async def work(client):
            return {
                "note": await client.call_tool("write_note", {"text": "Milch"}),
                "fail": await client.call_tool("fail", {}),
                "slow": await client.call_tool("slow_task", {"seconds": 0.1, "steps": 1}),
                "unknown": await client.call_tool("nope", {}),
                "lookup": await client.call_tool("lookup_002", {"key": "7"}),
                "resources": await client.list_resources(),
                "prompt": await client.get_prompt("greet", {"name": "Ada"}),
                "prompts": await client.list_prompts(),
            }

        got = sdk(server.url, work)
        log = server.state.log_lines()
    assert list(tools) == [tool.name for tool in DEMO_TOOLS] + ["lookup_001", "lookup_002"]  # the names stay
    echo = tools["echo"]
    assert echo["description"] == ("Den Text unverändert zurückgeben, auf Wunsch wiederholt oder in "
                                   "Großbuchstaben.")
    assert list(echo["inputSchema"]["properties"]) == ["text", "repeat", "uppercase"]
    assert echo["inputSchema"]["properties"]["repeat"]["description"] == "Wie oft er zurückkommt, einmal je Zeile."
    assert tools["fail"]["inputSchema"]["properties"]["reason"]["default"] == "es wurde darum gebeten"
    priority = tools["write_note"]["inputSchema"]["properties"]["priority"]
    assert priority["enum"] == ["low", "normal", "high"] and priority["default"] == "normal"  # values stay
    assert tools["lookup_002"]["description"] == "Einen Eintrag im Rechnungsregister Nummer 2 nachschlagen."
    assert got["note"].content[0].text == "Notiz 1 geschrieben."
    assert got["fail"].content[0].text == "Dieses Tool schlägt immer fehl: es wurde darum gebeten."
    assert got["slow"].content[0].text.startswith("1 Schritt in 0,")
    assert got["unknown"].content[0].text == "Auf diesem Server gibt es kein Tool namens 'nope'."
    assert got["lookup"].content[0].text == "Eintrag 7 des Rechnungsregisters 2."
    titles = {resource.name: resource.title for resource in got["resources"].resources}
    assert titles["readme"] == "Über diesen Server" and titles["clock"] == "Eine tickende Uhr"
    assert got["prompt"].messages[0].content.text == "Schreibe einen freundlichen Gruß an Ada."
    assert [prompt.name for prompt in got["prompts"].prompts] == ["summarize", "greet"]
    assert "write_note: Notiz 1 geschrieben." in log


def test_an_english_demo_server_is_the_default_and_a_language_it_cannot_speak_is_refused():
    with DemoServer() as server:
        tools = {tool["name"]: tool for tool in listed_tools(server.url)}
    assert tools["echo"]["description"] == "Return the text unchanged, optionally repeated or in capitals."
    with pytest.raises(InvalidDemoOptionsError, match="language"):
        DemoOptions(language="fr")


def serve_demo_description(*words: str, env: dict[str, str]) -> str:
    """``serve-demo`` in a process of its own, as the window starts it: echo's description there."""
    process = subprocess.Popen([sys.executable, "-m", "inspector", *words, "serve-demo", "--json",
                                "--stop-with-stdin"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env=env)
    try:
        url = json.loads(process.stdout.readline())["url"]
        tools = {tool["name"]: tool for tool in listed_tools(url)}
        process.stdin.close()
        process.wait(15)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 0, process.stderr.read()
    return tools["echo"]["description"]


def test_serve_demo_speaks_the_language_of_its_command_line():
    english = {key: value for key, value in os.environ.items() if key not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES")}
    english["LANG"] = "C.UTF-8"
    german = "Den Text unverändert zurückgeben, auf Wunsch wiederholt oder in Großbuchstaben."
    assert serve_demo_description("--lang", "de", env=english) == german
    # No --lang: as every command, the system's locale.
    assert serve_demo_description(env={**english, "LANGUAGE": "de", "LANG": "de_DE.UTF-8"}) == german
    assert serve_demo_description(env=english).startswith("Return the text unchanged")
