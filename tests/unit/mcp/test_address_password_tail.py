"""A password typed into an address as it is: holding ``@`` and then ``/`` (``bob:se@c/ret@host/mcp``, whose
authority ends at that ``/``), with ``/``, ``?`` or ``#`` only, percent-encoded, at an IPv6 host, a user name
without one. No part of it is quoted, exported or kept (the host RFC 3986 reads is quoted: ``http://c/…@host/mcp``,
but not exported or kept, since it may be a piece of the password: ``http://host/mcp``); an address that names two
servers so is refused, naming both, and a path that begins with ``@`` (``host/@user``) is no password."""

from __future__ import annotations

import base64
import time

import pytest

from inspector.mcp import InvalidServerError, ServerEndpoint
from inspector.mcp.address_credentials import basic_authorization
from inspector.mcp.address_query import address_to_keep, address_to_quote, typed_to_quote
from inspector.mcp.user_info import address_shown, without_user_info
from inspector.traces.redact import redact_text

#: (an address, what of it may be quoted, what of it may be exported or kept, the password's characters none of which
#: may show). An address that names two servers (its tail's "@" in the first segment after the host) is quoted with the
#: host RFC 3986 reads, and exported or kept with the host after the password's last "@": the host RFC 3986 reads may
#: be a piece of the password (c of se@c/ret).
ADDRESSES = [
    ("http://bob:se@c/ret@host/mcp", "http://c/…@host/mcp", "http://host/mcp", "se@c/ret"),
    ("http://bob:se@c/ret@host", "http://c/…@host", "http://host", "se@c/ret"),
    ("http://bob:se/cr@tx@host/mcp", "http://host/mcp", "http://host/mcp", "se/cr@tx"),
    ("http://bob:se@c?ret@host/mcp", "http://c?…@host/mcp", "http://host/mcp", "se@c?ret"),
    ("http://bob:se@c#ret@host/mcp", "http://c#…@host/mcp", "http://host/mcp", "se@c#ret"),
    ("http://bob:a/b/c@host:81/p", "http://host:81/p", "http://host:81/p", "a/b/c"),
    ("http://bob:s3cr3t@[::1]:8080/mcp", "http://[::1]:8080/mcp", "http://[::1]:8080/mcp", "s3cr3t"),
    ("http://bob:s3@c/r3t@[::1]:8080/mcp", "http://c/…@[::1]:8080/mcp", "http://[::1]:8080/mcp", "s3@c/r3t"),
    ("http://bob:se%40c%2Fret@host/mcp", "http://host/mcp", "http://host/mcp", "se%40c%2Fret"),
    # A path segment that begins with "@" after a password: the password may hold it (x@PWb/ of bob:x@PWb/@host), so
    # the host before it is not exported or kept either, as for an "@" in a later segment (below).
    ("http://bob:pw@host/@user", "http://host/@user", "http://user", "pw"),
    ("https://bob:pw@host/mcp?mail=a@b.org", "https://host/mcp?mail=a@b.org", "https://host/mcp?mail=a@b.org",
     "pw"),  # an "@" in a query's value
    ("http://bob:pw@host/users/me@example.org/mcp", "http://host/…@example.org/mcp", "http://example.org/mcp",
     "pw"),  # an "@" in a later segment after a password: two servers as well (how many "/" a password holds)
]


def shown(password: str, text: str) -> list[str]:
    """The parts of ``password`` (each side of an ``@`` in it) that ``text`` shows."""
    return [part for part in password.split("@") if part in text]


@pytest.mark.parametrize(("address", "quoted", "kept", "password"), ADDRESSES)
def test_no_part_of_a_password_is_quoted(address: str, quoted: str, kept: str, password: str) -> None:
    assert address_shown(address) == quoted
    assert shown(password, address_to_quote(address)) == []
    assert shown(password, typed_to_quote(f"call {address} now")) == []
    assert shown(password, typed_to_quote(address.removeprefix("http://"))) == []  # typed without its scheme


@pytest.mark.parametrize(("address", "quoted", "kept", "password"), ADDRESSES)
def test_no_part_of_a_password_is_exported_in_text(address: str, quoted: str, kept: str, password: str) -> None:
    redacted = redact_text(f'tried {address} and "{address}" then')
    assert shown(password, redacted) == [] and "[REDACTED]@" in redacted
    assert redacted.count(kept.replace("…", "[REDACTED]").partition("://")[2]) == 2  # the host and path stay


