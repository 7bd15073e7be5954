"""Choosing and setting the language: the setting, else the system locale, else English."""

from __future__ import annotations

import os

import pytest

from inspector import i18n
from inspector.i18n import choose_language, current_language, current_locale, set_language
from inspector.i18n.languages import catalogue_path, load_translations, normalize_language, system_language


@pytest.mark.parametrize(("code", "expected"), [
    ("de", "de"), ("de_DE.UTF-8", "de"), ("de-AT", "de"), ("en_GB", "en"), ("DE", "de"),
    ("fr_FR.UTF-8", None), ("", None), (None, None), ("C", None), ("de_DE@euro", "de"),
])
def test_language_codes_are_normalized(code: str | None, expected: str | None) -> None:
    assert normalize_language(code) == expected


def test_the_setting_wins_over_the_environment() -> None:
    assert choose_language("de", {"LANG": "en_US.UTF-8"}) == "de"
    assert choose_language("en", {"LANG": "de_DE.UTF-8"}) == "en"


def test_without_a_setting_the_environment_decides_in_gettext_order() -> None:
    assert choose_language(None, {"LANG": "de_DE.UTF-8"}) == "de"
    assert choose_language("system", {"LANG": "de_DE.UTF-8"}) == "de"
    assert choose_language(None, {"LC_ALL": "en_US.UTF-8", "LANG": "de_DE.UTF-8"}) == "en"
    assert choose_language(None, {"LC_MESSAGES": "de_CH.UTF-8", "LANG": "en_US"}) == "de"
    assert choose_language(None, {"LANGUAGE": "fr:de", "LANG": "en_US.UTF-8"}) == "de"
    # A "C" locale ignores LANGUAGE, as gettext does.
    assert system_language({"LANGUAGE": "de", "LANG": "C"}) is None
    assert system_language({"LANGUAGE": "de", "LC_ALL": "POSIX", "LANG": "de_DE.UTF-8"}) is None
    # "C.UTF-8" is not "C" to gettext (`LANG=C.UTF-8 LANGUAGE=de ls /nowhere` answers in German):
    # LANGUAGE=de gave English here.
    assert system_language({"LANGUAGE": "de", "LANG": "C.UTF-8"}) == "de"
    assert system_language({"LANGUAGE": "de", "LC_ALL": "C.utf8"}) == "de"
    assert system_language({"LANG": "C.UTF-8"}) is None


def test_english_when_nothing_names_a_known_language() -> None:
    assert choose_language(None, {}) == "en"
    assert choose_language(None, {"LANG": "fr_FR.UTF-8"}) == "en"
    assert choose_language("klingon", {"LANG": "ja_JP"}) == "en"


def test_set_language_falls_back_to_english_and_says_so() -> None:
    try:
        assert set_language("fr") == "en"
        assert current_language() == "en"
        assert set_language(None) == "en"
        assert str(current_locale()) == "en"
    finally:
        set_language("en")


def test_n_marks_without_translating() -> None:
    assert i18n.N_("cancelled") == "cancelled"


def _write_catalogue(folder, translation: str) -> None:  # type: ignore[no-untyped-def]
    from babel.messages.catalog import Catalog
    from babel.messages.mofile import write_mo

    catalog = Catalog(locale="de")
    catalog.add("Runs", translation)
    path = catalogue_path("run-inspector", "de", folder)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as stream:
        write_mo(stream, catalog)


def test_a_catalogue_is_parsed_once_and_read_again_when_compiled_again(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Setting a language again parses nothing (the tests set it before and after each of thousands);
    a catalogue compiled again, or removed, is seen as it is now."""
    _write_catalogue(tmp_path, "Läufe")
    first = load_translations("run-inspector", "de", tmp_path)
    assert first is not None and first.gettext("Runs") == "Läufe"
    assert load_translations("run-inspector", "de", tmp_path) is first
    _write_catalogue(tmp_path, "Durchläufe")  # another size
    assert load_translations("run-inspector", "de", tmp_path).gettext("Runs") == "Durchläufe"
    path = catalogue_path("run-inspector", "de", tmp_path)
    stamp = path.stat().st_mtime_ns
    _write_catalogue(tmp_path, "Durchlaufen")  # as many bytes: its time of change tells it
    os.utime(path, ns=(stamp + 1_000_000, stamp + 1_000_000))
    assert load_translations("run-inspector", "de", tmp_path).gettext("Runs") == "Durchlaufen"
    path.unlink()
    assert load_translations("run-inspector", "de", tmp_path) is None
