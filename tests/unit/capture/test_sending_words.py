"""A push that cannot reach the collector keeps its reason in English (the outbox, ``--json``) and says
it in the reader's language where a person reads it: the Pushed column's tooltip, the command line's
line on what is still queued. Against a real closed port on 127.0.0.1."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import httpx
import pytest

from inspector.capture.sending import reason_said, send
from inspector.i18n import set_language

REFUSED_EN = ("cannot reach the collector: the connection was refused, which means nothing listens at that address "
              "and port")
REFUSED_DE = ("der Collector ist nicht erreichbar: die Verbindung wurde abgewiesen, unter dieser Adresse und an "
              "diesem Port lauscht also nichts")


@pytest.fixture
def german() -> Iterator[None]:
    set_language("de")
    yield
    set_language("en")


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def refused_reason() -> str:
    with httpx.Client(timeout=5) as client:
        delivery = send(client, f"http://127.0.0.1:{closed_port()}/v1/traces", b"{}", {})
    assert delivery.state == "retry"
    return delivery.reason


def test_the_kept_reason_stays_english_in_any_language(german) -> None:
    assert refused_reason() == REFUSED_EN


def test_a_reason_of_ours_is_said_in_the_readers_language(german) -> None:
    assert reason_said(refused_reason()) == REFUSED_DE
    assert reason_said("the collector did not answer in time") == "der Collector hat nicht rechtzeitig geantwortet"
    # A reason our words do not know is kept as it is after our sentence's head; the collector's words as they are.
    assert reason_said("cannot reach the collector: All connection attempts failed") == \
        "der Collector ist nicht erreichbar: All connection attempts failed"
    assert reason_said("HTTP 503 Service Unavailable: busy") == "HTTP 503 Service Unavailable: busy"


def test_in_english_the_reason_is_the_kept_one() -> None:
    reason = refused_reason()
    assert reason_said(reason) == reason == REFUSED_EN
    assert reason_said("the collector did not answer in time") == "the collector did not answer in time"

