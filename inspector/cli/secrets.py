"""The command line's one scrubber: the secrets it was given, and the pattern rules of exports."""

from __future__ import annotations

from inspector.mcp import Secrets
from inspector.traces.redact import redact_text


def known_secrets(*values: str | None) -> Secrets:
    """``values`` (API keys, secret environment values) cut out of whatever a model or a server says,
    with the credential patterns of :mod:`inspector.traces.redact` for the sentences that quote it."""
    return Secrets(values, patterns=redact_text)
