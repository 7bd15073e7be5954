"""The servers ``servers --json`` lists, read back as a configuration file lists them: ``servers import`` of that
output (a backup, another machine) adds them again.

A server's budget, era and roots come back as listed, a command server's program, arguments, folder and
variables, and an address's headers and query (``--with-secrets`` lists their values), each secret one marked so
(``secret``: it goes to the keyring again); a value the list does not hold comes back as a value to ask for
(``${input:…}``, as VS Code's files ask): a secret variable's and a header's as ``servers --json`` lists them without
``--with-secrets``. An address's sign-in settings come back too (:mod:`.listed_signin`), its client secret where
``--with-secrets`` listed it. An address whose query is kept as a secret, listed without it, is skipped (it would be
added without its key; one configured so keeps its own), as a command listed without its credentials (``--token …``)
is where it is read (:func:`.command_line.leaves_out_credentials`).
"""

from __future__ import annotations

from typing import Any

from .messages import N_, Message

#: The format's name, as ``servers import --json`` says it.
LISTED_FORMAT = "run-inspector"


def listed_entries(listed: list[Any]) -> tuple[dict[str, Any], dict[str, Message]]:
    """The entries of ``servers --json``'s ``servers`` list, by name (an unnamed server by its address), each as an
    ``mcpServers`` entry (an item that is no object stays as it is: read, it is skipped with its reason), and the
    ones skipped here, each with its reason."""
    entries: dict[str, Any] = {}
    skipped: dict[str, Message] = {}
    for item in listed:
        if not isinstance(item, dict):
            entries[str(len(entries) + len(skipped) + 1)] = item
            continue
        name = str(item.get("name") or item.get("url"))
        if isinstance(item.get("command"), dict):
            entries[name] = {**_command_entry(item["command"]), **_kept_settings(item)}
        elif item.get("secret_query") is True and not isinstance(item.get("query"), str):
            skipped[name] = Message(N_("the query of its address is kept as a secret, which this listing leaves out "
                                       "(it would be added without it); a server configured so keeps its own "
                                       "(`servers --json --with-secrets` lists the configuration whole)"))
        else:
            entries[name] = {**_address_entry(item), **_kept_settings(item)}
    return entries, skipped


def _kept_settings(item: dict[str, Any]) -> dict[str, Any]:
    """A server's budget, era and roots as listed (the reader takes each where it is well formed)."""
    return {key: item[key] for key in ("budget_s", "era", "roots") if key in item}


def _asked(name: str) -> str:
    return "${input:" + name + "}"


def _given(setting: dict[str, Any]) -> str:
    """A header's or variable's value as listed, or the placeholder asking for it."""
    value = setting.get("value")
    return value if isinstance(value, str) else _asked(setting["name"])


def _named(settings: Any) -> list[dict[str, Any]]:
    return [setting for setting in settings or () if isinstance(setting, dict) and isinstance(setting.get("name"), str)]


def _command_entry(command: dict[str, Any]) -> dict[str, Any]:
    entry: dict[str, Any] = {"type": "stdio", "command": command.get("program"), "args": command.get("args", [])}
    if command.get("cwd") is not None:
        entry["cwd"] = command["cwd"]
    env = _named(command.get("env"))
    entry["env"] = {variable["name"]: _given(variable) for variable in env}
    entry["secret"] = [variable["name"] for variable in env if variable.get("secret")]
    return entry


def _address_entry(item: dict[str, Any]) -> dict[str, Any]:
    headers = _named(item.get("headers"))
    url, query = item.get("url"), item.get("query")
    return {"type": "sse" if item.get("transport") == "sse" else "http",
            "url": f"{url}?{query}" if isinstance(url, str) and isinstance(query, str) else url,
            "headers": {header["name"]: _given(header) for header in headers},
            "secret": [header["name"] for header in headers if header.get("secret")],
            "signin": item.get("signin")}


__all__ = ["LISTED_FORMAT", "listed_entries"]
