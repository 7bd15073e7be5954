"""Server health: a cancel is never a fault; secret header values never reach the file."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from inspector.store import RunStore, ServerRegistry
from inspector.store.secrets import is_secret_header
from tests.support.collector_headers import COLLECTOR_PLAIN_HEADERS, COLLECTOR_SECRET_HEADERS


class MemoryKeeper:
    available = True

    def __init__(self) -> None:
        self.kept: dict[tuple[str, str], str] = {}

    def save(self, server_url: str, header: str, value: str) -> bool:
        self.kept[(server_url, header)] = value
        return True

    def load(self, server_url: str, header: str) -> str | None:
        return self.kept.get((server_url, header))

    def delete(self, server_url: str, header: str) -> bool:
        self.kept.pop((server_url, header), None)
        return True


def test_cancelled_operations_are_not_failures_and_record_no_contact(tmp_path: Path) -> None:
    with RunStore.open(tmp_path / "runs.db") as store:
        registry = ServerRegistry(store.db)
        url = "http://127.0.0.1:9/mcp"
        registry.record_operation(url, "ok", 12.5)
        contact = registry.get(url).last_contact_at
        for _ in range(3):
            registry.record_operation(url, "cancelled", 999.0)
        registry.record_operation(url, "failed", 5000.0)
        server = registry.get(url)
        assert (server.ok_count, server.failed_count, server.cancelled_count) == (1, 1, 3)
        assert server.last_latency_ms == 12.5  # neither the cancel nor the failure is "contact"
        assert server.last_contact_at == contact
        assert server.to_dict()["cancelled"] == 3


def test_a_server_seen_only_failing_has_no_contact(tmp_path: Path) -> None:
    with RunStore.open(tmp_path / "runs.db") as store:
        registry = ServerRegistry(store.db)
        registry.record_operation("http://down/mcp", "failed", None)
        (server,) = registry.all()
        assert server.last_contact_at is None and server.failed_count == 1 and server.ok_count == 0


def test_secret_header_values_never_reach_the_database_file(tmp_path: Path) -> None:
    path = tmp_path / "runs.db"
    keeper = MemoryKeeper()
    with RunStore.open(path) as store:
        registry = ServerRegistry(store.db, keeper)
        registry.save_server("http://a/mcp", name="A", budget_s=45,
                             headers={"Authorization": "Bearer TOPSECRET-1", "X-Api-Key": "TOPSECRET-2",
                                      "X-Tenant": "acme"})
        server = registry.get("http://a/mcp")
        assert [(h.name, h.secret, h.value) for h in server.headers] == [
            ("Authorization", True, None), ("X-Api-Key", True, None), ("X-Tenant", False, "acme")]
        assert registry.headers_for("http://a/mcp") == {
            "Authorization": "Bearer TOPSECRET-1", "X-Api-Key": "TOPSECRET-2", "X-Tenant": "acme"}
        assert server.budget_s == 45 and server.name == "A"
    for file in tmp_path.iterdir():
        assert b"TOPSECRET" not in file.read_bytes(), file.name


def test_without_a_keyring_secrets_are_asked_for(tmp_path: Path) -> None:
    with RunStore.open(tmp_path / "runs.db") as store:
        registry = ServerRegistry(store.db)  # no keeper: nothing can keep a secret
        registry.save_server("http://a/mcp", headers={"Authorization": "Bearer gone"})
        asked: list[str] = []
        headers = registry.headers_for("http://a/mcp", ask=lambda name: asked.append(name) or "Bearer typed")
        assert asked == ["Authorization"]
        assert headers == {"Authorization": "Bearer typed"}
        assert registry.headers_for("http://a/mcp") == {}


def test_secret_header_names() -> None:
    for name in ("Authorization", "Proxy-Authorization", "Cookie", "X-API-Key", "X-Auth-Token", "api_key",
                 *COLLECTOR_SECRET_HEADERS):
        assert is_secret_header(name), name
    for name in ("Accept", "X-Tenant", "User-Agent", *COLLECTOR_PLAIN_HEADERS):
        assert not is_secret_header(name), name


def test_a_collectors_credential_header_is_kept_out_of_the_database_by_its_name(tmp_path: Path) -> None:
    """x-honeycomb-team, uptrace-dsn, x-instana-key and signoz-ingestion-key were written to the database in
    clear, the secret box left unticked: their names said nothing the rule knew."""
    path = tmp_path / "runs.db"
    headers = {name: f"VALUE-{number}-4711" for number, name in enumerate(COLLECTOR_SECRET_HEADERS)}
    with RunStore.open(path) as store:
        registry = ServerRegistry(store.db, MemoryKeeper())
        registry.save_server("http://a/mcp", headers={**headers, "x-honeycomb-dataset": "shown"})
        server = registry.get("http://a/mcp")
        assert [(h.name, h.secret) for h in server.headers] == [
            *((name, True) for name in headers), ("x-honeycomb-dataset", False)]
        assert registry.headers_for("http://a/mcp") == {**headers, "x-honeycomb-dataset": "shown"}
    for file in tmp_path.iterdir():
        assert b"-4711" not in file.read_bytes(), file.name


#: Names APIs take keys in besides Authorization, which the rule did not know: `servers set --header
#: "X-Auth: …"` wrote the key to the database in clear.
API_KEY_HEADERS = ("X-Auth", "Proxy-Auth", "api_auth", "Authentication", "X-Authentication", "X-Passphrase",
                   "X-Passcode", "DB_PASSWD")


def test_an_api_key_header_of_an_unusual_name_is_kept_out_of_the_database(tmp_path: Path) -> None:
    headers = {name: f"VALUE-{number}-4711" for number, name in enumerate(API_KEY_HEADERS)}
    plain = {"X-Auth-Email": "ann@example.com", "X-Author": "ann"}
    with RunStore.open(tmp_path / "runs.db") as store:
        registry = ServerRegistry(store.db, MemoryKeeper())
        registry.save_server("http://a/mcp", headers={**headers, **plain})
        server = registry.get("http://a/mcp")
        assert [(h.name, h.secret) for h in server.headers] == [
            *((name, True) for name in headers), *((name, False) for name in plain)]
        assert registry.headers_for("http://a/mcp") == {**headers, **plain}
    for file in tmp_path.iterdir():
        assert b"-4711" not in file.read_bytes(), file.name


def test_a_header_marked_secret_is_kept_out_whatever_its_name(tmp_path: Path) -> None:
    path = tmp_path / "runs.db"
    with RunStore.open(path) as store:
        registry = ServerRegistry(store.db, MemoryKeeper())
        registry.save_server("http://a/mcp", headers={"X-Tenant-Pin": "PIN-4711", "X-Plain": "visible"},
                             secret=["x-tenant-pin"])
        server = registry.get("http://a/mcp")
        assert [(h.name, h.secret, h.value) for h in server.headers] == [
            ("X-Tenant-Pin", True, None), ("X-Plain", False, "visible")]
        assert registry.headers_for("http://a/mcp")["X-Tenant-Pin"] == "PIN-4711"
    for file in tmp_path.iterdir():
        assert b"PIN-4711" not in file.read_bytes(), file.name


def test_tool_errors_are_a_fourth_count_and_still_contact(tmp_path: Path) -> None:
    with RunStore.open(tmp_path / "runs.db") as store:
        registry = ServerRegistry(store.db)
        url = "http://127.0.0.1:9/mcp"
        registry.record_operation(url, "failed", None)
        registry.record_operation(url, "tool_error", 40.0)
        registry.record_operation(url, "tool_error", 30.0)
        server = registry.get(url)
        assert (server.ok_count, server.tool_error_count, server.failed_count, server.cancelled_count) == (0, 2, 1, 0)
        # The server answered: a tool error is contact, with its latency.
        assert server.last_contact_at is not None and server.last_latency_ms == 30.0
        assert server.to_dict()["tool_errors"] == 2 and server.to_dict()["ok"] == 0


def test_a_removed_server_is_forgotten_but_its_runs_stay(tmp_path: Path) -> None:
    with RunStore.open(tmp_path / "runs.db") as store:
        registry = ServerRegistry(store.db)
        url = "http://127.0.0.1:9/mcp"
        registry.save_server(url, name="gone soon")
        registry.record_operation(url, "ok", 3.0)
        run_id = store.start_run("tools/call echo", "live", url)
        registry.remove_server(url)
        assert registry.get(url) is None and registry.all() == []
        assert store.get_run(run_id).server == url


def test_a_replacing_save_sets_exactly_the_given_settings(tmp_path: Path) -> None:
    with RunStore.open(tmp_path / "runs.db") as store:
        registry = ServerRegistry(store.db)
        url = "http://127.0.0.1:9/mcp"
        registry.save_server(url, name="named", budget_s=7, headers={"X-Team": "a"})
        registry.save_server(url, headers={})  # a plain update keeps what is not given
        assert registry.get(url).name == "named" and registry.get(url).budget_s == 7
        registry.save_server(url, name=None, budget_s=None, headers={}, replace=True)
        server = registry.get(url)
        assert (server.name, server.budget_s, server.headers) == (None, None, ())


def test_roots_are_kept_per_server_none_by_default(tmp_path: Path) -> None:
    with RunStore.open(tmp_path / "runs.db") as store:
        registry = ServerRegistry(store.db)
        url = "http://127.0.0.1:9/mcp"
        registry.save_server(url, name="a")
        assert registry.settings(url).roots == () and registry.get(url).roots == ()
        registry.save_server(url, roots=("file:///srv/one", "file:///srv/two"))
        assert registry.settings(url).roots == ("file:///srv/one", "file:///srv/two")
        registry.save_server(url, budget_s=5)  # another setting keeps the roots
        assert registry.get(url).roots == ("file:///srv/one", "file:///srv/two")
        assert registry.get(url).to_dict()["roots"] == ["file:///srv/one", "file:///srv/two"]
        registry.save_server(url, roots=())
        assert registry.settings(url).roots == ()
        registry.save_server(url, roots=("file:///srv/one",))
        registry.save_server(url, name="a", replace=True)  # the window's edit: exactly what it gives
        assert registry.settings(url).roots == ()


def test_an_entry_whose_headers_do_not_read_back_still_lists_and_keeps_them(tmp_path: Path) -> None:
    """Headers another tool wrote as something else than JSON ended `servers`, every `call` and the
    window's start in a JSONDecodeError traceback; now they read as none (as roots and commands do)."""
    path = tmp_path / "runs.db"
    with RunStore.open(path) as store:
        ServerRegistry(store.db).save_server("http://127.0.0.1:9/mcp", name="good")
    conn = sqlite3.connect(path)
    with conn:
        for url, name, headers in (("http://127.0.0.1:8/mcp", "edited", "{not json"),
                                   ("http://127.0.0.1:7/mcp", "odd", "[1, {}]")):
            conn.execute("INSERT INTO servers (url, name, headers) VALUES (?, ?, ?)", (url, name, headers))
    conn.close()
    with RunStore.open(path) as store:
        registry = ServerRegistry(store.db)
        assert [(s.name, s.headers) for s in registry.all()] == [("odd", ()), ("edited", ()), ("good", ())]
        assert registry.find("edited").headers == () and registry.headers_for("http://127.0.0.1:8/mcp") == {}
        registry.save_server("http://127.0.0.1:8/mcp", name="edited", budget_s=30)
        kept = store.db.execute("SELECT headers FROM servers WHERE name = 'edited'").fetchone()[0]
    assert kept == "{not json"  # saving with no headers keeps the column as it was
