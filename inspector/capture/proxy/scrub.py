"""The credentials an operation carried, cut out of the run that records it.

The wire view of each leg is redacted as it is captured (:mod:`inspector.mcp.wire`); the step's
own fields (a tool's arguments and result, the server's messages, the sentences) are made from the
messages themselves, and a tool may echo what it was sent. So the run is scrubbed whole, as
Run Inspector's own calls scrub what a server repeats of their credentials, before it is stored.
"""

from __future__ import annotations

import dataclasses
from urllib.parse import parse_qsl, urlsplit

from inspector.mcp.secrets import Secrets, is_secret_header, url_secrets
from inspector.runs import RunStep
from inspector.traces.redact import is_secret_key

from .book import ProxiedOperation
from .steps import ProxiedRun

#: Query parameters that are credentials there only: a Google API ``key``, an Azure shared access
#: signature's ``sig``, an OAuth authorization ``code`` (as the export's redaction takes them).
_QUERY_SECRETS = frozenset({"key", "sig", "code"})


def _credential_name(name: str) -> bool:
    """A header or parameter whose value is a credential by its name: the transport's rule
    (``Authorization``, ``X-Api-Key``, ``Cookie``, …) or the export's (``X-Auth``, ``X-Auth-Token``, …)."""
    return is_secret_header(name) or is_secret_key(name)


def request_secrets(headers: list[tuple[str, str]], url: str) -> Secrets:
    """The credentials of one request: the values of its credential headers (by name), the password
    of the URL it goes to, and the values of query parameters that are credentials by name
    (``?api_key=…``, ``?token=…``, ``?key=…``, ``?sig=…``)."""
    values = [value for name, value in headers if _credential_name(name) and value]
    values += url_secrets(url)
    try:
        values += [value for name, value in parse_qsl(urlsplit(url).query)
                   if (_credential_name(name) or name.lower() in _QUERY_SECRETS) and value]
    except ValueError:
        pass
    return Secrets(values)


def scrubbed(run: ProxiedRun, operation: ProxiedOperation) -> ProxiedRun:
    """``run`` with every credential its operation's legs carried cut out of its title and step."""
    secrets = Secrets()
    for leg in operation.legs:
        secrets = secrets.joined(leg.secrets)
    if not secrets:
        return run
    step = RunStep.from_payload(secrets.scrub_json(run.step.to_payload()))
    return dataclasses.replace(run, title=secrets.scrub_values(run.title), step=step)
