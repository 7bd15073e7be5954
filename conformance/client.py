"""The conformance suite's client adapter: a scenario becomes ``run-inspector`` command lines.

The official MCP conformance suite (``@modelcontextprotocol/conformance``) starts a test server
per client scenario, sets ``MCP_CONFORMANCE_SCENARIO`` (and, for some sign-in scenarios,
``MCP_CONFORMANCE_CONTEXT``: the credentials a user would have been given) and appends the
server's URL as the last argument. This script only maps the scenario to the command lines a user
would type and runs them; all the protocol work, signing in included, is the command line's own.

Signing in: ``BROWSER`` names conformance/follow_redirect.py, which does what a person's browser
would (the suite's authorization endpoint redirects at once to the command line's loopback
address). Secrets from the context reach the command line as a user would give them: a client
secret in an environment variable named by ``--client-secret-env``, a key or a token in a file
(mode 0600) in a folder that is removed afterwards. Each scenario run gets a keyring of its own
(a file in that folder): its command lines share their sign-in, and nothing reaches the user's
keyring.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
#: Each scenario's command lines; ``{url}`` is the test server's address.
SCENARIOS: dict[str, list[list[str]]] = {
    "initialize": [["tools", "{url}"]],
    "tools_call": [["call", "{url}", "add_numbers", "--args", '{"a": 5, "b": 3}']],
    "elicitation-sep1034-client-defaults": [["call", "{url}", "test_client_elicitation_defaults",
                                            "--elicit", "defaults"]],
    "sse-retry": [["call", "{url}", "test_reconnection"]],
    # The stateless era (2026-07-28): multi round-trip requests, the standard and custom headers.
    "sep-2322-client-request-state": [
        ["call", "{url}", "test_mrtr_echo_state", "--elicit", "defaults"],
        ["call", "{url}", "test_mrtr_unrelated"],
        ["call", "{url}", "test_mrtr_no_state", "--elicit", "defaults"],
        ["call", "{url}", "test_mrtr_no_result_type"],
    ],
    "http-standard-headers": [["tools", "{url}"], ["call", "{url}", "test_headers"],
                              ["call", "{url}", "my-hyphenated-tool"]],
    "http-custom-headers": [
        ["call", "{url}", "test_custom_headers", "--args", json.dumps({
            "region": "us-west1", "priority": 42, "verbose": True, "debug": False, "empty_val": "",
            "method_val": "tools/call", "float_val": 2.5, "non_ascii_val": "Zürich – 東京",
            "whitespace_val": "  padded  ", "leading_space_val": " lead", "trailing_space_val": "trail ",
            "internal_space_val": "a b c", "control_char_val": "bell\u0007", "crlf_val": "one\r\ntwo",
            "tab_val": "\ttabbed", "query": "not mirrored"})],
        ["call", "{url}", "test_custom_headers_null", "--args",
         json.dumps({"region": "eu", "priority": 1, "verbose": None, "query": "q"})],
    ],
    "http-invalid-tool-headers": [["tools", "{url}"],
                                  ["call", "{url}", "valid_tool", "--args", '{"region": "us-west1"}']],
    # Echo one tool's input schema back through another, as a user would copy it out of
    # `run-inspector tools --json`: what the catalogue kept is what is sent.
    "json-schema-2020-12-preservation": [["call", "{url}", "json_schema_echo", "--args",
                                          '{"schema": {inputSchema:json_schema_2020_12_tool}}']],
    # Skills (SEP-2640): listing reads no file; loading the scenario's one skill reads SKILL.md, finds
    # it tampered (digest, size, frontmatter) and fails without reading references/FORMS.md.
    "sep-2640-client-no-prefetch": [["skills", "list", "{url}"]],
    **{f"sep-2640-client-verify-{check}": [["skills", "list", "{url}"],
                                           ["skills", "load", "{url}", "skill://pdf-processing/SKILL.md"]]
       for check in ("digest", "size", "frontmatter")},
}
#: Scenarios spoken in the era of the revision the suite names (``MCP_CONFORMANCE_PROTOCOL_VERSION``):
#: its servers answer both ``initialize`` and ``server/discover``, so left to itself the command
#: line would always find the stateless era.
ERA_OF_REVISION = {"2025-11-25": "handshake", "2026-07-28": "stateless"}
ERA_CHOSEN = ("sep-2640-",)
#: The signed-in part of most sign-in scenarios: call the suite's one tool, as its reference
#: client does after listing (a call, because step-up's 403 answers only ``tools/call``).
SIGNED_IN_CALL = ["call", "{url}", "test-tool"]
#: The client id metadata document ``auth/basic-cimd`` expects (a fixed address it never fetches).
CIMD_URL = "https://conformance-test.local/client-metadata.json"
#: The context's client secret, given as a user gives it: the name of a variable that holds it.
SECRET = ["--client-secret-env", "{env:client_secret}"]
#: Sign-in scenarios that need more than :data:`SIGNED_IN_CALL` (every other ``auth/`` one gets it).
#: ``{context:NAME}`` is a value of ``MCP_CONFORMANCE_CONTEXT``; ``{file:NAME}`` a file holding it;
#: ``{env:NAME}`` the name of a variable the command line gets holding it.
SIGNIN_SCENARIOS: dict[str, list[list[str]]] = {
    "auth/basic-cimd": [[*SIGNED_IN_CALL, "--client-metadata-url", CIMD_URL]],
    "auth/pre-registration": [[*SIGNED_IN_CALL, "--client-id", "{context:client_id}", *SECRET]],
    # The first signed-in request moves the server to another authorization server; the second
    # command line (sharing the keyring) meets the move and must register there afresh.
    "auth/authorization-server-migration": [["tools", "{url}"], SIGNED_IN_CALL],
    "auth/client-credentials-basic": [[*SIGNED_IN_CALL, "--grant", "client-credentials",
                                       "--client-id", "{context:client_id}", *SECRET]],
    "auth/client-credentials-jwt": [[*SIGNED_IN_CALL, "--grant", "client-credentials",
                                     "--client-id", "{context:client_id}", "--client-key", "{file:private_key_pem}"]],
    # Enterprise-managed authorization (SEP-990): the ID token from the company's identity
    # provider is exchanged there for an authorization grant, which the authorization server takes.
    "auth/enterprise-managed-authorization": [[
        *SIGNED_IN_CALL, "--grant", "enterprise", "--id-token-file", "{file:idp_id_token}",
        "--idp-token-endpoint", "{context:idp_token_endpoint}", "--idp-client-id", "{context:idp_client_id}",
        "--client-id", "{context:client_id}", *SECRET]],
    # Workload identity federation (SEP-1933): a JWT the workload's platform issued, as the grant.
    "auth/wif-jwt-bearer": [[*SIGNED_IN_CALL, "--grant", "jwt-bearer", "--assertion-file", "{file:valid_jwt}",
                             "--client-id", "{context:client_id}"]],
    # auth/dpop and auth/dpop-nonce need no option: the command line asks for DPoP-bound tokens
    # wherever the authorization server offers them.
}
# 0.1.16 names enterprise-managed authorization by its earlier name.
SIGNIN_SCENARIOS["auth/cross-app-access-complete-flow"] = SIGNIN_SCENARIOS["auth/enterprise-managed-authorization"]
#: ``{inputSchema:TOOL}`` in a command line: that tool's ``inputSchema`` from ``tools --json``.
SCHEMA_OF = re.compile(r"\{inputSchema:([^{}]+)\}")
#: ``{context:NAME}``, ``{file:NAME}``, ``{env:NAME}`` in a command line (see :data:`SIGNIN_SCENARIOS`).
FROM_CONTEXT = re.compile(r"\{(context|file|env):([a-z_]+)\}")
#: What every command line gets: no run stored in the user's database, a generous budget.
COMMON = ["--no-store", "--budget", "20"]
#: The "browser" the command line opens the authorization address with.
FOLLOW_REDIRECT = HERE / "follow_redirect.py"


def command_lines(scenario: str, url: str) -> list[list[str]]:
    """The ``run-inspector`` arguments for a scenario (a catalogue walk for one not known here,
    a signed-in call for a sign-in scenario not named in :data:`SIGNIN_SCENARIOS`)."""
    if scenario.startswith("auth/"):
        lines = SIGNIN_SCENARIOS.get(scenario, [SIGNED_IN_CALL])
    else:
        lines = SCENARIOS.get(scenario, [["tools", "{url}"]])
    era = ERA_OF_REVISION.get(os.environ.get("MCP_CONFORMANCE_PROTOCOL_VERSION", ""))
    chosen = ["--era", era] if era and scenario.startswith(ERA_CHOSEN) else []
    return [[part.replace("{url}", url) for part in line] + COMMON + chosen for line in lines]


def fill_context(line: list[str], context: dict, folder: Path, env: dict[str, str]) -> list[str]:
    """``line`` with the context's values put in: ``{context:NAME}`` as the value, ``{file:NAME}``
    as the path of a file in ``folder`` holding it (readable by the user only), ``{env:NAME}`` as
    the name of a variable set in ``env``. A value the context lacks becomes empty (the command
    line then says what is missing)."""
    def value(match: re.Match[str]) -> str:
        how, name = match.groups()
        text = str(context.get(name, ""))
        if how == "context":
            return text
        if how == "env":
            variable = f"CONFORMANCE_{name.upper()}"
            env[variable] = text
            return variable
        path = folder / name
        path.touch(mode=0o600)
        path.write_text(text, encoding="utf-8")
        return str(path)

    return [FROM_CONTEXT.sub(value, part) for part in line]


def signin_environment(folder: Path) -> dict[str, str]:
    """The environment of the command lines: this process's, with ``BROWSER`` following the
    redirect, a keyring, database, settings and log of this scenario run's own (in ``folder``: the
    user's run database and log were used) and without the suite's context (what a user types is
    all the command line gets)."""
    env = {name: value for name, value in os.environ.items() if name != "MCP_CONFORMANCE_CONTEXT"}
    env["BROWSER"] = f"{shlex.quote(sys.executable)} {shlex.quote(str(FOLLOW_REDIRECT))} %s"
    try:
        from tests.support.file_keyring import BACKEND_NAME, FILE_ENV
        from tests.support.isolation import isolating_variables
    except ImportError:  # a checkout without the test support: sign-ins last one command line
        env["PYTHON_KEYRING_BACKEND"] = "keyring.backends.null.Keyring"
    else:
        env.update(isolating_variables(folder))
        env["PYTHON_KEYRING_BACKEND"] = BACKEND_NAME
        env[FILE_ENV] = str(folder / "keyring.json")
    return env


def fill_schemas(line: list[str], catalogue: Callable[[], list[dict]]) -> list[str]:
    """``line`` with each ``{inputSchema:TOOL}`` replaced by the JSON of that tool's input schema
    (``catalogue`` gives the tools as ``tools --json`` prints them; asked only when needed)."""
    def schema(match: re.Match[str]) -> str:
        tool = next((tool for tool in catalogue() if tool.get("name") == match.group(1)), {})
        return json.dumps(tool.get("inputSchema"))

    return [SCHEMA_OF.sub(schema, part) for part in line]


def listed_tools(url: str, env: dict[str, str]) -> list[dict]:
    """The server's tools, as ``run-inspector tools --json`` prints them. When it fails, what it said goes
    to this adapter's stderr (which the suite keeps): its own stderr, and the error of its JSON."""
    line = ["tools", url, "--json", *COMMON]
    print("run-inspector " + " ".join(line), file=sys.stderr, flush=True)
    done = subprocess.run([sys.executable, "-m", "inspector", *line], check=False, stdout=subprocess.PIPE,
                          text=True, env=env)
    try:
        answer = json.loads(done.stdout)
    except ValueError:
        answer = {}
    if done.returncode:
        error = answer.get("error") if isinstance(answer, dict) else None
        said = error.get("message") if isinstance(error, dict) else done.stdout[-1000:]
        print(f"(exit code {done.returncode}) {said}", file=sys.stderr, flush=True)
    return (answer.get("tools") if isinstance(answer, dict) else None) or []


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print("usage: client.py SERVER_URL (with MCP_CONFORMANCE_SCENARIO set)", file=sys.stderr)
        return 2
    scenario, url = os.environ.get("MCP_CONFORMANCE_SCENARIO", ""), argv[-1]
    try:
        context = json.loads(os.environ.get("MCP_CONFORMANCE_CONTEXT") or "{}")
    except ValueError:
        context = {}
    status = 0
    tools: list[list[dict]] = []
    with tempfile.TemporaryDirectory(prefix="run-inspector-conformance-") as folder:
        env = signin_environment(Path(folder))

        def catalogue() -> list[dict]:
            if not tools:
                tools.append(listed_tools(url, env))
            return tools[0]

        for line in command_lines(scenario, url):
            line = fill_context(fill_schemas(line, catalogue), context, Path(folder), env)
            print("run-inspector " + " ".join(line), file=sys.stderr, flush=True)
            done = subprocess.run([sys.executable, "-m", "inspector", *line], check=False, env=env)
            status = status or done.returncode
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
