"""The catalogues: every German message translated, not fuzzy, with its source's placeholders and
complete plural forms; and no message in the sources that the catalogue does not have."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from tools.translations import read_settings

ROOT = Path(__file__).resolve().parents[3]
SETTINGS = read_settings(ROOT)


def catalogue(language: str) -> Catalog:
    with SETTINGS.catalogue(language).open("rb") as stream:
        return read_po(stream, locale=language)


#: argparse's own fields ("%(prog)s", "%s"), beside ours in braces.
PERCENT_FIELD = re.compile(r"%(?:\(\w+\))?[sdr]")


def placeholders(text: str) -> set[str]:
    return ({field for _literal, field, _spec, _conversion in string.Formatter().parse(text) if field is not None}
            | set(PERCENT_FIELD.findall(text)))


def messages(language: str):
    return [message for message in catalogue(language) if message.id]


@pytest.mark.parametrize("language", SETTINGS.languages)
def test_the_catalogue_parses_and_has_plural_rules(language: str) -> None:
    assert catalogue(language).num_plurals == 2
    assert len(messages(language)) > 400


def test_every_german_message_is_translated_and_not_fuzzy() -> None:
    untranslated = [message.id for message in messages("de")
                    if message.fuzzy or not (all(message.string) if isinstance(message.string, tuple)
                                             else message.string)]
    assert untranslated == []


def test_every_german_translation_keeps_its_placeholders_and_plural_forms() -> None:
    """Each German form says exactly the placeholders of its English: the plural forms those of the
    English plural ("{count} Schritte", never "Schritte"); the singular those of the English
    singular, where it may say {count} in words ("einmal")."""
    wrong = []
    for message in messages("de"):
        sources = message.id if isinstance(message.id, tuple) else (message.id,)
        targets = message.string if isinstance(message.string, tuple) else (message.string,)
        if isinstance(message.id, tuple) and len(targets) != 2:
            wrong.append((message.id, "plural forms"))
        singular, plural = placeholders(sources[0]), placeholders(sources[-1])
        for form, target in enumerate(targets):
            said = placeholders(target)
            if form:
                kept = said == plural
            else:
                kept = not (said - singular or (singular - {"count"}) - said)
            if not kept:
                wrong.append((message.id, target))
    assert wrong == []


def test_reference_words_for_outcomes_and_timeline_headings() -> None:
    german = {message.id: message.string for message in messages("de")}
    for english, word in {"ok": "ok", "failed": "fehlgeschlagen", "cancelled": "abgebrochen", "Outcome": "Ergebnis",
                          "Time": "Zeit", "Source": "Quelle", "Kind": "Art", "Round": "Runde", "Details": "Details",
                          "Status": "Status", "Started": "Gestartet"}.items():
        assert german[english] == word


def test_english_plurals_work_without_translations() -> None:
    from inspector import i18n

    assert i18n.set_language("en") == "en"
    assert i18n.ngettext("{count} step", "{count} steps", 1) == "{count} step"
    assert i18n.ngettext("{count} step", "{count} steps", 3) == "{count} steps"


def test_no_message_escapes_the_catalogue() -> None:
    """Extract from the sources now and compare with the template and both catalogues."""
    keywords = {}
    for keyword in SETTINGS.keywords:
        name, _colon, spec = keyword.partition(":")
        keywords[name] = tuple((int(part[:-1]), "c") if part.endswith("c") else int(part)
                               for part in spec.split(",")) if spec else None
    keywords = {name: (spec if spec is None or len(spec) > 1 or isinstance(spec[0], tuple) else spec[0])
                for name, spec in keywords.items()}
    found = set()
    for source in SETTINGS.sources:
        for _file, _line, message, _comments, context in extract_from_dir(
                ROOT / source, keywords=keywords, comment_tags=SETTINGS.comment_tags):
            message_id = message[0] if isinstance(message, tuple) else message
            found.add((context, message_id))
    assert len(found) > 400
    for language in SETTINGS.languages:
        known = {(message.context, message.id[0] if isinstance(message.id, tuple) else message.id)
                 for message in messages(language)}
        assert sorted(found - known, key=str) == [], f"run `make translations`: {language} lacks these"


def test_no_literal_english_sentence_is_shown_without_the_catalogue() -> None:
    """A widget text set from a bare string literal ("setText('Run')") would never be translated."""
    bare = re.compile(r"\.(setText|setToolTip|setWindowTitle|setPlaceholderText|addTab|setTitle)"
                      r"\([^)]*?\"[A-Za-z][a-z]+ ")
    offenders = []
    for path in (ROOT / "inspector" / "gui").rglob("*.py"):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if bare.search(line) and "_(" not in line and "gettext(" not in line:
                offenders.append(f"{path.relative_to(ROOT)}:{number}")
    assert offenders == []


def _calls_inside_fstrings(source: str) -> list[str]:
    import ast

    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.JoinedStr):
            for inner in ast.walk(node):
                if isinstance(inner, ast.Call) and isinstance(inner.func, ast.Name) \
                        and inner.func.id in {keyword.split(":")[0] for keyword in SETTINGS.keywords}:
                    found.append(f"line {inner.lineno}: {inner.func.id}(...)")
    return found


def test_no_message_is_hidden_inside_an_f_string() -> None:
    """Babel cannot see a _() call inside an f-string (it is one token), so such a message never
    reaches the catalogue and stays English in every language."""
    hidden = {str(path.relative_to(ROOT)): calls for path in (ROOT / "inspector").rglob("*.py")
              if (calls := _calls_inside_fstrings(path.read_text(encoding="utf-8")))}
    assert hidden == {}
    assert _calls_inside_fstrings("x = f\"{_('Duration (ms)'):>13}\"") == ["line 1: _(...)"]


def _german_texts(message) -> tuple[str, str]:  # type: ignore[no-untyped-def]
    sources = message.id if isinstance(message.id, tuple) else (message.id,)
    translations = message.string if isinstance(message.string, tuple) else (message.string,)
    return " ".join(sources), " ".join(translations)


def test_german_keeps_the_house_words_for_operation_outcome_and_result() -> None:
    """An operation is a "Vorgang", an outcome an "Ergebnis", a result a "Resultat": the proxy said
    "jede Operation", a replay "derselbe Ausgang, dasselbe Ergebnis" (its outcome and its result
    in words that mean the other), an output schema check "Das Ergebnis des Tools"."""
    wrong = []
    for message in messages("de"):
        source, german = _german_texts(message)
        if re.search(r"(?i)\boperations?\b", source) and re.search(r"\bOperation(en)?\b", german):
            wrong.append((source, german))
        if re.search(r"(?i)\boutcomes?\b", source) and re.search(r"\bAusgang|\bAusgänge", german):
            wrong.append((source, german))
        if (re.search(r"(?i)\bresults?\b", source) and not re.search(r"(?i)\boutcomes?\b", source)
                and "Ergebnis" in german):
            wrong.append((source, german))
    assert wrong == []


def test_german_calls_a_payload_rohdaten() -> None:
    """A step's payload is "Rohdaten" (the step detail's tab, its copy button): an import's refusal
    and a damaged step's note said "Nutzdaten" for the same thing."""
    wrong = [(source, german) for source, german in map(_german_texts, messages("de"))
             if re.search(r"(?i)\bpayloads?\b", source) and "Nutzdaten" in german]
    assert wrong == []