@pytest.mark.parametrize(("address", "quoted", "kept", "password"), ADDRESSES)
def test_a_strangers_server_is_kept_without_password_query_or_fragment(address: str, quoted: str, kept: str,
                                                                       password: str) -> None:
    with_fragment = address_to_keep(f"{address}#access_token=frag")
    assert shown(password, with_fragment) == [] and "frag" not in with_fragment and "?" not in with_fragment
    assert address_to_keep(address.removeprefix("http://")) == kept.removeprefix("http://").split("?")[0].split("#")[0]


def test_other_servers_are_kept_as_they_are() -> None:
    for server in ("support-agent", "agent@v2", "weather.example.org:443", "stdio:npx -y pkg@latest --k=a?b"):
        assert address_to_keep(server) == server
    assert address_to_keep("http://host/mcp?api_key=k#frag") == "http://host/mcp"


def test_an_address_whose_host_would_come_from_inside_its_password_is_refused_without_quoting_it() -> None:
    """Its two hosts are named (the one RFC 3986 reads, and the one after the password's last "@"), never the
    rest of the password."""
    for address, hosts in (("http://bob:se@c/ret@host/mcp", "c, or host if"),
                           ("http://bob:se@evil.example/x@host.example/mcp", "evil.example, or host.example if"),
                           ("https://bob:se@c?ret@host/mcp", "c, or host if")):
        with pytest.raises(InvalidServerError) as refused:
            ServerEndpoint(address)
        said = str(refused.value)
        assert "%40" in said and "se@" not in said and "ret" not in said and "/x" not in said, said
        assert f"names two servers: {hosts} its password holds '@'" in said, said
    # Percent-encoded, or an "@" that begins a path segment: the address is taken.
    assert ServerEndpoint("http://bob:se%40c%2Fret@host/mcp").key == "http://host/mcp"
    assert ServerEndpoint("http://bob:pw@host/@user").key == "http://host/@user"
    assert ServerEndpoint("http://bob@host/a@b").key == "http://host/a@b"


def test_a_user_name_without_a_password_leaves_the_path_as_it_is() -> None:
    assert without_user_info("http://bob@host/a@b") == address_shown("http://bob@host/a@b") == "http://host/a@b"
    assert address_to_keep("http://bob@host/a@b") == "http://host/a@b"
    assert redact_text("http://bob@host/a@b") == "http://[REDACTED]@host/a@b"


def test_redaction_leaves_addresses_without_a_password_alone() -> None:
    for text in ("see https://mastodon.social/@user now", "https://www.npmjs.com/package/@scope/pkg",
                 "http://[::1]:8080/a@b", "mail bob@example.org"):
        assert redact_text(text) == text


def test_what_the_address_sends_is_its_user_info_as_rfc_3986_reads_it() -> None:
    """As the HTTP library reads it: a password holding "@" and "/" as typed would lose its tail (``se`` to ``c``),
    which is why such an address is refused (above); percent-encoded, it is sent whole."""
    def pair(address: str) -> str | None:
        value = basic_authorization(address)
        return None if value is None else base64.b64decode(value.removeprefix("Basic ")).decode()

    assert pair("http://bob:se@c/ret@host/mcp") == "bob:se"
    assert pair("http://bob:se%40c%2Fret@host/mcp") == "bob:se@c/ret"
    assert pair("http://bob:pw@host/@user") == "bob:pw"
    assert pair("http://bob:s3@c/r3t@[::1]:8080/mcp") == "bob:s3"
    assert pair("http://bob:p@ss@host/a@b") == "bob:p@ss"


def test_redacting_an_address_of_many_colons_takes_linear_time() -> None:
    """A user name holds no ":": each ":" of "http://a:a:a:…" is not tried as the one that ends it (32,000 of them
    took 47 s so; 0.05 s now)."""
    for text in ("http://" + "a:" * 32_000 + " a@b", "http://" + ":" * 64_000 + " a@b"):
        started = time.perf_counter()
        assert redact_text(text) == text
        assert time.perf_counter() - started < 5


def test_keeping_a_strangers_server_of_many_colons_takes_linear_time() -> None:
    """A stranger's file may name a server "a:a:a:…": a user name holds no ":", so no ":" is tried as the one that
    ends it (100,000 of them took minutes)."""
    for text in ("http://" + "a:" * 100_000, "a:" * 100_000, "x:" + "@/" * 100_000, "1:" * 100_000 + "/x@y"):
        started = time.perf_counter()
        address_to_keep(text)
        without_user_info(text)
        assert time.perf_counter() - started < 5
