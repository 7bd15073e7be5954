"""The German house words: each key English term is said with one of a few German words in every
entry whose English has the term as a word, so that one thing keeps one name across the window and
the command line (the Runs tab's column "Started" read "Erstellt", and `runs show` "erstellt", where
a run is begun, not created; a stack trace's note said "der Reiter Rohdaten" where every other entry
says "Tab"). And "abgebrochen" is kept for what was cancelled: a server that broke off its answer
failed, and "abgebrochen" beside it read as a cancel.

An entry that says the term otherwise on purpose is listed in EXCEPTIONS with its reason."""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest

from tests.unit.i18n.test_catalogues import messages


@dataclass(frozen=True)
class Term:
    english: str  # a regular expression matched as a word in the English, case-insensitive
    german: str  # the allowed German forms: one must be in each German form of the entry
    never: str = ""  # German that must not say it


TERMS = {
    "started": Term(r"started", r"gestartet|begann|begonnen|Start", never=r"erstellt"),
    "cancelled": Term(r"cancell?ed", r"abgebrochen|abbrechen|Abbruch", never=r"fehlgeschlagen"),
    # "failed to answer" is not the outcome.
    "failed": Term(r"failed(?! to\b)", r"fehlgeschlagen|fehl\b|fehlschl|scheiter", never=r"abgebrochen"),
    "step": Term(r"steps?", r"Schritt"),
    "run": Term(r"(?:a|the|this|each|every|one|its|which|other|earlier|older|stored|played|replayed) runs?"
                r"|runs?(?= \{)|run's|runs'", r"Lauf|Läuf", never=r"\bRuns?\b(?! Inspector)"),
    "budget": Term(r"budgets?", r"Budget"),
    "deadline": Term(r"deadlines?", r"Frist"),
    "server": Term(r"servers?", r"Server"),
    "sign-in": Term(r"sign-ins?", r"Anmeld|anmeld"),
    "trace": Term(r"traces?", r"Trace", never=r"Aufzeichnung"),
    "span": Term(r"spans?", r"Span"),
    "leg": Term(r"legs?", r"Etappe"),
    # "another tool" is another program (a sqlite3 shell, a server).
    "tool": Term(r"(?<!another )tools?", r"Tool"),
    "plumbing": Term(r"plumbing", r"Infrastruktur"),
    "payload": Term(r"payload", r"Rohdaten"),
    "command line": Term(r"command line", r"Befehlszeile|BEFEHLSZEILE", never=r"Kommandozeile"),
    "tab": Term(r"tabs?", r"Tab", never=r"Reiter|Registerkarte"),
    "system keyring": Term(r"system keyring", r"System-Schlüsselbund", never=r"Schlüsselbund des Systems"),
    "credentials": Term(r"credentials", r"Zugangsdaten", never=r"Anmeldedaten"),
    "event stream": Term(r"event streams?", r"Ereignisstr", never=r"Event-Stream"),
    "configured": Term(r"configured", r"eingerichtet|eingestellt", never=r"konfiguriert"),
    "timed out": Term(r"timed out", r"Zeitüberschreitung"),
    "replay": Term(r"replay(?:s|ed)?", r"[Ww]iederhol"),
    "play": Term(r"play(?:s|ed|ing)?", r"[Vv]orf[üu]hr|vorgeführt", never=r"abspiel|gespielt"),
    "scenario": Term(r"scenarios?", r"Szenari"),
    "workbench": Term(r"workbench", r"Werkbank"),
    "outcome": Term(r"outcomes?", r"Ergebnis"),
    "result": Term(r"results?", r"Resultat"),
    "id": Term(r"id", r"\bID\b", never=r"Kennung"),
    # A call whose trace recorded no outcome: its Outcome cell says "nicht erfasst", a run's reason "kein Ergebnis
    # erfasst", and its Details said "kein Ergebnis aufgezeichnet": three words for one thing on one screen.
    "no outcome recorded": Term(r"no outcome recorded|\{unrecorded\} not recorded", r"erfasst",
                                never=r"aufgezeichnet"),
}

