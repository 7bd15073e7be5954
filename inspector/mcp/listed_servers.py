"""The servers ``servers --json`` lists, read back as a configuration file lists them: ``servers import`` of that
output (a backup, another machine) adds them again.

A command server's program, arguments, folder and plain variables come back as listed; what the list never holds
comes back as a value to ask for (``${input:…}``, as VS Code's files ask): a secret variable's value and every header's
(their values are never printed). A command listed without its credentials (``--token …``, as ``servers --json``
lists it without ``--with-secrets``) is refused where it is read (:func:`.command_line.leaves_out_credentials`).
"""

from __future__ import annotations

from typing import Any

#: The format's name, as ``servers import --json`` says it.
LISTED_FORMAT = "run-inspector"


def listed_entries(listed: list[Any]) -> dict[str, Any]:
    """The entries of ``servers --json``'s ``servers`` list, by name (an unnamed server by its address), each as an
    ``mcpServers`` entry; an item that is no object stays as it is (read, it is skipped with its reason)."""
    entries: dict[str, Any] = {}
    for item in listed:
        if not isinstance(item, dict):
            entries[str(len(entries) + 1)] = item
            continue
        name = item.get("name") or item.get("url")
        entries[str(name)] = _command_entry(item["command"]) if isinstance(item.get("command"), dict) else (
            _address_entry(item))
    return entries


def _asked(name: str) -> str:
    return "${input:" + name + "}"


def _command_entry(command: dict[str, Any]) -> dict[str, Any]:
    entry: dict[str, Any] = {"type": "stdio", "command": command.get("program"), "args": command.get("args", [])}
    if command.get("cwd") is not None:
        entry["cwd"] = command["cwd"]
    env = [variable for variable in command.get("env") or () if isinstance(variable, dict)
           and isinstance(variable.get("name"), str)]
    entry["env"] = {variable["name"]: variable["value"] if not variable.get("secret")
                    and isinstance(variable.get("value"), str) else _asked(variable["name"]) for variable in env}
    return entry


def _address_entry(item: dict[str, Any]) -> dict[str, Any]:
    headers = [header["name"] for header in item.get("headers") or () if isinstance(header, dict)
               and isinstance(header.get("name"), str)]
    return {"type": "sse" if item.get("transport") == "sse" else "http", "url": item.get("url"),
            "headers": {name: _asked(name) for name in headers}}


__all__ = ["LISTED_FORMAT", "listed_entries"]
