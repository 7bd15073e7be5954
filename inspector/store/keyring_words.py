"""What the window and the command line say when the system keyring is slow or refuses.

Each is a :class:`~inspector.i18n.messages.Message`: English in ``--json``, translated where a
person reads it. The keyring's own answer (``KeyringLocked: ...``) is quoted as it came: it names
the problem for whoever looks it up, in the keyring's words.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from inspector.i18n import N_
from inspector.i18n.messages import NP_, Count, Message

from .keyring_entries import KEYRING_SERVICE, MAX_ENTRY_CHARS, QUERY_ACCOUNT, TOO_LONG

READING = N_("Reading the secrets of {server} from the system keyring…")
UNREADABLE = N_("The system keyring did not give the secrets of {server} ({problem}). Unlock the keyring, then "
                "select the server again.")
QUERY_NAME = N_("the query in the address")
#: The keyring entry (beside :data:`QUERY_ACCOUNT`) of the query in the team's trace query service's address
#: (Settings, File › Open trace by id…); the push headers' are named by the collector's address.
TRACE_QUERY_KEY = "otlp-query"
#: Secrets named in words, by their account (or its start): the address's query, the sign-in's; whether the
#: words name more than one thing (the tokens do, in one entry).
_IN_WORDS = {"query": (QUERY_ACCOUNT, QUERY_NAME, False),
             "tokens": ("signin tokens ", N_("the sign-in's tokens"), True),
             "client_secret": ("signin client-secret ", N_("the sign-in's client secret"), False)}


def secret_names(accounts: Iterable[str]) -> Message:
    """The secrets as the user named them, as the object of a sentence ("did not keep {names} of
    {server}"): a header's or a variable's name as it is (``env:NAME`` by its name) after "the secret",
    the address's query and a sign-in's tokens and client secret in words (after them), the last
    joined by "and"."""
    accounts = list(accounts)
    names = [account.removeprefix("env:") for account in accounts
             if not any(account.startswith(start) for start, _words, _many in _IN_WORDS.values())]
    parts = [NP_("the secret {names}", "the secrets {names}", {"names": ", ".join(names), "count": len(names)},
                 "count")] if names else []
    parts += [Message(words) for start, words, _many in _IN_WORDS.values()
              if any(account.startswith(start) for account in accounts)]
    if not parts:
        return Message("")
    *some, last = parts
    return _listed(some, N_("{some} and {last}"), last) if some else last


def _listed(parts: list[Message], template: str, last: Message) -> Message:
    """``parts`` joined by commas, then ``last`` after them as ``template`` says ("and")."""
    some = parts[-1]
    for part in reversed(parts[:-1]):
        some = Message("{first}, {rest}", {"first": part, "rest": some})
    return Message(template, {"some": some, "last": last})


def secret_count(accounts: Iterable[str]) -> int:
    """How many secrets :func:`secret_names` names, for the words after it ("it is" or "they are"):
    the sign-in's tokens count as more than one."""
    accounts = list(accounts)
    return len(accounts) + sum(1 for start, _words, many in _IN_WORDS.values()
                               if many and any(account.startswith(start) for account in accounts))


def named_secrets(accounts: Iterable[str]) -> dict[str, object]:
    """The ``names`` and ``count`` of a sentence about ``accounts`` (:func:`secret_names`, :func:`secret_count`)."""
    accounts = list(accounts)
    return {"names": secret_names(accounts), "count": secret_count(accounts)}


def too_long(answer: object) -> bool:
    """The keyring's answer is that the value is too long for an entry (it was never asked): no unlocking helps."""
    return answer == TOO_LONG


def longest_entry() -> dict[str, object]:
    """The ``most`` of a sentence saying a value is too long for a keyring entry."""
    return {"most": Count(MAX_ENTRY_CHARS)}


def kept_for_now_too_long(server: str, accounts: list[str]) -> Message:
    """``accounts`` of ``server`` (in the window) are too long for the keyring: used until the window quits."""
    return NP_("The system keyring cannot keep {names} of {server}: it is longer than the {most} characters one "
               "entry holds, and is used only until Run Inspector quits. Check what was pasted (a key is rarely "
               "longer than a few thousand characters) and save it again.",
               "The system keyring cannot keep {names} of {server}: they are each longer than the {most} characters "
               "one entry holds, and are used only until Run Inspector quits. Check what was pasted (a key is rarely "
               "longer than a few thousand characters) and save them again.",
               {**named_secrets(accounts), "server": server, **longest_entry()}, "count")


def refused_message(action: str, server: str, url: str, accounts: list[str], answer: str) -> Message:
    """What the keyring did not do (``keep`` or ``remove``) with ``accounts`` of the server in the
    window, and why."""
    params = {**named_secrets(accounts), "server": server, "problem": answer}
    if action == "keep" and too_long(answer):
        return kept_for_now_too_long(server, accounts)
    if action == "keep":
        return NP_("The system keyring did not keep {names} of {server} ({problem}): it is used only "
                   "until Run Inspector quits. Unlock the keyring and save the server again to keep it.",
                   "The system keyring did not keep {names} of {server} ({problem}): they are used only "
                   "until Run Inspector quits. Unlock the keyring and save the server again to keep them.",
                   params, "count")
    return not_removed(server, accounts, [f"{url} {account}" for account in accounts], answer)


def push_header_refusal(action: str, collector: str, key: str, accounts: list[str], answer: str) -> Message:
    """What the keyring did not do with the team push headers' secrets, or the query of the trace query
    service's address (Settings), and why."""
    if action != "keep":
        return not_removed(collector, accounts, [f"{key} {account}" for account in accounts], answer)
    if too_long(answer):
        return kept_for_now_too_long(collector, accounts)
    if key == TRACE_QUERY_KEY:
        return Message(N_("The system keyring did not keep the query of the trace query service's address {server} "
                          "({problem}): it is sent only until Run Inspector quits. Unlock the keyring and save the "
                          "address again to keep it."), {"server": collector, "problem": answer})
    return NP_("The system keyring did not keep {names} of the team's collector {server} ({problem}): it "
               "is sent only until Run Inspector quits. Unlock the keyring and save the settings again to keep it.",
               "The system keyring did not keep {names} of the team's collector {server} ({problem}): "
               "they are sent only until Run Inspector quits. Unlock the keyring and save the settings again to "
               "keep them.",
               {**named_secrets(accounts), "server": collector, "problem": answer},
               "count")


def model_key_refusal(action: str, place: str, key: str, accounts: list[str], answer: str) -> Message:
    """What the keyring did not do with a model's API key (the Play tab), and why."""
    if action != "keep":
        return not_removed(place, accounts, [f"{key} {account}" for account in accounts], answer)
    if too_long(answer):
        return Message(N_("The system keyring cannot keep the API key of the model at {server}: it is longer than the "
                          "{most} characters one entry holds, and is used only until Run Inspector quits. Check what "
                          "was pasted (a key is rarely longer than a few thousand characters) and type it again."),
                       {"server": place, **longest_entry()})
    return Message(N_("The system keyring did not keep the API key of the model at {server} ({problem}): it is used "
                      "only until Run Inspector quits. Unlock the keyring and type the key again to keep it."),
                   {"server": place, "problem": answer})


PUSH_UNREADABLE = N_("The system keyring did not give the secrets of the team's collector {server} ({problem}): no "
                     "run is sent to it until it does. Unlock the keyring, then save the settings again.")
#: The Play tab's words for a model key the keyring would not give (and how to go on).
KEY_UNREADABLE = N_("The system keyring did not give the API key of the model at {server} ({problem}). Type the key, "
                    "or unlock the keyring and press Play again.")
KEY_READING = N_("The API key of the model at {server} is being read from the system keyring; the run starts once "
                 "it is read.")


def not_removed(server: str, accounts: list[str], entries: list[str], answer: str) -> Message:
    """The keyring did not remove ``accounts`` of the server: they are still there, as ``entries``."""
    return NP_("The system keyring did not remove {names} of {server} ({problem}): it is still in the "
               "keyring (service {service}, {entries}).",
               "The system keyring did not remove {names} of {server} ({problem}): they are still in the "
               "keyring (service {service}, {entries}).",
               {**named_secrets(accounts), "server": server, "problem": answer, **_where(entries)}, "count")


def not_put_back(server: str, accounts: list[str], entries: list[str], answer: str) -> Message:
    """A change was undone, but the keyring did not put back ``accounts`` of the server (as ``entries``): they may
    hold the values the change gave."""
    return NP_("The system keyring did not put back {names} of {server} ({problem}): it may hold the value given to "
               "this command rather than the one before (service {service}, {entries}). Save the server again once "
               "the keyring answers.",
               "The system keyring did not put back {names} of {server} ({problem}): they may hold the values given "
               "to this command rather than those before (service {service}, {entries}). Save the server again once "
               "the keyring answers.",
               {**named_secrets(accounts), "server": server, "problem": answer, **_where(entries)}, "count")


def _where(entries: list[str]) -> dict[str, object]:
    """The ``service`` and ``entries`` of a sentence naming keyring entries."""
    return {"service": KEYRING_SERVICE, "entries": NP_("entry {entries}", "entries {entries}", {
        "entries": ", ".join(f"“{entry}”" for entry in entries), "count": len(entries)}, "count")}


NO_ANSWER = N_("no answer within {seconds} s")


def unwritten_message(server: str, accounts: list[str], answer: object) -> Message:
    """Run Inspector quit before the keyring wrote (kept or removed) ``accounts`` of the server or
    place ``server``: ``answer`` is the keyring's, or :data:`NO_ANSWER`."""
    return NP_("When Run Inspector quit, the system keyring had not written {names} of {server} "
               "({problem}): it may be as it was before. Unlock the keyring and save it again.",
               "When Run Inspector quit, the system keyring had not written {names} of {server} "
               "({problem}): they may be as they were before. Unlock the keyring and save them again.",
               {**named_secrets(accounts), "server": server, "problem": answer},
               "count")


@dataclass(frozen=True)
class Sentences:
    """Sentences said together (``str()`` the English, joined; translated one by one)."""

    sentences: tuple[object, ...]

    def __str__(self) -> str:
        return " ".join(str(sentence) for sentence in self.sentences)


__all__ = ["KEY_READING", "KEY_UNREADABLE", "NO_ANSWER", "PUSH_UNREADABLE", "QUERY_NAME", "READING", "TRACE_QUERY_KEY",
           "UNREADABLE", "Sentences", "model_key_refusal", "not_removed", "push_header_refusal", "refused_message",
           "kept_for_now_too_long", "longest_entry", "named_secrets", "not_put_back", "secret_count", "secret_names",
           "too_long", "unwritten_message"]