#: (term, English message id): why the German says it otherwise.
EXCEPTIONS = {
    ("step", "{count} step of the hidden plumbing has a note: --plumbing lists it with its note."):
        "hidden plumbing is said as the spans it is, \"Infrastruktur-Span\"",
    ("step", "Find: {count} step of the hidden plumbing holds the text; tick “Show plumbing” to see it."):
        "hidden plumbing is said as the spans it is, \"Infrastruktur-Span\"",
    ("step", "run the tool as a task when it offers that (a tool that requires one always runs as one); "
             "its polls are steps of the one operation"):
        "a task's polls are the legs (\"Etappen\") of its operation, not steps of a run",
    ("step", "{method} was not sent to the server {server}: the {budget}-second budget of this operation was used "
             "up by its earlier steps. The server was not asked; this is the configured operation budget (a setting "
             "you can raise), not a server that failed to answer."):
        "the retired English of a spent budget, said as its successor says it: the earlier legs (\"Etappen\")",
    ("configured", "Configured"): "the import dialog's column: whether a server is there already, \"Vorhanden\"",
    ("failed", "The skill from the server {server} failed verification and was not loaded: {problem}."):
        "a skill that failed its check \"hat die Prüfung nicht bestanden\"",
    ("tool", "tool write"): "the kind of a step, said short for the narrow Kind column, \"Schreibzugriff\"",
    ("play", "{run}: playing, {steps} steps so far"): "a run being played is said to be running, \"läuft\"",
    ("replay", "replay needs the step to call again, as RUN:STEP, e.g. 17:3 or last:1 (the run's id, last, last~N or "
               "the beginning of its uid, and the step's number as `runs show` prints it)."): "the command's name",
    ("replay", "replay needs the step as RUN:STEP, e.g. 17:3 or last:1 (the run's id, last, last~N or the beginning "
               "of its uid, and the step's number as `runs show` prints it), not {given}."): "the command's name",
    ("outcome", "outcome must be one of {choices}, got {value}"): "the name of a field of a step in a trace file",
}

#: What is not English prose: placeholders, code in backticks or quotes, options, and our name.
NOT_PROSE = re.compile(r"\{[^{}]*\}|`[^`]*`|'[^']*'|\"[^\"]*\"|--[\w-]+|%\(\w+\)[sdr]|[Rr]un[ -][Ii]nspector"
                       r"|\b[\w.-]+/[\w./-]+|\bstack trace\b")


def _prose(text: str) -> str:
    return NOT_PROSE.sub(" ", text.replace("&", ""))  # "Vor&führen": a mnemonic's mark


def _entries() -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    return [(message.id if isinstance(message.id, tuple) else (message.id,),
             message.string if isinstance(message.string, tuple) else (message.string,))
            for message in messages("de")]


def _strays(name: str, term: Term) -> list[tuple[str, str]]:
    english = re.compile(rf"(?<![\w-])(?:{term.english})(?![\w-])", re.IGNORECASE)
    strays = []
    for sources, targets in _entries():
        if (name, sources[0]) in EXCEPTIONS or not any(english.search(_prose(source)) for source in sources):
            continue
        for target in targets:
            said = _prose(target)
            if not re.search(term.german, said, re.IGNORECASE) or (term.never and re.search(term.never, said)):
                strays.append((sources[0], target))
    return strays


@pytest.mark.parametrize("name", TERMS)
def test_a_term_is_said_with_its_house_word_everywhere(name: str) -> None:
    assert _strays(name, TERMS[name]) == []


def test_abgebrochen_says_a_cancel() -> None:
    """A server that broke off its answer or its connection failed; nobody cancelled it. (A connection
    the system aborted is "abgebrochen" as the system says it.)"""
    wrong = [(sources[0], target) for sources, targets in _entries() for target in targets
             if re.search(r"abgebrochen", target) and not any(re.search(r"cancel|abort", source, re.IGNORECASE)
                                                               for source in sources)]
    assert wrong == []


def test_every_exception_is_still_an_entry_with_its_term() -> None:
    ids = {sources[0] for sources, _targets in _entries()}
    assert [key for key in EXCEPTIONS if key[1] not in ids] == []


def test_the_check_finds_a_stray_word() -> None:
    """The check itself: an entry said with another word, or with a word it must never use, is found."""
    assert _strays("started", Term(r"Started", r"Beginn")) != []
    assert _strays("started", Term(r"Started", r"gestartet|begann|begonnen|Start", never=r"gestartet")) != []
