"""``ttlMs`` and ``cacheScope`` of a ``tools/list`` result, as the tool catalogue keeps them."""

from __future__ import annotations

import pytest

from inspector.mcp import ToolCatalogue
from inspector.mcp.results import catalogue_freshness


@pytest.mark.parametrize(("result", "expected"), [
    ({"tools": [], "ttlMs": 3_600_000, "cacheScope": "public"}, (3_600_000, "public")),
    ({"tools": [], "ttlMs": 1500.7, "cacheScope": "private"}, (1500, "private")),
    ({"tools": []}, (0, None)),  # absent: not to be kept
    ({"tools": [], "ttlMs": -1}, (0, None)),
    ({"tools": [], "ttlMs": True}, (0, None)),
    ({"tools": [], "ttlMs": "60000"}, (0, None)),
    ({"tools": [], "ttlMs": float("nan")}, (0, None)),
    ({"tools": [], "ttlMs": 1e300, "cacheScope": "everyone"}, (2**53 - 1, None)),
])
def test_the_freshness_of_a_stateless_result(result, expected) -> None:
    assert catalogue_freshness(result) == expected


def test_a_handshake_result_that_says_nothing_has_no_freshness() -> None:
    assert catalogue_freshness({"tools": []}, stateless=False) == (None, None)
    assert catalogue_freshness({"tools": [], "ttlMs": 5000}, stateless=False) == (5000, None)


def test_a_catalogue_made_as_before_has_no_freshness() -> None:
    catalogue = ToolCatalogue([{"name": "echo"}], 1)
    assert (catalogue.ttl_ms, catalogue.cache_scope) == (None, None)
