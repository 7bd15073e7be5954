"""What the window says when the system keyring is slow or refuses (:mod:`.window_secrets`).

The keyring's own answer (``KeyringLocked: ...``) is quoted as it came: it names the problem for
whoever looks it up, in the keyring's words.
"""

from __future__ import annotations

from collections.abc import Iterable

from inspector.i18n import _, ngettext
from inspector.mcp.messages import N_
from inspector.store.keyring_entries import KEYRING_SERVICE
from inspector.store.servers import QUERY_ACCOUNT

READING = N_("Reading the secrets of {server} from the system keyring…")
UNREADABLE = N_("The system keyring did not give the secrets of {server} ({problem}). Unlock the keyring, then "
                "select the server again.")


def secret_names(accounts: Iterable[str]) -> str:
    """The secrets as the user named them: a header's or a variable's name, the address's query (last)."""
    ordered = sorted(accounts, key=lambda account: account == QUERY_ACCOUNT)
    return ", ".join(_("the query of its address") if account == QUERY_ACCOUNT else account.removeprefix("env:")
                     for account in ordered)


def refused_sentence(action: str, server: str, url: str, accounts: list[str], answer: str) -> str:
    """What the keyring did not do (``keep`` or ``remove``) with ``accounts`` of the server, and why."""
    names, count = secret_names(accounts), len(accounts)
    if action == "keep":
        return ngettext(
            "The system keyring did not keep the secret {names} of {server} ({problem}): it is used only until "
            "Run Inspector quits. Unlock the keyring and save the server again to keep it.",
            "The system keyring did not keep the secrets {names} of {server} ({problem}): they are used only until "
            "Run Inspector quits. Unlock the keyring and save the server again to keep them.",
            count).format(names=names, server=server, problem=answer)
    entries = ", ".join(f"“{url} {account}”" for account in accounts)
    return ngettext(
        "The system keyring did not remove the secret {names} of {server} ({problem}): it is still in the keyring "
        "(service {service}, entry {entries}).",
        "The system keyring did not remove the secrets {names} of {server} ({problem}): they are still in the "
        "keyring (service {service}, entries {entries}).",
        count).format(names=names, server=server, problem=answer, service=KEYRING_SERVICE, entries=entries)


__all__ = ["READING", "UNREADABLE", "refused_sentence", "secret_names"]