def test_german_says_default_one_way() -> None:
    """A default is "Standard" in every help text: `call --help` said "Standard", "Vorgabe" and
    "Voreinstellung" for it, three options apart."""
    wrong = [(source, german) for source, german in map(_german_texts, messages("de"))
             if re.search(r"(?i)\bdefault\b", source) and re.search(r"Vorgabe|Voreinstellung", german)]
    assert wrong == []


def test_german_says_plain_text_one_way() -> None:
    """Plain text is "reiner Text" wherever the window says it: the documentation's files were
    "Klartext" (which reads as "not encrypted", in a program that keeps secrets) in one sentence and
    "einfacher Text" in the next."""
    wrong = []
    for message in messages("de"):
        source, german = _german_texts(message)
        if re.search(r"(?i)\bplain text\b", source) and not re.search(r"\breine[nrs]? Text\b", german):
            wrong.append((source, german))
        if "Klartext" in german:
            wrong.append((source, german))
    assert wrong == []


def test_german_says_a_time_out_one_way() -> None:
    """A time-out is "Zeitüberschreitung" wherever it is said: the step's summary and the budget bar said
    "fehlgeschlagen: Zeit überschritten" while its Result and Details said "Zeitüberschreitung: …" (and a
    connection that timed out "dauerte zu lange")."""
    wrong = [(source, german) for source, german in map(_german_texts, messages("de"))
             if re.search(r"(?i)\btimed out\b|\btime-?outs?\b", source) and "Zeitüberschreitung" not in german]
    assert wrong == []


def test_german_puts_an_ellipsis_where_the_english_does() -> None:
    """An action under way ends its word with "…" in German as in English ("Verbindung zu {server}…",
    "wird abgebrochen…", 22 such sentences and every menu item); eight had a space before it
    ("Der Demo-Server startet …", "… aus dem System-Schlüsselbund gelesen …"). A "…" standing for
    what is left out of a list or a range keeps its space (", …", "{first} … {last}"), as in English."""
    spaced = re.compile(r"\w …")
    wrong = []
    for message in messages("de"):
        sources = message.id if isinstance(message.id, tuple) else (message.id,)
        targets = message.string if isinstance(message.string, tuple) else (message.string,)
        for target in targets:
            if len(spaced.findall(target)) > max(len(spaced.findall(source)) for source in sources):
                wrong.append(target)
    assert wrong == []
