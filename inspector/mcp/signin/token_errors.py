"""What goes wrong at a token endpoint, said in one sentence that never holds a credential.

A :class:`TokenRequestError` carries the OAuth ``error`` code (RFC 6749 §5.2), the HTTP status and
a :class:`~inspector.mcp.messages.Message`. What the endpoint wrote (``error_description``, a
token type, a lifetime) is quoted cleaned (one line, clipped) and scrubbed of every value that
was sent to it: a hostile endpoint that echoes the code, the verifier, the refresh token, the
client secret or an assertion back gets ``[REDACTED]`` in the sentence, not the value.
"""

from __future__ import annotations

import re
from urllib.parse import quote_plus

from ..messages import N_, Message
from ..sanitize import sanitize_remote_text
from ..secrets import Secrets

#: The grant names used in :attr:`TokenRequestError.grant` (and the token requests' ``grant_type``).
AUTHORIZATION_CODE = "authorization_code"
REFRESH_TOKEN = "refresh_token"
CLIENT_CREDENTIALS = "client_credentials"
JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer"
TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange"
#: The error code with which an endpoint refuses a code or a refresh token (RFC 6749 §5.2).
INVALID_GRANT = "invalid_grant"
#: The most characters of the endpoint's ``error_description`` quoted.
DESCRIPTION_CHARS = 200
# RFC 6749 §5.2: an error code is NQSCHAR; real ones are short snake_case words.
_ERROR_CODE = re.compile(r"[\x20\x21\x23-\x5b\x5d-\x7e]{1,64}")


class TokenRequestError(Exception):
    """A token request that gave no tokens: ``sentence`` says why (in English by ``str()``,
    translatable by ``inspector.i18n.messages.translate``); ``error`` is the endpoint's OAuth
    error code when it gave one, ``status`` its HTTP status when it answered at all, ``grant``
    the ``grant_type`` asked for."""

    def __init__(self, sentence: Message, *, grant: str, error: str | None = None, status: int | None = None,
                 sign_in_again: bool = False) -> None:
        super().__init__(str(sentence))
        self.sentence = sentence
        self.grant = grant
        self.error = error
        self.status = status
        #: What was presented will not work again (refused with ``invalid_grant``, or there was no
        #: refresh token): the way on is signing in again, not trying later.
        self.sign_in_again = sign_in_again or error == INVALID_GRANT

    @property
    def refresh_refused(self) -> bool:
        """The refresh token is no good: the caller forgets the tokens and signs in again (any
        other failure of a refresh may pass: the tokens are kept)."""
        return self.grant == REFRESH_TOKEN and self.sign_in_again


def with_sent(secrets: Secrets, *values: str | None) -> Secrets:
    """``secrets`` and ``values`` besides, also as a form body carries them (a space as ``+``):
    an endpoint that echoes the request body back quotes them that way."""
    return secrets.with_values(*values, *(quote_plus(value) for value in values if value))


def error_code(value: object, secrets: Secrets) -> str | None:
    """The endpoint's ``error`` if it is one (a short line of NQSCHAR), scrubbed; else None."""
    if not isinstance(value, str) or not _ERROR_CODE.fullmatch(value):
        return None
    return secrets.scrub_values(value)


def quoted(value: object, secrets: Secrets, limit: int = DESCRIPTION_CHARS) -> str:
    """Remote text as a sentence may quote it: scrubbed of what was sent (before and after
    cleaning, so that a clipped echo cannot show a part), one line, clipped."""
    text = value if isinstance(value, str) else repr(value)
    return secrets.scrub_values(sanitize_remote_text(secrets.scrub_values(text[:4 * limit]), limit))


def refused(endpoint: str, issuer: str, grant: str, code: str, status: int, description: object,
            secrets: Secrets) -> TokenRequestError:
    """The endpoint answered with an OAuth error: the refresh token refused (sign in again), or
    any other refusal, with the endpoint's own words when it gave some."""
    described = quoted(description, secrets) if isinstance(description, str) and description.strip() else None
    if grant == REFRESH_TOKEN and code == INVALID_GRANT:
        sentence = Message(N_("The authorization server {issuer} no longer accepts the refresh token "
                              "(invalid_grant), saying \"{description}\". Sign in again."),
                           {"issuer": issuer, "description": described}) if described else \
            Message(N_("The authorization server {issuer} no longer accepts the refresh token (invalid_grant). "
                       "Sign in again."), {"issuer": issuer})
    elif described:
        sentence = Message(N_("The token endpoint {endpoint} refused the request with {error} (HTTP {status}), "
                              "saying \"{description}\"."),
                           {"endpoint": endpoint, "error": code, "status": status, "description": described})
    else:
        sentence = Message(N_("The token endpoint {endpoint} refused the request with {error} (HTTP {status})."),
                           {"endpoint": endpoint, "error": code, "status": status})
    return TokenRequestError(secrets.scrub_message(sentence), grant=grant, error=code, status=status)


def failed(sentence: Message, secrets: Secrets, *, grant: str, status: int | None = None,
           error: str | None = None, sign_in_again: bool = False) -> TokenRequestError:
    """Any other failure, its quoted values scrubbed."""
    return TokenRequestError(secrets.scrub_message(sentence), grant=grant, error=error, status=status,
                             sign_in_again=sign_in_again)


__all__ = ["AUTHORIZATION_CODE", "CLIENT_CREDENTIALS", "INVALID_GRANT", "JWT_BEARER", "REFRESH_TOKEN",
           "TOKEN_EXCHANGE", "TokenRequestError", "error_code", "failed", "quoted", "refused", "with_sent"]
