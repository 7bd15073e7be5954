"""Signing in, the pure parts: reading a challenge, where the metadata is looked for, what is checked."""

from __future__ import annotations

import pytest

from inspector.mcp.signin.challenge import MAX_PARAMS, bearer_challenge, parse_challenges
from inspector.mcp.signin.discovery import (
    authorization_server_metadata_urls,
    canonical_resource,
    iss_acceptable,
    issuer_matches,
    resource_matches,
    resource_metadata_urls,
)


def test_a_bearer_challenge_names_its_metadata_and_scope() -> None:
    challenge = bearer_challenge('Bearer resource_metadata="https://mcp.example.com/.well-known/'
                                 'oauth-protected-resource", scope="files:read files:write"')
    assert challenge is not None
    assert challenge.resource_metadata == "https://mcp.example.com/.well-known/oauth-protected-resource"
    assert challenge.scope == "files:read files:write"
    assert not challenge.insufficient_scope


def test_insufficient_scope_with_unquoted_values_and_escapes() -> None:
    challenge = bearer_challenge('bearer error=insufficient_scope, scope="a\\"b", error_description="more"')
    assert challenge is not None and challenge.insufficient_scope
    assert challenge.scope == 'a"b' and challenge.params["error_description"] == "more"


def test_the_bearer_challenge_is_found_among_others() -> None:
    header = 'Basic realm="old", DPoP algs="ES256", Bearer scope="x", Negotiate abc123=='
    assert [c.scheme for c in parse_challenges(header)] == ["basic", "dpop", "bearer", "negotiate"]
    challenge = bearer_challenge(header)
    assert challenge is not None and challenge.scope == "x"


@pytest.mark.parametrize("header", ["", ",,,", "=", '"', "Bearer", "Bearer ,", 'Bearer scope="unclosed',
                                    "\x00\xff\u202e", "Bearer " + "a=b, " * 10_000, "x" * 100_000,
                                    "Bearer " + ", ".join(f"p{i}=v" for i in range(10_000))])
def test_hostile_headers_never_raise_and_stay_bounded(header: str) -> None:
    challenges = parse_challenges(header)
    assert all(len(challenge.params) <= MAX_PARAMS for challenge in challenges)
    assert len(challenges) <= len(header) // 2 + 1


def test_no_header_no_challenge() -> None:
    assert bearer_challenge(None) is None and bearer_challenge('Basic realm="x"') is None


def test_resource_metadata_is_looked_for_where_the_challenge_says_then_path_aware_then_root() -> None:
    assert resource_metadata_urls("https://ex.com/public/mcp", "https://ex.com/prm") == [
        "https://ex.com/prm",
        "https://ex.com/.well-known/oauth-protected-resource/public/mcp",
        "https://ex.com/.well-known/oauth-protected-resource"]
    assert resource_metadata_urls("https://user:pw@ex.com:8443/") == [
        "https://ex.com:8443/.well-known/oauth-protected-resource"]


def test_a_relative_metadata_address_in_the_challenge_is_resolved_against_the_servers_address() -> None:
    # As a browser reads it, without the address's user info or query (never sent to a document).
    assert resource_metadata_urls("https://user:pw@ex.com/public/mcp?key=1", "/prm")[0] == "https://ex.com/prm"
    assert resource_metadata_urls("https://ex.com/public/mcp", "meta/prm.json")[0] == "https://ex.com/public/meta/prm.json"
    assert resource_metadata_urls("https://ex.com/mcp", "https://other.example/prm")[0] == "https://other.example/prm"
    assert resource_metadata_urls("https://ex.com/mcp", "http://[oops/prm")[0] == "http://[oops/prm"


def test_authorization_server_metadata_addresses_with_and_without_a_path() -> None:
    assert authorization_server_metadata_urls("https://auth.ex.com/tenant1") == [
        "https://auth.ex.com/.well-known/oauth-authorization-server/tenant1",
        "https://auth.ex.com/.well-known/openid-configuration/tenant1",
        "https://auth.ex.com/tenant1/.well-known/openid-configuration"]
    assert authorization_server_metadata_urls("https://auth.ex.com") == [
        "https://auth.ex.com/.well-known/oauth-authorization-server",
        "https://auth.ex.com/.well-known/openid-configuration"]


def test_the_canonical_resource_and_its_match() -> None:
    assert canonical_resource("HTTPS://MCP.Example.COM:443/mcp/?q=1#f") == "https://mcp.example.com/mcp"
    assert canonical_resource("http://[::1]:8080/") == "http://[::1]:8080"
    assert resource_matches("https://mcp.example.com/mcp", "https://MCP.example.com/mcp/")
    assert not resource_matches("https://evil.example.com/mcp", "https://mcp.example.com/mcp")
    assert not resource_matches(None, "https://mcp.example.com/mcp")


def test_the_issuer_must_match_exactly() -> None:
    assert issuer_matches("https://auth.ex.com/tenant1", "https://auth.ex.com/tenant1")
    assert not issuer_matches("https://auth.ex.com/tenant1/", "https://auth.ex.com/tenant1")
    assert not issuer_matches(["https://auth.ex.com"], "https://auth.ex.com")


@pytest.mark.parametrize(("advertised", "returned", "ok"), [
    (True, "https://as.ex", True), (True, None, False), (False, "https://as.ex", True), (False, None, True),
    (True, "https://AS.ex", False), (False, "https://as.ex/", False), (True, "https://as.ex:443", False)])
def test_iss_on_the_way_back(advertised: bool, returned: str | None, ok: bool) -> None:
    assert iss_acceptable(advertised, returned, "https://as.ex") is ok


def test_metadata_at_the_root_may_name_the_origin_but_not_a_sibling_path_or_another_host() -> None:
    assert resource_matches("https://mcp.example.com", "https://mcp.example.com/mcp")
    assert resource_matches("https://mcp.example.com/api", "https://mcp.example.com/api/mcp")
    assert not resource_matches("https://mcp.example.com/ap", "https://mcp.example.com/api/mcp")
    assert not resource_matches("https://mcp.example.com/other", "https://mcp.example.com/mcp")
    assert not resource_matches("http://mcp.example.com", "https://mcp.example.com/mcp")
    assert not resource_matches("https://mcp.example.com:8443", "https://mcp.example.com/mcp")


def test_a_dpop_challenge_is_read_when_no_bearer_one_is_given() -> None:
    challenge = bearer_challenge('DPoP resource_metadata="https://mcp.example.com/.well-known/x", algs="ES256"')
    assert challenge is not None and challenge.scheme == "dpop"
    assert challenge.resource_metadata == "https://mcp.example.com/.well-known/x"
    assert bearer_challenge('DPoP algs="ES256", Bearer scope="a"').scheme == "bearer"
