"""Which kept tool catalogue the window may show again: fresh, and never a private one across
entries or credentials."""

from __future__ import annotations

from inspector.gui.workbench.catalogue_cache import MAX_KEEP_S, CatalogueKeeper
from inspector.mcp import ServerEndpoint, ToolCatalogue

URL = "http://127.0.0.1:9/mcp"


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def catalogue(ttl_ms: int | None, scope: str | None = None) -> ToolCatalogue:
    return ToolCatalogue([{"name": "echo"}], 1, ttl_ms=ttl_ms, cache_scope=scope)


def test_a_fresh_catalogue_is_shown_again_until_its_ttl_runs_out() -> None:
    clock = Clock()
    keeper = CatalogueKeeper(clock)
    endpoint = ServerEndpoint(URL)
    keeper.keep(URL, endpoint, catalogue(60_000, "public"))
    clock.now += 59.9
    kept = keeper.fresh(URL, endpoint)
    assert kept is not None and kept.reused
    assert round(kept.remaining_s(clock.now), 3) == 0.1
    clock.now += 0.1
    assert keeper.fresh(URL, endpoint) is None


def test_ttl_zero_or_unsaid_is_not_kept() -> None:
    keeper = CatalogueKeeper(Clock())
    endpoint = ServerEndpoint(URL)
    keeper.keep(URL, endpoint, catalogue(0, "public"))
    assert keeper.fresh(URL, endpoint) is None
    keeper.keep(URL, endpoint, catalogue(None))
    assert keeper.fresh(URL, endpoint) is None


def test_a_private_catalogue_is_never_shown_for_other_credentials_or_another_entry() -> None:
    keeper = CatalogueKeeper(Clock())
    alice = ServerEndpoint(URL, headers={"Authorization": "Bearer alice"})
    keeper.keep(URL, alice, catalogue(60_000, "private"))
    assert keeper.fresh(URL, alice) is not None
    assert keeper.fresh(URL, ServerEndpoint(URL, headers={"Authorization": "Bearer bob"})) is None
    assert keeper.fresh("another entry", alice) is None
    # a scope not said is kept as private
    keeper.keep(URL, alice, catalogue(60_000))
    assert keeper.fresh(URL, ServerEndpoint(URL)) is None


def test_a_public_catalogue_is_shared_by_the_address() -> None:
    keeper = CatalogueKeeper(Clock())
    keeper.keep(URL, ServerEndpoint(URL, headers={"Authorization": "Bearer alice"}), catalogue(60_000, "public"))
    assert keeper.fresh("another entry", ServerEndpoint(URL, headers={"Authorization": "Bearer bob"})) is not None


def test_a_list_change_forgets_and_a_listing_it_overtook_is_stale_and_not_kept() -> None:
    keeper = CatalogueKeeper(Clock())
    endpoint = ServerEndpoint(URL)
    keeper.keep(URL, endpoint, catalogue(60_000, "public"))
    started = keeper.changes(endpoint.key)
    keeper.forget(endpoint.key)
    assert keeper.fresh(URL, endpoint) is None
    kept = keeper.keep(URL, endpoint, catalogue(60_000, "public"), started)
    assert kept.stale
    assert keeper.fresh(URL, endpoint) is None


def test_a_huge_ttl_is_kept_a_day_at_most() -> None:
    clock = Clock()
    keeper = CatalogueKeeper(clock)
    endpoint = ServerEndpoint(URL)
    keeper.keep(URL, endpoint, catalogue(2**53 - 1, "public"))
    clock.now += MAX_KEEP_S
    assert keeper.fresh(URL, endpoint) is None
