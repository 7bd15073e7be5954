"""What the command line says when the system keyring refuses: a secret it did not keep, one it did
not remove, one it would not give. Each ends the command as ``failed`` (exit status 1) with a
sentence naming the keyring's answer (``KeyringLocked: ...``). A secret not kept undoes the change
(``servers set`` and ``servers import`` change nothing: cli/server_saving.py); one not removed does not
(a server removed, or replaced by one imported, stays so) and the sentence says it is still there.
A keyring that is missing altogether is not a refusal: ``servers set`` says once that the value was not
kept, as before.
"""

from __future__ import annotations

from dataclasses import dataclass

from inspector.i18n import N_
from inspector.i18n.messages import NP_, Message
from inspector.store.keyring_words import Sentences, longest_entry, named_secrets, not_put_back, not_removed, too_long
from inspector.store.secrets import SecretKeeper, system_secret_keeper

from .common import CommandError


class WrappedKeeper:
    """A :class:`SecretKeeper` over another (the system's, where none is given): whether there is a keyring, and
    its last answer, are the other's."""

    def __init__(self, keeper: SecretKeeper | None = None) -> None:
        self._keeper = keeper if keeper is not None else system_secret_keeper()

    @property
    def available(self) -> bool:
        return self._keeper.available

    @property
    def problem(self) -> str | None:
        return self._keeper.problem


class NotingKeeper(WrappedKeeper):
    """A :class:`SecretKeeper` that notes what the keyring refused: (``keep``, ``remove`` or ``read``,
    the server's key, the account, the keyring's answer)."""

    def __init__(self, keeper: SecretKeeper | None = None) -> None:
        super().__init__(keeper)
        self.refused: list[tuple[str, str, str, str]] = []

    def save(self, server_url: str, header: str, value: str) -> bool:
        kept = self._keeper.save(server_url, header, value)
        self._note("keep", server_url, header, kept)
        return kept

    def load(self, server_url: str, header: str) -> str | None:
        value = self._keeper.load(server_url, header)
        self._note("read", server_url, header, self._keeper.problem is None)
        return value

    def delete(self, server_url: str, header: str) -> bool:
        gone = self._keeper.delete(server_url, header)
        self._note("remove", server_url, header, gone)
        return gone

    def _note(self, action: str, url: str, account: str, done: bool) -> None:
        answer = self._keeper.problem
        if not done and answer is not None:
            self.refused.append((action, url, account, answer))

    def accounts(self, action: str, url: str) -> tuple[list[str], str | None]:
        """The accounts of ``url`` the keyring refused to ``action``, and its (last) answer."""
        found = [(account, answer) for done, key, account, answer in self.refused if done == action and key == url]
        return [account for account, _answer in found], (found[-1][1] if found else None)


@dataclass(frozen=True)
class NotPutBack:
    """An entry a change wrote that the keyring would not put back as the change was undone (its answer)."""

    server_url: str
    account: str
    answer: str


def not_put_back_sentences(missed: list[NotPutBack], names: dict[str, str]) -> list[Message]:
    """A sentence per server (``names``: how each is shown, by its key) of the entries the keyring would not put
    back: which, and that they may hold the values the command gave (never the values)."""
    said = []
    for url in dict.fromkeys(entry.server_url for entry in missed):
        accounts = [entry.account for entry in missed if entry.server_url == url]
        answer = next(entry.answer for entry in reversed(missed) if entry.server_url == url)
        said.append(not_put_back(names.get(url, url), accounts, [f"{url} {account}" for account in accounts], answer))
    return said


def not_saved_error(keeper: NotingKeeper, url: str, shown: str, missed: list[NotPutBack] | None = None
                    ) -> CommandError | None:
    """The keyring refused to keep some of the secrets of the server ``url`` (``shown`` so) as it was saved,
    so nothing of the change is kept (cli/server_saving.py): the error to end with (``None``: it kept them all).
    ``missed``: the entries it then would not put back, said after (its settings only were left as they were)."""
    accounts, answer = keeper.accounts("keep", url)
    if not accounts:
        return None
    if too_long(answer) and not missed:  # no unlocking helps: the value is wrong
        return CommandError(NP_(
            "{server} was not saved: the system keyring cannot keep {names}, longer than the {most} characters one "
            "entry holds, so its settings and its secrets were left as they were. Check what was given (a key is "
            "rarely longer than a few thousand characters) and save it again.",
            "{server} was not saved: the system keyring cannot keep {names}, each longer than the {most} characters "
            "one entry holds, so its settings and its secrets were left as they were. Check what was given (a key is "
            "rarely longer than a few thousand characters) and save it again.",
            {"server": shown, **named_secrets(accounts), **longest_entry()}, "count"))
    if missed:
        return CommandError(Sentences((NP_(
            "{server} was not saved: the system keyring did not keep {names} ({problem}), so its settings were left "
            "as they were. Unlock the keyring and save it again, or save it without that secret and give it on each "
            "call.",
            "{server} was not saved: the system keyring did not keep {names} ({problem}), so its settings were left "
            "as they were. Unlock the keyring and save it again, or save it without those secrets and give them on "
            "each call.",
            {"server": shown, **named_secrets(accounts), "problem": answer}, "count"),
            *not_put_back_sentences(missed, {url: shown}))))
    return CommandError(NP_(
        "{server} was not saved: the system keyring did not keep {names} ({problem}), so its settings "
        "and its secrets were left as they were. Unlock the keyring and save it again, or save it without that "
        "secret and give it on each call.",
        "{server} was not saved: the system keyring did not keep {names} ({problem}), so its settings "
        "and its secrets were left as they were. Unlock the keyring and save it again, or save it without those "
        "secrets and give them on each call.",
        {"server": shown, **named_secrets(accounts), "problem": answer}, "count"))


