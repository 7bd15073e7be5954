"""Per-server sign-in settings (schema 7): kept with the server, the client secret in the keyring only,
the key file by its path only; an update keeps what it does not name; schema 6 databases upgrade."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from inspector.mcp.signin.model import SignInSettings
from inspector.store import SCHEMA_VERSION, RunStore, ServerRegistry, open_database, open_database_read_only
from inspector.store.schema import MIGRATIONS
from inspector.store.signin_settings import ClientKeyError, SignInSetup, StoredSignIn, overridden, read_client_key
from inspector.store.signin_vault import ProcessVault, client_secret_account, open_signin_vault
from tests.support.file_keyring import FileKeyring
from tests.support.secret_search import assert_nowhere

URL = "https://mcp.example.com/mcp"
SECRET = "CLIENT-SECRET-4711-abc"
KEY_BODY = "MIGkAgEBBDBKEYBODYthatIsSecret0123456789"
PEM = f"-----BEGIN EC PRIVATE KEY-----\n{KEY_BODY}\n-----END EC PRIVATE KEY-----\n"


def sixth_schema_database(path: Path) -> None:
    """A database as schema 6 wrote it: a configured server with headers, an era and its health."""
    conn = sqlite3.connect(path, isolation_level=None)
    for migration in MIGRATIONS[:6]:
        for statement in migration:
            conn.execute(statement)
    conn.execute("PRAGMA user_version = 6")
    conn.execute("INSERT INTO servers (url, name, budget_s, headers, transport, era) VALUES (?, 'old', 7,"
                 " '[{\"name\": \"X-Tenant\", \"secret\": false, \"value\": \"acme\"}]', 'sse', 'stateless')", (URL,))
    conn.execute("INSERT INTO server_health (url, ok_count, found_era) VALUES (?, 3, 'stateless')", (URL,))
    conn.close()


def key_file(folder: Path) -> Path:
    path = folder / "client.pem"
    path.write_text(PEM)
    return path


def test_a_sixth_schema_database_gains_signin_settings_and_keeps_its_servers(tmp_path: Path) -> None:
    path = tmp_path / "v6.db"
    sixth_schema_database(path)
    with RunStore.open(path) as store:
        assert store.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION >= 7
        registry = ServerRegistry(store.db)
        (record,) = registry.all()
        assert (record.name, record.budget_s, record.transport, record.era, record.ok_count, record.found_era) == (
            "old", 7, "sse", "stateless", 3, "stateless")
        assert registry.headers_for(URL) == {"X-Tenant": "acme"}
        signin = StoredSignIn(store.db)
        assert signin.setup(URL) == SignInSetup() and signin.all() == {} and signin.settings_for(URL) is None
        signin.save(URL, SignInSetup(client_id="cid", grant="client-credentials"))
        assert signin.setup(URL) == SignInSetup(client_id="cid", grant="client-credentials")
        assert registry.settings(URL).name == "old"
        # The columns refuse what is no grant or method.
        for column, value in (("signin_grant", "implicit"), ("signin_auth_method", "magic"),
                              ("signin_secret_kept", 2)):
            with pytest.raises(sqlite3.IntegrityError):
                store.db.execute(f"UPDATE servers SET {column} = ?", (value,))


def test_a_sixth_schema_database_read_without_upgrading_has_no_signin_settings(tmp_path: Path) -> None:
    path = tmp_path / "v6.db"
    sixth_schema_database(path)
    db = open_database_read_only(path)
    try:
        signin = StoredSignIn(db)
        assert signin.setup(URL) is None and signin.all() == {} and signin.settings_for(URL) is None
    finally:
        db.conn.close()


def test_settings_round_trip_with_the_secret_in_the_keyring_only(tmp_path: Path, file_keyring: FileKeyring) -> None:
    path = tmp_path / "runs.db"
    key = key_file(tmp_path)
    with RunStore.open(path) as store:
        ServerRegistry(store.db).save_server(URL, name="Work")
        signin = StoredSignIn(store.db, open_signin_vault())
        setup = SignInSetup("cid-1", "private_key_jwt", "https://app.example.com/client.json", "client-credentials",
                            "read write", str(key))
        assert signin.save(URL, setup, client_secret=SECRET) is True
        assert signin.setup(URL) == SignInSetup("cid-1", "private_key_jwt", "https://app.example.com/client.json",
                                                "client-credentials", "read write", str(key), True)
        assert signin.all() == {URL: signin.setup(URL)}
        assert signin.settings_for(URL) == SignInSettings(
            "cid-1", SECRET, "private_key_jwt", "https://app.example.com/client.json", "client-credentials", PEM,
            "read write")
        assert file_keyring.entries() == {client_secret_account(URL): SECRET}
        # An edit in the window (replace) keeps the sign-in settings: they are saved on their own.
        ServerRegistry(store.db).save_server(URL, name="Work 2", replace=True)
        assert signin.setup(URL).client_id == "cid-1"
    again = RunStore.open(path)  # another process: the secret from the keyring, the key read anew
    with again:
        assert StoredSignIn(again.db, open_signin_vault()).settings_for(URL).client_secret == SECRET
    assert_nowhere([SECRET, KEY_BODY], database=path)


def test_an_update_keeps_what_it_does_not_name_and_an_empty_text_clears(tmp_path: Path) -> None:
    signin = StoredSignIn(open_database(tmp_path / "runs.db"))
    signin.save(URL, SignInSetup(client_id="cid", scope="read", grant="client-credentials"))
    signin.save(URL, SignInSetup(auth_method="client_secret_basic"))
    assert signin.setup(URL) == SignInSetup("cid", "client_secret_basic", None, "client-credentials", "read")
    signin.save(URL, SignInSetup(scope="", grant=""))
    assert signin.setup(URL) == SignInSetup("cid", "client_secret_basic")
    signin.save(URL, SignInSetup(scope="write"), replace_all=True)
    assert signin.setup(URL) == SignInSetup(scope="write")
    assert signin.settings_for(URL) == SignInSettings(scope="write")


def test_a_new_secret_replaces_the_kept_one_and_forget_removes_it(tmp_path: Path, file_keyring: FileKeyring) -> None:
    with RunStore.open(tmp_path / "runs.db") as store:
        signin = StoredSignIn(store.db, open_signin_vault())
        signin.save(URL, SignInSetup(client_id="cid"), client_secret="FIRST-secret-123")
        signin.save(URL, SignInSetup(scope="x"))  # no secret given: the kept one stays
        assert signin.setup(URL).client_secret_kept and signin.settings_for(URL).client_secret == "FIRST-secret-123"
        signin.save(URL, SignInSetup(), client_secret="SECOND-secret-456")
        assert signin.settings_for(URL).client_secret == "SECOND-secret-456"
        signin.save(URL, SignInSetup(client_id="cid"), replace_all=True)  # the window: no secret kept any more
        assert not signin.setup(URL).client_secret_kept and file_keyring.entries() == {}
        signin.save(URL, SignInSetup(client_id="cid"), client_secret="THIRD-secret-789")
        signin.forget(URL)
        assert signin.setup(URL) == SignInSetup() and file_keyring.entries() == {}


def test_without_a_keyring_the_secret_lasts_for_the_process_and_is_not_marked_kept(tmp_path: Path) -> None:
    path = tmp_path / "runs.db"
    with RunStore.open(path) as store:
        vault = open_signin_vault()
        assert isinstance(vault, ProcessVault)
        signin = StoredSignIn(store.db, vault)
        assert signin.save(URL, SignInSetup(client_id="cid"), client_secret=SECRET) is False
        assert signin.setup(URL).client_secret_kept is False
        assert signin.settings_for(URL).client_secret == SECRET  # this session still has it
        assert StoredSignIn(store.db, open_signin_vault()).settings_for(URL).client_secret is None
    assert_nowhere([SECRET], database=path)


def test_a_grant_given_to_the_process_is_not_kept_with_the_server() -> None:
    with pytest.raises(ValueError, match="grant must be one of"):
        SignInSetup(grant="jwt-bearer")  # its assertion is given to each process: nothing to keep


def test_a_value_written_by_hand_that_is_not_a_setting_reads_as_unset(tmp_path: Path) -> None:
    db = open_database(tmp_path / "runs.db")
    db.conn.execute("INSERT INTO servers (url, signin_client_id, signin_scope) VALUES (?, '', 'read')", (URL,))
    assert StoredSignIn(db).setup(URL) == SignInSetup(scope="read")


def test_a_key_file_is_read_bounded_and_refused_with_a_reason(tmp_path: Path) -> None:
    assert read_client_key(key_file(tmp_path)) == PEM
    (tmp_path / "cert.pem").write_text("-----BEGIN CERTIFICATE-----\nxyz\n-----END CERTIFICATE-----\n")
    (tmp_path / "huge.pem").write_text(PEM + "x" * 70_000)
    for name, reason in (("missing.pem", "cannot be read"), ("cert.pem", "holds no PEM private key"),
                         ("huge.pem", "holds no PEM private key"), (".", "is not a regular file")):
        with pytest.raises(ClientKeyError, match=reason) as caught:
            read_client_key(tmp_path / name)
        assert "xyz" not in str(caught.value)
    signin = StoredSignIn(open_database(tmp_path / "runs.db"))
    signin.save(URL, SignInSetup(client_key_file=str(tmp_path / "gone.pem")))
    with pytest.raises(ClientKeyError, match="gone.pem"):
        signin.settings_for(URL)


def test_what_the_command_line_gives_wins_over_the_kept_settings_field_by_field() -> None:
    stored = SignInSettings("cid", SECRET, "client_secret_post", None, "client-credentials", None, "read")
    assert overridden(stored, None, grant_given=False) == stored
    assert overridden(None, SignInSettings(scope="x"), grant_given=False) == SignInSettings(scope="x")
    assert overridden(stored, SignInSettings(scope="write"), grant_given=False) == SignInSettings(
        "cid", SECRET, "client_secret_post", None, "client-credentials", None, "write")
    assert overridden(stored, SignInSettings(), grant_given=True).grant == "authorization-code"
    other = overridden(stored, SignInSettings("another-client"), grant_given=False)
    assert (other.client_id, other.client_secret) == ("another-client", None)  # never one client's secret for another


def test_a_metadata_document_is_at_an_https_address_with_a_path_or_on_this_machine() -> None:
    from inspector.store.signin_settings import metadata_url_acceptable

    for good in ("https://app.example.com/client.json", "http://127.0.0.1:8080/client.json",
                 "http://localhost/c.json", "http://[::1]:9/c"):
        assert metadata_url_acceptable(good), good
    for bad in ("http://example.com/client.json", "https://example.com", "https://example.com/", "file:///etc/passwd",
                "client.json", "https:///client.json", "https://exa mple.com/c.json", "https://[::1/c"):
        assert not metadata_url_acceptable(bad), bad


def test_what_a_setup_lacks_is_named() -> None:
    from inspector.store.signin_settings import GRANT_NEEDS_CLIENT_ID, KEY_METHOD_NEEDS_KEY, setup_problems

    assert setup_problems(SignInSetup()) == []
    assert setup_problems(SignInSetup(grant="client-credentials", auth_method="private_key_jwt")) == [
        GRANT_NEEDS_CLIENT_ID, KEY_METHOD_NEEDS_KEY]
    assert setup_problems(SignInSetup("cid", "private_key_jwt", grant="client-credentials",
                                      client_key_file="/k.pem")) == []
