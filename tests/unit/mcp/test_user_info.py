"""One reading of where an address's user info ends (inspector/mcp/user_info.py), for what is sent, shown, exported
and kept: RFC 3986's (the last "@" before the first "/", "?" or "#"), what a password holding "@" and "/" as typed
may take after the host hidden wherever the address is shown, and two servers named wherever that "@" is after the
host: how many "/" a password holds decides the segment."""

from __future__ import annotations

import time

import pytest

from inspector.mcp import InvalidServerError, ServerEndpoint
from inspector.mcp.address_query import address_to_keep, address_to_quote
from inspector.mcp.user_info import read_address, second_server, without_user_info
from inspector.traces.redact import redact_text

EMAIL_IN_PATH = "http://bob:pw@127.0.0.1:9/users/me@example.org/mcp"


def test_an_at_in_a_later_segment_is_the_paths_as_rfc_3986_reads_it() -> None:
    address = read_address(EMAIL_IN_PATH)
    assert (address.user_info, address.host) == ("bob:pw@", "127.0.0.1:9")
    assert without_user_info(EMAIL_IN_PATH) == "http://127.0.0.1:9/users/me@example.org/mcp"
    # Without a password it has no other reading, and is a server as it is.
    endpoint = ServerEndpoint("http://127.0.0.1:9/users/me@example.org/mcp")
    assert endpoint.key == endpoint.label == "http://127.0.0.1:9/users/me@example.org/mcp"
    # With one, its "@" written in the path as %40 (as the refusal asks), it names one server.
    encoded = ServerEndpoint("http://bob:pw@127.0.0.1:9/users/me%40example.org/mcp")
    assert encoded.key == "http://127.0.0.1:9/users/me%40example.org/mcp" and encoded.credentials_in_address


@pytest.mark.parametrize(("address", "hosts"), [
    ("http://u:p@h/x@y", ("h", "y")), ("http://bob:se@c/ret@host/mcp", ("c", "host")),
    ("https://bob:se@c?ret@host:8443/mcp", ("c", "host:8443")), ("http://bob:se@c#r@[::1]/mcp", ("c", "[::1]")),
    ("http://bob:se@c/r@t@host/mcp", ("c", "host")),
    # In a later segment alike: the password se@c/r/et holds two "/" (it was sent, Basic bob:se, to the host c).
    ("http://bob:se@c/r/et@host/mcp", ("c", "host")), ("http://bob:se@c/r?et@host:81/mcp", ("c", "host:81")),
    (EMAIL_IN_PATH, ("127.0.0.1:9", "example.org"))])
def test_an_at_after_the_host_names_two_servers(address: str, hosts: tuple[str, str]) -> None:
    assert second_server(address) == hosts
    with pytest.raises(InvalidServerError) as refused:
        ServerEndpoint(address)
    assert f"names two servers: {hosts[0]}, or {hosts[1]} if its password" in str(refused.value)
    assert "%40" in str(refused.value) and "se@" not in str(refused.value) and "et@" not in str(refused.value)


@pytest.mark.parametrize("address", ["http://bob:pw@host/@user", "http://bob@host/x@y", "http://host/x@y",
                                     "https://bob:pw@host/mcp?mail=a@b.org", "http://bob:pw@host/x@",
                                     "http://bob:se%40c%2Fret@host/mcp", "http://h/users/me@example.org/mcp",
                                     "http://bob:pw@h/users/me%40example.org/mcp"])
def test_other_addresses_name_one_server(address: str) -> None:
    assert second_server(address) is None


@pytest.mark.parametrize(("text", "exported", "quoted"), [
    (EMAIL_IN_PATH, "http://[REDACTED]@example.org/mcp",
     "http://127.0.0.1:9/…@example.org/mcp"),
    ("http://u:p@h/x@y", "http://[REDACTED]@y", "http://h/…@y"),  # two servers: h may be a piece of a password
    ("http://bob:pw@host/mcp", "http://[REDACTED]@host/mcp", "http://host/mcp"),
])
def test_showing_and_exporting_keep_the_host_and_hide_what_a_password_may_hold(text: str, exported: str,
                                                                            quoted: str) -> None:
    assert redact_text(f"tried {text} and '{text}'") == f"tried {exported} and '{exported}'"
    assert address_to_quote(text) == quoted


def test_names_that_are_no_addresses_are_kept_whole() -> None:
    for name in ("svc:v2@prod", "svc:v2@prod-eu", "agent@v2", "a:b@c:d"):
        assert address_to_keep(name) == name
    # Typed without http:// before a host (a path, a port, a dotted name, an IP address) they are addresses.
    assert [address_to_keep(typed) for typed in ("bob:pw@host/mcp", "bob:pw@host:8080", "bob:pw@example.org",
                                                 "bob:pw@[::1]", "bob:pw@localhost")] == [
        "host/mcp", "host:8080", "example.org", "[::1]", "localhost"]


def test_finding_user_info_in_long_text_takes_linear_time() -> None:
    for text in ("http://a:b@h/" + "x" * 200_000, "http://a:b@h/x@y " * 20_000, "http://a:b@h" + "/@" * 100_000,
                 "http://" + "a:" * 100_000 + "@"):
        started = time.perf_counter()
        redact_text(text)
        address_to_quote(text)
        second_server(text)
        assert time.perf_counter() - started < 5
