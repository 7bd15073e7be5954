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


def typed_value(text: str) -> object:
    """A value typed after ``NAME=`` as the JSON it most likely means: a number, true, false or null as
    such, anything else (a word, a quoted string, an object or a list) as the text typed."""
    try:
        value = json.loads(text, parse_constant=lambda constant: text)  # NaN, Infinity: as text
    except (ValueError, RecursionError):
        return text
    return value if value is None or isinstance(value, bool | int | float) else text


def arguments_example(pairs: dict[str, str]) -> str:
    """``pairs`` (each NAME=VALUE typed) as the ``--args`` JSON object to write, quoted for a shell; a value that
    is a credential (``api_key=K``, an address's password) as :func:`.typed_shown` hides it (``"api_key": "…"``)."""
    from .typed_secrets import typed_shown

    shown = {name: typed_shown(f"{name}={text}").partition("=")[2] for name, text in pairs.items()}
    return shlex.quote(json.dumps({name: typed_value(text) if shown[name] == text else shown[name]
                                   for name, text in pairs.items()}, ensure_ascii=False))


def name_value_hint(raw: str) -> Message | None:
    """The sentence for ``--args`` given as ``NAME=VALUE`` (``None`` when it does not read so): the JSON
    object to write instead, the value as JSON where it is a number, true, false or null, else as text."""
    found = _NAME_VALUE.fullmatch(raw)
    if found is None:
        return None
    name, text = found.groups()
    example = arguments_example({name: text})
    return Message(N_("--args takes the tool's arguments as one JSON object, not NAME=VALUE: write --args {example} "
                      "(every argument in that one object); nothing was sent"), {"example": example})


__all__ = ["arguments_example", "name_value_hint", "typed_value"]
