"""The keyring's refusals name the secrets as a sentence's object, in English and German, for any mix:
a header, two headers, a header and the address's query, only the sign-in's client secret, its tokens."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from inspector import i18n
from inspector.cli.keyring_refusals import NotingKeeper, not_saved_error, unreadable_error
from inspector.i18n.messages import translate
from inspector.store.keyring_words import (
    TRACE_QUERY_KEY,
    not_removed,
    push_header_refusal,
    refused_message,
    unwritten_message,
)

_MIXES = [
    (["Authorization"], "the secret Authorization", "das Geheimnis Authorization", False),
    (["Authorization", "env:API_TOKEN"], "the secrets Authorization, API_TOKEN",
     "die Geheimnisse Authorization, API_TOKEN", True),
    (["X-Api-Key", "?query"], "the secret X-Api-Key and the query in the address",
     "das Geheimnis X-Api-Key und die Abfrage in der Adresse", True),
    (["?query"], "the query in the address", "die Abfrage in der Adresse", False),
    (["signin client-secret https://id.example/token"], "the sign-in's client secret",
     "das Client-Geheimnis der Anmeldung", False),
    (["signin tokens https://id.example/token"], "the sign-in's tokens", "die Tokens der Anmeldung", True),
    (["A", "B", "?query", "signin tokens t", "signin client-secret c"],
     "the secrets A, B, the query in the address, the sign-in's tokens and the sign-in's client secret",
     "die Geheimnisse A, B, die Abfrage in der Adresse, die Tokens der Anmeldung und das Client-Geheimnis der "
     "Anmeldung", True),
]


class _Refusing:
    available = True
    problem = "KeyringLocked: locked"

    def save(self, server_url: str, header: str, value: str) -> bool:
        return False

    def load(self, server_url: str, header: str) -> str | None:
        return None

    def delete(self, server_url: str, header: str) -> bool:
        return False


def _sentences(accounts: list[str]) -> list[object]:
    keeper = NotingKeeper(_Refusing())
    for account in accounts:
        keeper.save("https://vault.example/mcp", account, "s3cret")
        keeper.load("https://vault.example/mcp", account)
    return [refused_message("keep", "vault", "https://vault.example/mcp", accounts, "KeyringLocked: locked"),
            refused_message("remove", "vault", "https://vault.example/mcp", accounts, "KeyringLocked: locked"),
            push_header_refusal("keep", "https://otel.example", "otlp", accounts, "KeyringLocked: locked"),
            unwritten_message("vault", accounts, "KeyringLocked: locked"),
            not_saved_error(keeper, "https://vault.example/mcp", "vault").sentence,
            unreadable_error(keeper, "https://vault.example/mcp", "vault", set()).sentence]


@pytest.fixture
def german() -> Iterator[None]:
    assert i18n.set_language("de") == "de", "the German catalogue is not compiled (make translations)"
    yield
    i18n.set_language("en")


@pytest.mark.parametrize(("accounts", "english", "_german", "many"), _MIXES)
def test_the_secrets_are_the_object_of_each_english_sentence(accounts, english, _german, many) -> None:
    keep, remove, push, unwritten, unsaved, unread = (str(sentence) for sentence in _sentences(accounts))
    assert keep.startswith(f"The system keyring did not keep {english} of vault (KeyringLocked: locked): "
                           + ("they are used" if many else "it is used")), keep
    assert remove.startswith(f"The system keyring did not remove {english} of vault (KeyringLocked: locked): "
                             + ("they are still" if many else "it is still")), remove
    entries = len(accounts)
    assert ("(service run-inspector, entries “" if entries > 1 else "(service run-inspector, entry “") in remove, remove
    assert push.startswith(f"The system keyring did not keep {english} of the team's collector https://otel.example"
                           f" (KeyringLocked: locked): " + ("they are sent" if many else "it is sent")), push
    assert f"had not written {english} of vault (" in unwritten, unwritten
    assert f"vault was not saved: the system keyring did not keep {english} (KeyringLocked: locked)" in unsaved
    assert unread.startswith(f"The system keyring did not give {english} of vault (KeyringLocked: locked); "), unread
    for said in (keep, remove, push, unwritten, unsaved, unread):
        assert "the secret the " not in said and "the secrets the " not in said and " its " not in said.split(
            "(")[0], said


@pytest.mark.parametrize(("accounts", "_english", "german_names", "many"), _MIXES)
def test_the_secrets_are_the_object_of_each_german_sentence(german, accounts, _english, german_names, many) -> None:
    keep, remove, push, unwritten, unsaved, unread = (translate(sentence) for sentence in _sentences(accounts))
    assert keep.startswith(f"Der System-Schlüsselbund hat {german_names} von vault nicht behalten "
                           f"(KeyringLocked: locked): " + ("Die Werte werden" if many else "Der Wert wird")), keep
    assert remove.startswith(f"Der System-Schlüsselbund hat {german_names} von vault nicht entfernt "
                             f"(KeyringLocked: locked): " + ("Die Werte sind" if many else "Der Wert ist")), remove
    assert ("Einträge “" if len(accounts) > 1 else "Eintrag “") in remove, remove
    assert push.startswith(f"Der System-Schlüsselbund hat {german_names} des Collectors des Teams "
                           f"https://otel.example nicht behalten"), push
    assert f"hatte der System-Schlüsselbund {german_names} von vault nicht geschrieben" in unwritten, unwritten
    assert f"Der System-Schlüsselbund hat {german_names} nicht behalten (KeyringLocked: locked)" in unsaved, unsaved
    assert unread.startswith(f"Der System-Schlüsselbund hat {german_names} von vault nicht herausgegeben"), unread
    for said in (keep, remove, push, unwritten, unsaved, unread):
        assert "Geheimnis die " not in said and "Geheimnis das " not in said and "seiner" not in said, said


def test_the_trace_query_services_query_keeps_its_own_sentence() -> None:
    said = str(push_header_refusal("keep", "https://q.example", TRACE_QUERY_KEY, ["?query"], "KeyringLocked: x"))
    assert said.startswith("The system keyring did not keep the query of the trace query service's address "), said


def test_a_removal_names_the_entries_it_left() -> None:
    said = str(not_removed("vault", ["signin tokens t"], ["u signin tokens t"], "KeyringLocked: x"))
    assert said.endswith("they are still in the keyring (service run-inspector, entry “u signin tokens t”)."), said


def test_a_value_too_long_for_an_entry_is_said_so_in_every_place_a_secret_is_kept() -> None:
    """The keyring's 'longer than 65536 characters' was said as any refusal, with 'Unlock the keyring': the team's
    push headers and trace query address (Settings), the Play tab's model key, agent --ask-api-key."""
    from inspector.cli.agent_runs import _not_kept
    from inspector.store.keyring_entries import TOO_LONG
    from inspector.store.keyring_words import QUERY_NAME, model_key_refusal

    said = [translate(message) for message in (
        push_header_refusal("keep", "https://otel.example/v1/traces", "otlp https://otel.example", ["X-Key"], TOO_LONG),
        push_header_refusal("keep", "https://query.example", TRACE_QUERY_KEY, ["?query"], TOO_LONG),
        model_key_refusal("keep", "https://llm.example/v1", "model", ["api-key"], TOO_LONG),
        _not_kept("https://llm.example/v1", TOO_LONG))]
    assert said[0].startswith("The system keyring cannot keep the secret X-Key of https://otel.example/v1/traces: "
                              "it is longer than the 65,536 characters one entry holds")
    assert said[1].startswith(f"The system keyring cannot keep {QUERY_NAME} of https://query.example: it is longer")
    assert said[2].startswith("The system keyring cannot keep the API key of the model at https://llm.example/v1: it "
                              "is longer than the 65,536 characters one entry holds, and is used only until Run "
                              "Inspector quits. Check what was pasted")
    assert said[3] == ("The system keyring cannot keep the API key for https://llm.example/v1: it is longer than the "
                       "65,536 characters one entry holds, and is used for this run only. Check what was pasted (a "
                       "key is rarely longer than a few thousand characters).")
    assert not any("nlock" in sentence or TOO_LONG in sentence for sentence in said), said


def test_a_value_too_long_for_an_entry_is_said_in_german(german) -> None:
    from inspector.cli.agent_runs import _not_kept
    from inspector.store.keyring_entries import TOO_LONG

    said = [translate(message) for message in (
        refused_message("keep", "vault", "http://h/mcp", ["Authorization", "X-Key"], TOO_LONG),
        _not_kept("https://llm.example/v1", TOO_LONG))]
    assert said[0] == ("Der System-Schlüsselbund kann die Geheimnisse Authorization, X-Key von vault nicht behalten: "
                       "Jeder dieser Werte ist länger als die 65.536 Zeichen, die ein Eintrag fasst, und sie werden "
                       "nur verwendet, bis Run Inspector beendet wird. Prüfen Sie, was eingefügt wurde (ein "
                       "Schlüssel ist selten länger als einige tausend Zeichen), und speichern Sie sie erneut.")
    assert said[1].startswith("Der System-Schlüsselbund kann den API-Schlüssel für https://llm.example/v1 nicht "
                              "behalten: Er ist länger als die 65.536 Zeichen")
    assert not any("longer" in sentence or "ntsperren" in sentence for sentence in said), said
