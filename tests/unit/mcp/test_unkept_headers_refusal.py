"""A 401 to a request that lacked secret headers no keyring kept (the window after a restart without
a keyring): without an OAuth challenge it wants those headers, not a sign-in; with one, a sign-in."""

from __future__ import annotations

import httpx

from inspector.mcp.errors import ErrorKind
from inspector.mcp.signin.challenge import signin_refusal


def _answer(status: int, challenge: str | None = None) -> httpx.Response:
    headers = {"www-authenticate": challenge} if challenge else {}
    return httpx.Response(status, headers=headers, request=httpx.Request("POST", "http://127.0.0.1:9/mcp"))


def test_a_401_without_a_challenge_wants_the_unkept_headers() -> None:
    refused = signin_refusal("vault", "initialize", _answer(401), {}, False, frozenset({"X-Api-Key", "X-Team"}))
    assert refused is not None and refused.kind is ErrorKind.HTTP_STATUS and refused.http_status == 401
    assert str(refused) == ("The server vault answered initialize with HTTP status 401: its secret headers X-Api-Key, "
                            "X-Team were not sent, as no system keyring kept their values. Give them again: press "
                            "Edit… with the server selected.")


def test_an_oauth_challenge_still_asks_for_a_sign_in_and_nothing_unkept_changes_nothing() -> None:
    bearer = 'Bearer resource_metadata="http://127.0.0.1:9/.well-known/oauth-protected-resource"'
    refused = signin_refusal("vault", "initialize", _answer(401, bearer), {}, False, frozenset({"X-Api-Key"}))
    assert refused is not None and refused.kind is ErrorKind.SIGNIN_REQUIRED
    refused = signin_refusal("vault", "initialize", _answer(401), {}, False)
    assert refused is not None and refused.kind is ErrorKind.SIGNIN_REQUIRED  # as before: discovery finds out
    assert signin_refusal("vault", "initialize", _answer(403), {}, False, frozenset({"X-Api-Key"})) is None
