"""A server's kept secrets leave the keyring with it: removing the server forgets its secret header
values, its command's secret variables and its address's query (they stayed in the keyring for
ever), and a secret header that a save drops, renames or makes plain leaves too. Against the real
keyring code on a keyring backend whose entries are a file."""

from __future__ import annotations

from pathlib import Path

from inspector.store import RunStore, ServerRegistry
from inspector.store.secrets import system_secret_keeper
from inspector.store.servers import CommandSetting, EnvSetting
from tests.support.file_keyring import FileKeyring

URL = "http://127.0.0.1:9/mcp"
OTHER = "http://127.0.0.1:9/other"
COMMAND = "stdio:notes"


def _registry(store: RunStore) -> ServerRegistry:
    return ServerRegistry(store.db, system_secret_keeper())


def test_removing_a_server_forgets_every_secret_kept_for_it(tmp_path: Path, file_keyring: FileKeyring) -> None:
    with RunStore.open(tmp_path / "runs.db") as store:
        registry = _registry(store)
        registry.save_server(URL, headers={"Authorization": "Bearer t0k3n", "X-Team": "blue", "X-Tenant": "acme-9"},
                             secret={"X-Tenant"}, query="api_key=k3y")
        registry.save_server(COMMAND, name="notes", command=CommandSetting(
            "notes-server", env=(EnvSetting("API_TOKEN", True, "s3cr3t"), EnvSetting("MODE", False, "fast"))))
        registry.save_server(OTHER, headers={"Authorization": "Bearer 0ther"})
        assert set(file_keyring.entries()) == {f"{URL} Authorization", f"{URL} X-Tenant", f"{URL} ?query",
                                               f"{COMMAND} env:API_TOKEN", f"{OTHER} Authorization"}
        registry.remove_server(URL)
        registry.remove_server(COMMAND)
        # Only the server still configured keeps its secret.
        assert file_keyring.entries() == {f"{OTHER} Authorization": "Bearer 0ther"}
        assert registry.headers_for(OTHER) == {"Authorization": "Bearer 0ther"}


def test_a_secret_header_a_save_drops_leaves_the_keyring(tmp_path: Path, file_keyring: FileKeyring) -> None:
    with RunStore.open(tmp_path / "runs.db") as store:
        registry = _registry(store)
        registry.save_server(URL, headers={"Authorization": "Bearer old", "X-Api-Key": "k-old"})
        # `servers set` with other headers: the ones given replace the stored ones.
        registry.save_server(URL, headers={"X-Api-Key": "k-new"})
        assert file_keyring.entries() == {f"{URL} X-Api-Key": "k-new"}
        # The window saving without it (replace): none is left.
        registry.save_server(URL, headers={"X-Team": "blue"}, replace=True)
        assert file_keyring.entries() == {}
        assert registry.headers_for(URL) == {"X-Team": "blue"}


def test_a_header_no_longer_secret_or_renamed_leaves_its_old_entry(tmp_path: Path,
                                                                   file_keyring: FileKeyring) -> None:
    with RunStore.open(tmp_path / "runs.db") as store:
        registry = _registry(store)
        registry.save_server(URL, headers={"X-Tenant": "acme-9", "authorization": "Bearer old"}, secret={"X-Tenant"})
        # Saved again with the header plain (not marked secret): its value is in the database now.
        registry.save_server(URL, headers={"X-Tenant": "acme-9", "authorization": "Bearer old"})
        assert file_keyring.entries() == {f"{URL} authorization": "Bearer old"}
        # A secret header of the same name in another spelling replaces it, and its entry.
        registry.add_secret_header(URL, "Authorization", "Bearer new")
        assert file_keyring.entries() == {f"{URL} Authorization": "Bearer new"}
        assert registry.headers_for(URL) == {"X-Tenant": "acme-9", "Authorization": "Bearer new"}


def test_a_replaced_command_leaves_the_secret_variables_it_no_longer_has(tmp_path: Path,
                                                                         file_keyring: FileKeyring) -> None:
    with RunStore.open(tmp_path / "runs.db") as store:
        registry = _registry(store)
        registry.save_server(COMMAND, command=CommandSetting(
            "notes-server", env=(EnvSetting("API_TOKEN", True, "s3cr3t"), EnvSetting("DB_PASSWORD", True, "pw"))))
        # The window keeps a secret value it does not show by giving the variable without one.
        registry.save_server(COMMAND, replace=True, command=CommandSetting(
            "notes-server", env=(EnvSetting("API_TOKEN", True, None),)))
        assert file_keyring.entries() == {f"{COMMAND} env:API_TOKEN": "s3cr3t"}
