"""Every shape of credential we could think of, planted in a run and exported in both formats:
none reaches the file; what is not a credential stays; the file still imports."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest
from test_trace_support import T0

from inspector.runs import RunStep, RunTrace, ToolResult
from inspector.store import RunStore
from inspector.traces.redact import REDACTED, redact, redact_text
from inspector.transfer.exporting import export
from inspector.transfer.importing import import_trace


def secret(n: int) -> str:
    return f"Zq9xW7vK{n:03d}mP4"


# name → (a JSON value holding secret(n), n). Each uses its own secret, so a leak names its shape.
SHAPES: dict[str, object] = {
    "header pairs": lambda s: {"headers": [["Cookie", f"sid={s}"], ["X-Api-Key", s], ["Accept", "json"]]},
    "pairs, lower-case": lambda s: [["authorization", f"Token {s}"]],
    "Name/Value objects": lambda s: {"headers": [{"Name": "X-Api-Key", "Value": s},
                                                 {"Name": "Accept", "Value": "json"}]},
    "NAME/VALUE objects": lambda s: [{"NAME": "Cookie", "VALUE": s}],
    "key/val objects": lambda s: [{"key": "password", "val": s}],
    "HAR header": lambda s: {"request": {"headers": [{"name": "authorization", "value": f"Bearer {s}"}]}},
    "secret-named key": lambda s: {"Proxy-Authorization": s, "client_secret": s, "passcode": s},
    "map keyed by a token": lambda s: {f"sk-ant-{s}abcdefgh": "owner"},
    "curl -u": lambda s: f"curl -u alice:{s} https://api.example.com/v1",
    "curl --user quoted": lambda s: f"curl --user 'alice:{s}' https://api.example.com/v1",
    "curl -H": lambda s: f"curl -H 'X-Api-Key: {s}' https://api.example.com/v1",
    "URL password with @": lambda s: f"fetch https://alice:p@ss{s}@host.example/x now",
    "URL password with two @": lambda s: f"https://alice:{s}@a@b@host.example/",
    "database URL": lambda s: f"postgres://bob:{s}@db:5432/app and mongodb+srv://bob:{s}@cluster0.x.net/",
    "password in YAML": lambda s: f"db:\n  user: bob\n  password: {s}\n  port: 5432",
    "quoted password in YAML": lambda s: f"password: \"{s} with space\"",
    "password in XML": lambda s: f"<config><user>bob</user><password>{s}</password></config>",
    "password in an XML attribute": lambda s: f'<login user="bob" password="{s}"/>',
    "namespaced XML": lambda s: f"<cfg:apiKey>{s}</cfg:apiKey>",
    "key= in text": lambda s: f"connect with key={s} now",
    "key: in text": lambda s: f"key: {s}",
    "api-key= in text": lambda s: f"api-key={s}",
    "env line": lambda s: f"export GITHUB_TOKEN={s}\nAWS_SECRET_ACCESS_KEY={s}",
    "connection string": lambda s: f"Server=x;User Id=bob;Password={s};",
    "--token option": lambda s: f"tool --token {s} --verbose",
    "--password= option": lambda s: f"mysql --password={s} db",
    "--key option": lambda s: f"python server.py --key {s} --verbose",
    "--access-key= option": lambda s: f"server --access-key={s}",
    "-Key header line": lambda s: f"Ocp-Apim-Subscription-Key: {s}",
    "mysql -p": lambda s: f"mysql -ubob -p{s} db",
    "PEM RSA key": lambda s: f"-----BEGIN RSA PRIVATE KEY-----\nMIIE{s}\nAAAA{s}\n-----END RSA PRIVATE KEY-----",
    "PEM OpenSSH key": lambda s: (f"key:\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3Bl{s}\n"
                                  "-----END OPENSSH PRIVATE KEY-----"),
    "PEM key cut short": lambda s: f"-----BEGIN EC PRIVATE KEY-----\nMHcC{s}",
    "PEM in JSON text": lambda s: ('{"private_key": "-----BEGIN PRIVATE KEY-----\\nMIIE' + s
                                   + '\\n-----END PRIVATE KEY-----\\n"}'),
    "JWT": lambda s: f"id eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.{s}abc",
    "Basic credentials": lambda s: "Authorization: Basic " + base64.b64encode(f"bob:{s}".encode()).decode(),
    "Digest header": lambda s: f'Proxy-Authorization: Digest username="bob", response="{s}"',
    "Set-Cookie": lambda s: f"Set-Cookie: session={s}; Path=/",
    "query token": lambda s: f"https://h.example/x?access_token={s}&page=2",
    "query signature": lambda s: f"https://bucket.example/x?X-Amz-Signature={s}&page=2",
    "Azure SAS sig": lambda s: f"https://acct.blob.core.windows.net/c/b?sv=2022-11-02&sig={s}%3D&se=2030",
    "OAuth code in a redirect": lambda s: f"GET /callback?code={s}&state=xyz",
    "token in a fragment": lambda s: f"https://app.example/#access_token={s}&token_type=bearer",
    "percent-encoded token": lambda s: f"https://h.example/login?next=https%3A%2F%2Fapp.example%2F%3Ftoken%3D{s}%26page%3D2",
    "percent-encoded sig": lambda s: f"?return=%2Fx%3Fsig%3D{s}",
    "JSON text": lambda s: f'{{"client_secret": "{s}", "page": 2}}',
    "escaped JSON text": lambda s: f'{{\\"password\\": \\"{s}\\"}}',
    "Slack webhook": lambda s: f"https://hooks.slack.com/services/T000/B000/{s}XXXX",
    "Google API key": lambda s: f"AIza{s}{s}{s[:11]}",
    "Stripe key": lambda s: f"sk_live_{s}{s}",
    "GitLab token": lambda s: f"glpat-{s}{s}",
    "pin= in text": lambda s: f"pin={s}",
}
AWS_KEY = "AKIAIOSFODNN7EXAMPLE"


def plant(store: RunStore) -> dict[str, str]:
    """One run holding every shape, in the step's arguments, result, raw and content."""
    planted = {name: secret(n) for n, name in enumerate(SHAPES)}
    run = store.start_run(f"title with https://alice:{secret(900)}@host/", "live",
                          f"http://u:p@ss{secret(901)}@127.0.0.1:1/mcp", started_at=T0)
    trace = RunTrace()
    for name, make in SHAPES.items():
        value = make(planted[name])
        text = value if isinstance(value, str) else repr(value)
        arguments = value if not isinstance(value, str) else {"text": value}
        store.append_step(run, trace.record_tool_result(1, "tool", arguments if isinstance(arguments, dict)
                                                        else {"items": arguments}, ToolResult.text(text), 1.0), T0)
        store.append_step(run, RunStep(kind="llm", round=1, duration_ms=1.0, content=text,
                                       raw={"value": value, "aws": AWS_KEY}), T0)
    store.finish_run(run, "ok", T0)
    return planted


