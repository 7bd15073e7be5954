"""Names whose values are credentials: a key of a JSON object or of free text (``api_key``, ``X-Auth-Token``), and
a command line's option or a header line (``--token``, ``--access-key``). One rule for what an export removes
(``inspector.traces.redact``) and what a command server's key and name leave out (:mod:`.command_line`)."""

from __future__ import annotations

import re
from functools import lru_cache

# Key names are compared without case and without separators: "X-Api-Key", "x_api_key" and
# "apiKey" are one name. A key is secret when it contains one of these...
SECRET_PARTS = ("authorization", "authorisation", "cookie", "apikey", "password", "passwd",
                "passphrase", "passcode", "secret", "credential", "sessionid", "privatekey", "signature")
# ...or ends with "token" ("access_token", "X-Auth-Token") but not "tokens": "promptTokens"
# and "max_tokens" are counts, not credentials...
SECRET_SUFFIXES = ("token", "auth", "sessid")
# ...or is exactly one of these.
SECRET_NAMES = frozenset({"pwd", "pass", "session", "jwt", "bearer", "sid", "pin", "otp"})

# A command line's option or a header line named "key" or ending in "-key"/"_key" ("--key abc",
# "--access-key abc", "Ocp-Apim-Subscription-Key: abc"), as the transport's header rule takes them;
# as an object key ("primary_key", "sortKey") such a name is usually no credential.
KEY_NAME = re.compile(r"(?i)(?:^|[-_])key$")

_SEPARATORS = re.compile(r"[^a-z0-9]")


@lru_cache(maxsize=4096)
def is_secret_key(name: str) -> bool:
    """True for a key whose value is a credential by its name (Authorization, api_key, ...)."""
    # Cached: an export asks about the same few key names hundreds of thousands of times.
    folded = _SEPARATORS.sub("", name.lower())
    if not folded:
        return False
    return (folded in SECRET_NAMES or any(part in folded for part in SECRET_PARTS)
            or folded.endswith(SECRET_SUFFIXES))


def names_a_key(name: str) -> bool:
    """A header line's or an option's name that makes its value a credential."""
    return is_secret_key(name) or KEY_NAME.search(name) is not None


__all__ = ["KEY_NAME", "SECRET_NAMES", "SECRET_PARTS", "SECRET_SUFFIXES", "is_secret_key", "names_a_key"]