def not_imported_error(keeper: NotingKeeper, servers: list[tuple[str, str]], missed: list[NotPutBack] | None = None
                       ) -> CommandError | None:
    """The keyring refused to keep some of the secrets of the servers a file imports (``servers``: key and name, in
    the file's order), so none of them was added (cli/server_saving.py): the error to end with, a sentence per
    server (``None``: it kept them all); then one per server of the entries it would not put back (``missed``)."""
    said: list[object] = []
    answers = []
    for key, name in dict(servers).items():
        accounts, answer = keeper.accounts("keep", key)
        if accounts and too_long(answer):
            said.append(NP_("The system keyring cannot keep {names} of {server}: it is longer than the {most} "
                            "characters one entry holds.", "The system keyring cannot keep {names} of {server}: they "
                            "are each longer than the {most} characters one entry holds.",
                            {**named_secrets(accounts), "server": name, **longest_entry()}, "count"))
        elif accounts:
            said.append(Message(N_("The system keyring did not keep {names} of {server} ({problem})."),
                                {**named_secrets(accounts), "server": name, "problem": answer}))
        answers += [answer] if accounts else []
    if not said:
        return None
    advice = (Message(N_("Check those values in the file (a key is rarely longer than a few thousand characters) "
                         "and import it again.")) if all(too_long(answer) for answer in answers) else
              Message(N_("Unlock the keyring and import the file again, or take those secrets out of the file and "
                         "give them on each call.")))
    left = (Message(N_("Nothing was added: the configured servers were left as they were.")) if missed else
            Message(N_("Nothing was added: the configured servers and their secrets were left as they were.")))
    return CommandError(Sentences((
        left, *said, *not_put_back_sentences(missed or [], dict(servers)), advice)))


def removal_refused(keeper: NotingKeeper, servers: list[tuple[str, str]], added: object) -> CommandError | None:
    """Servers were imported or saved (``added``: the sentence saying so), ``servers`` (key, name) in the file's
    order, with the keys of the servers they replaced: the keyring refused to remove the secrets of
    servers they replaced (or dropped): the error to end with, a sentence per server (``None``: it
    refused nothing)."""
    names = dict(servers)
    said: list[object] = []
    for key in dict.fromkeys(key for action, key, _account, _answer in keeper.refused if action == "remove"):
        accounts, answer = keeper.accounts("remove", key)
        said.append(not_removed(names.get(key, key), accounts, [f"{key} {account}" for account in accounts],
                                answer or "?"))
    return CommandError(Sentences((added, *said))) if said else None


def not_removed_error(refused: list[tuple[str, str, str]], shown: str, said: object) -> CommandError | None:
    """``refused``: what the keyring did not remove when the server ``shown`` went (the secret's name,
    its entry, the keyring's answer); ``said``: the sentence saying the server went."""
    if not refused:
        return None
    return CommandError(Sentences((said, not_removed(shown, [name for name, _entry, _answer in refused],
                                                     [entry for _name, entry, _answer in refused],
                                                     refused[-1][2]))))


def unreadable_error(keeper: NotingKeeper, url: str, shown: str, given: set[str]) -> CommandError | None:
    """The keyring would not give secrets the server ``url`` needs (not those ``given``, lower-cased,
    on the command line), and no one can be asked: the error to end with before anything is sent
    (``None``: it gave them all)."""
    accounts, answer = keeper.accounts("read", url)
    accounts = [account for account in accounts if account.lower() not in given]
    if not accounts:
        return None
    return CommandError(NP_(
        "The system keyring did not give {names} of {server} ({problem}); nothing was sent. Unlock the "
        "keyring, or give it on the command line (--header, --env, or the address with its query).",
        "The system keyring did not give {names} of {server} ({problem}); nothing was sent. Unlock the "
        "keyring, or give them on the command line (--header, --env, or the address with its query).",
        {**named_secrets(accounts), "server": shown, "problem": answer}, "count"))


__all__ = ["NotPutBack", "NotingKeeper", "not_put_back_sentences", "not_imported_error", "not_removed_error",
           "not_saved_error", "removal_refused", "unreadable_error"]
