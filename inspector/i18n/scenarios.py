"""The shipped scenarios' titles, descriptions and words in the reader's language.

A shipped scenario's texts are ours, so the catalogue carries them (marked here, where the
extraction finds them): its description where it is listed, and what is played (the user's prompt,
what the scripted model says and answers, the prose it passes to tools) when it is played, so a
demo in German is German throughout. A scenario file's texts are its author's words and are shown
and played as written.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from inspector.runs.replaying import OWN_DEMO_ORIGIN

from . import DOMAIN, N_, _
from .folding import fold
from .languages import LANGUAGES, load_translations

#: Each shipped scenario's description, word for word as its file says it.
SHIPPED_DESCRIPTIONS = frozenset({
    N_("A tool fails every second call; the model is told, retries, and carries on."),
    N_("Every call succeeds: echo, a sum with structured content, a note written and read back."),
    N_("The catalogue of 130 tools comes 10 to a page; the model walks it and calls one far down."),
    N_("The server takes 1.6 s per handshake message; a 3 s budget is spent before the call is sent."),
    N_("A tool asks the user a question (elicitation): the window asks you; the command line declines it."),
    N_("A note is written, then a call hangs until the user cancels the run after 2 seconds."),
})


#: The words the shipped scenarios play, word for word as their files say them: the prompts, what the
#: model says in each round, its answers, and the tools' arguments that are prose (not "high" or "7").
#: Marked here for the catalogue; ``Scenario.played`` translates them when a shipped scenario is played.
SHIPPED_WORDS = frozenset({
    # flaky-server
    N_("Fetch the flaky value three times and describe the picture."),
    N_("The first try."),
    N_("Once more."),
    N_("And now the picture."),
    N_("I got the value after one retry, and the picture shows coloured stripes."),
    # happy-path
    N_("Say hello, add 2 and 40, keep the sum as a note and show me the notes."),
    N_("First I greet you."),
    N_("Hello from the demo!"),
    N_("Now the sum, and a note with it."),
    N_("Let me read the notes back."),
    N_("Done: the sum is 42 and it is kept as a note."),
    # long-catalogue
    N_("Find the sensor register tool near the end of the list and look up entry 7."),
    N_("Register 117 is the one."),
    N_("Entry 7 of register 117 is found."),
    # slow-handshake
    N_("Echo a word on the slow server."),
    N_("Echoing."),
    N_("anyone there?"),
    N_("The echo came back."),
    N_("The server used the whole budget on the handshake; the call was never sent."),
    # user-answers
    N_("Ask me how I like the demo, then keep a note that you asked."),
    N_("The server's ask_user tool asks you."),
    N_("How do you like the demo so far?"),
    N_("Now a note that I asked."),
    N_("asked the user"),
    N_("Done: the question went out, and a note says so."),
    # user-cancels
    N_("Write a draft note, then wait for the hanging service."),
    N_("Writing the draft."),
    N_("draft"),
    N_("Now the service that never answers."),
    N_("This round is never reached."),
    N_("This answer is never given."),
})


#: Each shipped scenario's title, by its name (the name the command line takes).
SHIPPED_TITLES = {
    "flaky-server": N_("A flaky server"),
    "happy-path": N_("Everything works"),
    "long-catalogue": N_("A long catalogue"),
    "slow-handshake": N_("A slow handshake"),
    "user-answers": N_("The user answers a question"),
    "user-cancels": N_("The user cancels"),
}


def titled(name: str) -> str:
    """How a scenario is listed: a shipped one's title in the reader's language with its name (the
    command line's word for it); any other by its name alone."""
    title = SHIPPED_TITLES.get(name)
    return name if title is None else _("{title} ({name})").format(title=_(title), name=name)


#: A played scenario's run title, as stored: English in every language, as ``--json``, exports and the
#: database keep our words ("agent MODEL: …" and "tools/call echo" are stored the same way).
RUN_TITLE = N_("scenario {name}")


def run_title(name: str) -> str:
    """A played scenario's stored run title: "scenario happy-path" in every language (said in the
    reader's language where it is shown: :func:`said_title`)."""
    return RUN_TITLE.format(name=name)


#: The sources of runs whose title may be a played scenario's: played here, or played elsewhere and
#: imported (an import keeps the title and makes the source ``imported``: a German reader of an English
#: developer's export reads "Szenario happy-path" as the developer's German colleague does).
SCENARIO_TITLED_SOURCES = ("scenario", "imported")


def said_title(title: str, source: str | None = None) -> str:
    """A run's stored ``title`` as the reader sees it: a played scenario's ("scenario happy-path", or
    "Szenario happy-path" as older versions stored a German one) in the reader's language, any other
    as stored. ``source``: the run's, when known (only a ``scenario`` run's title, or an imported run's,
    is ours to say)."""
    if source is not None and source not in SCENARIO_TITLED_SOURCES:
        return title
    for pattern in _stored_titles():
        found = pattern.fullmatch(title)
        if found:
            return _(RUN_TITLE).format(name=found.group("name"))
    return title


@dataclass(frozen=True)
class ShownTitleMatch:
    """Stored scenario run titles whose shown form (:func:`said_title`) holds a needle the stored form may
    not: those stored as ``prefix`` + name + ``suffix`` whose name (no space in it) is any (``how`` "any"),
    starts with ``text`` ("starts"), ends with it ("ends") or is it ("is"); ``text`` is folded
    (:func:`~inspector.i18n.folding.fold`)."""

    prefix: str
    suffix: str
    how: str
    text: str = ""


def shown_title_matches(needle: str) -> tuple[ShownTitleMatch, ...]:
    """Which stored scenario run titles hold ``needle`` (compared folded, as Find and the search compare:
    :func:`~inspector.i18n.folding.fold`) as the reader sees them and
    perhaps not as stored: "Szenario" in German finds "scenario happy-path" (shown "Szenario happy-path"),
    "nario happy" too; in English, "scenario" finds a title an older version stored in German. A needle
    within the name alone is in the stored title already, and a form shown as stored needs none: empty
    then, so a search for what a server or a user wrote costs nothing more."""
    folded = fold(needle.strip())
    if not folded:
        return ()
    shown = _(RUN_TITLE)
    if shown.count("{name}") != 1:
        return ()
    before, after = (fold(part) for part in shown.split("{name}"))
    matches: list[ShownTitleMatch] = []
    for form in _stored_forms():
        if form == shown:
            continue
        prefix, suffix = form.split("{name}")
        found = [ShownTitleMatch(prefix, suffix, how, text) for how, text in _name_pieces(folded, before, after)]
        matches.extend(found)
    return tuple(dict.fromkeys(matches))


def _name_pieces(needle: str, before: str, after: str) -> list[tuple[str, str]]:
    """How a name must be for ``before`` + name + ``after`` to hold ``needle`` across the text around the
    name (all folded): (how, text) as :class:`ShownTitleMatch` says."""
    if needle in before or needle in after:
        return [("any", "")]
    pieces: list[tuple[str, str]] = []
    for taken in range(1, len(before) + 1):  # the needle begins with the last ``taken`` characters before the name
        if not needle.startswith(before[-taken:]) or len(needle) <= taken:
            continue
        rest = needle[taken:]
        if not any(character.isspace() for character in rest):
            pieces.append(("starts", rest))
        for kept in range(1, len(after) + 1):  # ... and ends with the first ``kept`` characters after it
            name = rest[:-kept]
            if rest.endswith(after[:kept]) and name and not any(character.isspace() for character in name):
                pieces.append(("is", name))
    for kept in range(1, len(after) + 1):  # the needle ends with the first ``kept`` characters after the name
        head = needle[:-kept]
        if needle.endswith(after[:kept]) and head and not any(character.isspace() for character in head):
            pieces.append(("ends", head))
    return pieces


@lru_cache(maxsize=1)
def _stored_forms() -> tuple[str, ...]:
    """The forms a played scenario's title was stored in: English, and each catalogue's translation (each
    with one ``{name}``)."""
    forms = {RUN_TITLE}
    for language in LANGUAGES:
        translations = load_translations(DOMAIN, language)
        if translations is not None:
            forms.add(translations.gettext(RUN_TITLE))
    return tuple(sorted(form for form in forms if form.count("{name}") == 1))


@lru_cache(maxsize=1)
def _stored_titles() -> tuple[re.Pattern[str], ...]:
    """The forms a played scenario's title was stored in, as patterns that find its name."""
    return tuple(re.compile(re.escape(form).replace(re.escape("{name}"), r"(?P<name>\S+)")) for form in _stored_forms())


def described(description: str) -> str:
    """``description`` in the reader's language when it is a shipped scenario's, else as written."""
    return _(description) if description in SHIPPED_DESCRIPTIONS else description


def own_demo_server(origin: str | None) -> str | None:
    """The name of the server a run was played on, when it was a demo server started for that run alone (a
    played scenario's, the Play tab's fresh demo server's: its random 127.0.0.1 port died with the run, and the
    stored address alone read as a server that is down), in the reader's language; else None. The stored
    address stays as it is (in ``--json``, an export); where the name is shown, the address goes beside it."""
    return _("Fresh demo server") if origin == OWN_DEMO_ORIGIN else None  # agent.scenario.DEMO_SERVER_NAME's words


__all__ = ["RUN_TITLE", "SHIPPED_DESCRIPTIONS", "SHIPPED_TITLES", "SHIPPED_WORDS", "ShownTitleMatch", "described",
           "own_demo_server", "run_title", "said_title", "shown_title_matches", "titled"]
