"""The two sides of a joined call say their durations in milliseconds below a second and as the
timeline does from a second on; a side that rounds to a second is said as a second."""

from __future__ import annotations

import pytest

from inspector import i18n
from inspector.gui.runs.span_facts import sides_text


def joined(client_ms: float, server_ms: float) -> dict:
    start = 1_792_889_999_000_000_000
    return {"service": "agent", "startTimeUnixNano": str(start), "endTimeUnixNano": str(start + round(client_ms * 1e6)),
            "server": {"service": "tools", "startTimeUnixNano": str(start),
                       "endTimeUnixNano": str(start + round(server_ms * 1e6))}}


@pytest.mark.parametrize(("language", "said"), [
    ("en", "Client (agent): ok, 1.0\u00a0s · Server (tools): ok, 999.6\u00a0ms"),
    ("de", "Client (agent): ok, 1,0\u00a0s · Server (tools): ok, 999,6\u00a0ms"),
])
def test_a_side_that_rounds_to_a_second_is_said_in_seconds(language: str, said: str) -> None:
    i18n.set_language(language)
    try:
        assert sides_text(joined(999.96, 999.6), "ok") == said
    finally:
        i18n.set_language("en")
