"""A push that cannot reach the collector keeps its reason in English (the outbox, ``--json``) and says
it in the reader's language where a person reads it: the Pushed column's tooltip, the command line's
line on what is still queued. Against a real closed port on 127.0.0.1."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from inspector.capture.sending import reason_said, send
from inspector.i18n import set_language
from tests.support.asgi_server import closed_port

REFUSED_EN = ("cannot reach the collector: the connection was refused, which means nothing listens at that address "
              "and port")
REFUSED_DE = ("der Collector ist nicht erreichbar: die Verbindung wurde abgewiesen, unter dieser Adresse und an "
              "diesem Port lauscht also nichts")


@pytest.fixture
def german() -> Iterator[None]:
    set_language("de")
    yield
    set_language("en")


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



def test_a_run_removed_while_queued_is_given_up_in_english_and_said_in_german(german, tmp_path) -> None:
    """The reason a pusher keeps for a queued run that was deleted behind its back (another program
    without SQLite's foreign keys, as the sqlite3 shell, removed it) is English; a reader gets German."""
    import sqlite3

    from inspector.capture.pusher import Pusher
    from inspector.store import RunStore
    from inspector.store.outbox import Outbox

    db = tmp_path / "runs.db"
    endpoint = f"http://127.0.0.1:{closed_port()}"
    with RunStore.open(db) as store:
        run_id = store.start_run("tools/call echo", "live", "http://127.0.0.1:9/mcp")
        store.finish_run(run_id, "ok")
        assert Outbox(store.db.conn).enqueue([run_id], endpoint) == 1
    other = sqlite3.connect(db)  # foreign keys off: the outbox row stays
    with other:
        other.execute("DELETE FROM runs WHERE id = ?", (run_id,))
    other.close()
    with RunStore.open(db) as store:
        with Pusher(store, endpoint) as pusher:
            done = pusher.push_due()
        (entry,) = Outbox(store.db.conn).entries()
    assert done.failed == 1 and entry.state == "failed"
    assert entry.reason == "the run was removed before it was sent"
    assert reason_said(entry.reason) == "der Lauf wurde gelöscht, bevor er gesendet wurde"