@pytest.fixture
def store(tmp_path: Path) -> RunStore:
    opened = RunStore.open(tmp_path / "runs.db")
    yield opened
    opened.close()


@pytest.mark.parametrize("file_format", ["trace", "otlp"])
def test_no_shape_of_credential_reaches_an_export(store: RunStore, tmp_path: Path, file_format: str) -> None:
    planted = plant(store)
    path = tmp_path / f"out.{file_format}.json"
    export(store, None, None, path, format=file_format)
    data = path.read_text()
    leaked = [name for name, value in planted.items() if value in data]
    assert leaked == []
    assert secret(900) not in data and secret(901) not in data and AWS_KEY not in data
    # What is not a credential stays.
    for kept in ("Accept", "json", "api.example.com", "host.example", "bob", "5432", "page", "--verbose"):
        assert kept in data, kept
    copy = RunStore.open(tmp_path / "copy.db")
    try:
        assert import_trace(copy, path).steps_imported == 2 * len(SHAPES)
    finally:
        copy.close()


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_each_shape_is_redacted_as_a_value_and_as_text(name: str) -> None:
    value = SHAPES[name]("S3cr3tValu3x")
    assert "S3cr3tValu3x" not in repr(redact(value))
    if isinstance(value, str):
        assert REDACTED in redact_text(value)


@pytest.mark.parametrize("harmless", [
    "ping: the server speaks MCP 2025-11-25", "spinning up the pinned key-value store",
    "curl -u alice https://example.com", "<note>the password rules changed</note> <b>bold</b>",
    "the key to success", "run --token-count 5", '{"key": "Accept", "value": "json"}',
    "exit code=1", "https://h.example/?q=code&codec=h264&signal=up", "see https://h.example/p?id=5#code",
    "run --monkey banana --hotkey F5", "serve --key-file /etc/tls/server.pem", "cache_key=abc",
])
def test_ordinary_text_is_left_alone(harmless: str) -> None:
    kept = redact_text(harmless)
    assert kept.replace(REDACTED, "") == kept or "password" in harmless, kept
