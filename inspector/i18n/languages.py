"""Which languages Run Inspector speaks, which one to use, and where their compiled catalogues are."""

from __future__ import annotations

import gettext
import os
from collections.abc import Mapping
from pathlib import Path

DEFAULT_LANGUAGE = "en"

LANGUAGES: dict[str, str] = {"en": "English", "de": "Deutsch"}
"""The languages there are catalogues for, each named in its own language (for a language menu)."""

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
"""Where the build puts the compiled catalogues: ``<lang>/LC_MESSAGES/run-inspector.mo``."""

_ENVIRONMENT_ORDER = ("LC_ALL", "LC_MESSAGES", "LANG")


def normalize_language(code: str | None) -> str | None:
    """The supported language ``code`` names ("de_DE.UTF-8" -> "de"), or None when it names none."""
    if not code:
        return None
    base = code.strip().split(".", 1)[0].split("@", 1)[0].replace("-", "_").split("_", 1)[0].lower()
    return base if base in LANGUAGES else None


def system_language(environ: Mapping[str, str] | None = None) -> str | None:
    """The supported language the environment's locale asks for, or None.

    As gettext reads it: ``LANGUAGE`` (a colon-separated preference list) first unless the locale
    is "C"/"POSIX", then the first of ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` that is set. "C.UTF-8"
    (many containers' and CI runners' default) is not "C" to gettext: ``LANGUAGE`` still counts there.
    """
    env = os.environ if environ is None else environ
    locale_name = next((env[name] for name in _ENVIRONMENT_ORDER if env.get(name)), "")
    if locale_name in ("C", "POSIX"):
        return None
    for preferred in env.get("LANGUAGE", "").split(":"):
        language = normalize_language(preferred)
        if language:
            return language
    return normalize_language(locale_name)


def choose_language(setting: str | None, environ: Mapping[str, str] | None = None) -> str:
    """The setting's language, else the system locale's, else English."""
    return normalize_language(setting) or system_language(environ) or DEFAULT_LANGUAGE


def catalogue_path(domain: str, language: str, locale_dir: Path = LOCALE_DIR) -> Path:
    """Where the compiled catalogue of ``language`` is (it may not exist)."""
    return locale_dir / language / "LC_MESSAGES" / f"{domain}.mo"


#: The catalogues parsed so far, each with the stamp (time of change, size, inode) of the file it was read from.
_PARSED: dict[Path, tuple[tuple[int, int, int], gettext.GNUTranslations]] = {}


def load_translations(domain: str, language: str, locale_dir: Path = LOCALE_DIR) -> gettext.GNUTranslations | None:
    """The compiled catalogue of ``language`` as it is on disk now, or None when there is none. Parsed
    once and kept while its file stays the same (a catalogue compiled again is read again): setting a
    language, which the window does on each switch and the tests before and after each test, costs no
    parse of 1,000 messages."""
    path = catalogue_path(domain, language, locale_dir)
    try:
        with path.open("rb") as stream:
            status = os.fstat(stream.fileno())
            stamp = (status.st_mtime_ns, status.st_size, status.st_ino)
            kept = _PARSED.get(path)
            if kept is not None and kept[0] == stamp:
                return kept[1]
            translations = gettext.GNUTranslations(stream)
    except OSError:
        return None
    _PARSED[path] = (stamp, translations)
    return translations
