"""argparse's refusals in English for ``--json``, beside the sentence shown in the reader's language.

argparse makes its refusal as it meets the word it refuses (``invalid choice: …``, ``expected one
argument``, and our types' sentences: ``--limit x``), in the language of the command line: with
``--lang de`` the JSON object's ``message``, which is English whatever the language
(docs/cli-json.md), carried the German sentence. :func:`english_refusal` parses the same words again
with this thread saying its words in English, and gives that refusal.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

from inspector.i18n import current_language, in_english


def english_refusal(parse: Callable[[], object]) -> str | None:
    """The refusal ``parse`` (a parse that was refused) makes in English; None in English already, or when
    it is not refused the same way again."""
    if current_language() == "en":
        return None
    with in_english():
        try:
            parse()
        except argparse.ArgumentError as refused:
            return str(refused)
        except Exception:  # noqa: BLE001 - refused otherwise in English: said as it was
            return None
    return None


__all__ = ["english_refusal"]
