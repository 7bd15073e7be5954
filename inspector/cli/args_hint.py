"""How to write ``call --args`` when what was given reads as ``NAME=VALUE``: ``call --arg text=hi`` (argparse
takes ``--arg`` for ``--args``, as it takes any abbreviation) or ``--args text=hi`` is not JSON, and the
refusal says how to write it, with what was typed: ``--args '{"text": "hi"}'``."""

from __future__ import annotations

import json
import re
import shlex

from inspector.i18n import N_
from inspector.i18n.messages import Message

#: ``NAME=VALUE``: a name (no space, quote, brace or bracket) and what follows the first ``=``.
_NAME_VALUE = re.compile(r"\s*([^\s=\"'{}\[\]]+)=(.*)", re.DOTALL)


def name_value_hint(raw: str) -> Message | None:
    """The sentence for ``--args`` given as ``NAME=VALUE`` (``None`` when it does not read so): the JSON
    object to write instead, the value as JSON where it is a number, true, false or null, else as text."""
    found = _NAME_VALUE.fullmatch(raw)
    if found is None:
        return None
    name, text = found.groups()
    value: object = text
    try:
        value = json.loads(text, parse_constant=lambda constant: text)  # NaN, Infinity: as text
    except (ValueError, RecursionError):
        pass
    if not (value is None or isinstance(value, bool | int | float)):
        value = text  # a quoted string, an object or a list typed there: the text as typed
    example = shlex.quote(json.dumps({name: value}, ensure_ascii=False))
    return Message(N_("--args takes the tool's arguments as one JSON object, not NAME=VALUE: write --args {example} "
                      "(every argument in that one object); nothing was sent"), {"example": example})


__all__ = ["name_value_hint"]
