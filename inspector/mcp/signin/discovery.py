"""Where a client looks for the documents that say how to sign in, and what it checks in them.

Protected Resource Metadata (RFC 9728) first at the address the challenge names (resolved against the
server's address when relative), else at the path-aware well-known address, then at the root (never
the root first). Authorization server metadata (RFC 8414, OpenID Connect Discovery) at the three
addresses of an issuer with a path (OAuth with path insertion, OpenID with insertion, OpenID
appended), or the two of one without.
The resource a token is for is the server's canonical URI (RFC 8707); a metadata document whose
``issuer`` or ``resource`` is not exactly the one asked for is discarded; ``iss`` on the way back
(RFC 9207) is checked as the 2026-07-28 revision says.
"""

from __future__ import annotations

from urllib.parse import urljoin, urlsplit, urlunsplit

PRM_WELL_KNOWN = "/.well-known/oauth-protected-resource"
OAUTH_WELL_KNOWN = "/.well-known/oauth-authorization-server"
OPENID_WELL_KNOWN = "/.well-known/openid-configuration"


def canonical_resource(server_url: str) -> str:
    """The server's canonical URI for ``resource``: scheme and host in lower case, no user info,
    query or fragment, the default port dropped, no trailing slash (except the root's)."""
    parts = urlsplit(server_url)
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").lower()
    if ":" in host:
        host = f"[{host}]"
    port = parts.port
    default = {"http": 80, "https": 443}.get(scheme)
    netloc = host if port is None or port == default else f"{host}:{port}"
    path = parts.path.rstrip("/")
    return urlunsplit((scheme, netloc, path, "", "")) or f"{scheme}://{netloc}"


def _origin(url: str) -> tuple[str, str, str]:
    parts = urlsplit(url)
    return parts.scheme, parts.netloc.rpartition("@")[2], parts.path


def resource_metadata_urls(server_url: str, challenged: str | None = None) -> list[str]:
    """Where to look for the server's Protected Resource Metadata, in order."""
    scheme, netloc, path = _origin(server_url)
    urls = [_resolved(challenged, urlunsplit((scheme, netloc, path, "", "")))] if challenged else []
    path = path.rstrip("/")
    if path:
        urls.append(urlunsplit((scheme, netloc, PRM_WELL_KNOWN + path, "", "")))
    urls.append(urlunsplit((scheme, netloc, PRM_WELL_KNOWN, "", "")))
    return list(dict.fromkeys(urls))


def _resolved(address: str, base: str) -> str:
    """``address`` as a browser reads it in an answer from ``base``: a relative one (``/.well-known/…``,
    which RFC 9728 does not allow but servers send) on the server's own origin; an absolute one as it is."""
    try:
        return urljoin(base, address)
    except ValueError:  # not an address at all: refused as it is
        return address


def authorization_server_metadata_urls(issuer: str) -> list[str]:
    """Where to look for an authorization server's metadata, in order (RFC 8414, then OpenID)."""
    scheme, netloc, path = _origin(issuer)
    path = path.rstrip("/")
    if not path:
        return [urlunsplit((scheme, netloc, OAUTH_WELL_KNOWN, "", "")),
                urlunsplit((scheme, netloc, OPENID_WELL_KNOWN, "", ""))]
    return [urlunsplit((scheme, netloc, OAUTH_WELL_KNOWN + path, "", "")),
            urlunsplit((scheme, netloc, OPENID_WELL_KNOWN + path, "", "")),
            urlunsplit((scheme, netloc, path + OPENID_WELL_KNOWN, "", ""))]


def resource_matches(document_resource: object, server_url: str) -> bool:
    """Does the ``resource`` of a Protected Resource Metadata document name the server called:
    the same address, or one that contains it (same origin, a whole-segment path prefix: the
    metadata at the root names the origin, RFC 9728 §3)?"""
    if not isinstance(document_resource, str):
        return False
    named, called = canonical_resource(document_resource), canonical_resource(server_url)
    if named == called:
        return True
    named_parts, called_parts = urlsplit(named), urlsplit(called)
    if (named_parts.scheme, named_parts.netloc) != (called_parts.scheme, called_parts.netloc):
        return False
    prefix = named_parts.path.rstrip("/")
    return not prefix or called_parts.path.startswith(prefix + "/")


def issuer_matches(document_issuer: object, issuer: str) -> bool:
    """Is the metadata's ``issuer`` exactly the issuer its address was made from?"""
    return isinstance(document_issuer, str) and document_issuer == issuer


def iss_acceptable(advertised: bool, returned: str | None, issuer: str) -> bool:
    """May the authorization response be used, given its ``iss`` (RFC 9207)? Compared exactly,
    after form decoding only: no case folding, no port or slash or percent normalising."""
    if returned is not None:
        return returned == issuer
    return not advertised
