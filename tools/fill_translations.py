"""Fill missing translations of a catalogue from a Python file of ``DE = {msgid: msgstr | (singular, plural)}``.

    python tools/fill_translations.py de /path/to/translations.py [...]

A helper for translators working in bulk: it only fills messages that are untranslated (or fuzzy),
never overwrites a translation, and reports the messages still untranslated afterwards.
"""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str]) -> int:
    language, *sources = argv
    table: dict = {}
    for source in sources:
        table.update(runpy.run_path(source)["DE"])
    path = ROOT / "translations" / language / "LC_MESSAGES" / "messages.po"
    with path.open("rb") as stream:
        catalog = read_po(stream, locale=language)
    missing = []
    for message in catalog:
        if not message.id:
            continue
        key = message.id[0] if isinstance(message.id, tuple) else message.id
        done = all(message.string) if isinstance(message.string, tuple) else bool(message.string)
        if done and not message.fuzzy:
            continue
        if key not in table:
            missing.append(key)
            continue
        value = table[key]
        message.string = tuple(value) if isinstance(message.id, tuple) else value
        message.flags.discard("fuzzy")
    with path.open("wb") as stream:
        write_po(stream, catalog, width=100, ignore_obsolete=True)
    for key in missing:
        print(f"untranslated: {key!r}")
    return 1 if missing else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
