"""``--lang``: the command line's language, taken out of the arguments before the parser is built.

The parser's help is written in the chosen language, so the language is known first: ``--lang
CODE`` (or ``--lang=CODE``) is accepted anywhere on the line (``run-inspector runs show --lang de
7``); without it the environment's locale decides (LC_ALL, LC_MESSAGES, LANG, LANGUAGE), else
English. Machine-readable output (``--json``) never depends on it.
"""

from __future__ import annotations

from inspector.i18n import LANGUAGES, _, choose_language, normalize_language, set_language


class LanguageOptionError(ValueError):
    """``--lang`` without a value, or naming a language there is no catalogue for."""


def take_language(argv: list[str]) -> tuple[str | None, list[str]]:
    """The value of the last ``--lang`` (None if none) and the arguments without it."""
    chosen: str | None = None
    rest: list[str] = []
    words = iter(enumerate(argv))
    for position, word in words:
        if word == "--":
            rest.extend(argv[position:])
            break
        if word == "--lang":
            following = next(words, None)
            if following is None:
                raise LanguageOptionError(_("--lang needs a language: {languages}.").format(
                    languages=", ".join(LANGUAGES)))
            chosen = following[1]
        elif word.startswith("--lang="):
            chosen = word.split("=", 1)[1]
        else:
            rest.append(word)
    return chosen, rest


def apply_language(argv: list[str], environ: dict[str, str] | None = None) -> tuple[str | None, list[str]]:
    """Set the language ``argv`` asks for (else the environment's).

    Return the language ``--lang`` named (None: none was named) and the other arguments."""
    chosen, rest = take_language(argv)
    if chosen is not None and normalize_language(chosen) is None:
        set_language(choose_language(None, environ))
        raise LanguageOptionError(_("There is no language {name}; --lang takes one of: {languages}.").format(
            name=repr(chosen), languages=", ".join(LANGUAGES)))
    language = set_language(choose_language(chosen, environ))
    return (language if chosen is not None else None), rest


__all__ = ["LanguageOptionError", "apply_language", "take_language"]
