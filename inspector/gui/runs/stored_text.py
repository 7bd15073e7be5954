"""Sentences stored in English (in the database, traces and exports) said in the user's language.

The store keeps a step's result text as it was written, in English, so exports and ``--json`` never
change with the language. Where a person reads it, a sentence the program itself wrote (a cancel,
say) is recognised by its template and said again in the current language with the same values;
any other text (a server's, a tool's, a trace's) is shown as it is.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from inspector.agent.scenario import DEMO_SERVER_NAME
from inspector.i18n import _
from inspector.i18n.details import server_answer_marked, stored_text_said, without_disagreement
from inspector.i18n.messages import translate
from inspector.mcp.client_reasons import filled
from inspector.mcp.errors import CANCELLED_BEFORE_SEND, CANCELLED_IN_FLIGHT
from inspector.mcp.leg_names import leg_name
from inspector.mcp.messages import N_

#: What a cancelled step says in sample runs and traces written by the reference implementation.
CANCELLED_BY_THE_USER = N_("cancelled by the user")

#: The English templates this module recognises in stored text.
KNOWN_TEMPLATES = (CANCELLED_IN_FLIGHT, CANCELLED_BEFORE_SEND, CANCELLED_BY_THE_USER)

#: The cancel sentences of ours said of a run read from a file (an export of another machine's, say): the
#: cancel was the person's who recorded the run there, not the reader's ("You cancelled …" told support
#: they had cancelled the customer's call).
RECORDERS_CANCELS = {
    CANCELLED_IN_FLIGHT: N_("The person who recorded this run cancelled the operation after {method} had been "
                            "sent to the server {server}, before its answer arrived. Whether the server acted "
                            "on it is unknown."),
    CANCELLED_BEFORE_SEND: N_("The person who recorded this run cancelled the operation before its request "
                              "reached the server {server} (during {method}); the work was not sent."),
}


#: Names of ours that fill a stored sentence in English and are said in the reader's language too: a
#: scenario's fresh demo server ("… had been sent to the server Fresh demo server …" said in German
#: named it "Fresh demo server", where the Play tab and a failed step's sentence say "Demo-Server (frisch)").
SAID_NAMES = frozenset({str(DEMO_SERVER_NAME)})


def _recognised(text: str, recorded_elsewhere: bool = False) -> str | None:
    stripped = text.strip()
    for template in KNOWN_TEMPLATES:
        found = filled(template, stripped)
        if found is not None:
            values = {name: _(value) if value in SAID_NAMES else translate(leg_name(value)) if name == "method"
                      else value for name, value in found.groupdict().items()}
            said = RECORDERS_CANCELS.get(template, template) if recorded_elsewhere else template
            return _(said).format(**values)
    return None


def translate_stored(text: str) -> str:
    """``text`` in the current language if it is one of :data:`KNOWN_TEMPLATES` filled in; else as it is."""
    said = _recognised(text)
    return text if said is None else said





def begins_with_wording(stored: str, payload: Mapping[str, Any]) -> bool:
    """Whether ``stored`` begins with the sentence of ours the step keeps as data (``wording``): the
    sentence itself says what happened (who cancelled, say), in the reader's language."""
    wording = payload.get("wording")
    english = wording.get("text") if isinstance(wording, Mapping) else None
    return isinstance(english, str) and bool(english) and stored.startswith(english)


#: The run sources whose steps this app made itself, where a cancel was the user's (the proxy's runs,
#: ``live`` too, keep their own sentence as data: see :func:`begins_with_wording`).
OWN_SOURCES = frozenset({"live", "scenario"})


def cancelled_result_text(text: str, in_flight: bool | None, run_source: str = "") -> str:
    """What a cancelled step's result says in the current language: a known sentence translated;
    another text (a trace's own words) under a sentence made from the stored outcome. Only a run this
    app made (``run_source`` in :data:`OWN_SOURCES`) says the user cancelled: a run read from a trace
    (``imported``, received or pulled) says the step was cancelled as the trace recorded it, and a
    sentence of ours in it that the person who recorded it cancelled (:data:`RECORDERS_CANCELS`)."""
    said = _recognised(text, recorded_elsewhere=run_source not in OWN_SOURCES)
    if said is not None or not text.strip():
        return text if said is None else said
    if run_source not in OWN_SOURCES:
        if in_flight is True:
            sentence = _("Cancelled after its request had been sent, as the trace recorded it; whether the server "
                         "acted on it is unknown.")
        elif in_flight is False:
            sentence = _("Cancelled before its request was sent, as the trace recorded it.")
        else:
            sentence = _("Cancelled, as the trace recorded it.")
        return _("{sentence}\nThe trace's words: {text}").format(sentence=sentence, text=text)
    if in_flight is True:
        sentence = _("You cancelled this step after its request had been sent; whether the server acted on it "
                     "is unknown.")
    elif in_flight is False:
        sentence = _("You cancelled this step before its request was sent.")
    else:
        sentence = _("You cancelled this step.")
    return _("{sentence}\nStored text: {text}").format(sentence=sentence, text=text)


def result_said(stored: str, fields: Mapping[str, Any], outcome: str, in_flight: bool | None,
                run_source: str = "", whole: bool = True) -> str:
    """A step's stored result (or content) as its Result tab says it, in the current language: the line
    on how a joined call's two sides disagree left out (the band above the tabs says it), an answer the
    client never received said to be the server's, our sentences and the importer's notes said in the
    reader's words, a cancel said as whose it was. ``fields``: the step's payload (``whole``), or the
    few fields its timeline row keeps (``whole=False``: the line on the sides is left as it is)."""
    if whole and fields:
        stored = server_answer_marked(without_disagreement(stored, fields), fields)
    said = stored_text_said(stored, fields)
    # A cancel told by a sentence of ours kept as data (the agent's, through the proxy) says it all.
    if outcome == "cancelled" and not begins_with_wording(stored, fields):
        return cancelled_result_text(said, in_flight, run_source)
    return said


__all__ = ["CANCELLED_BY_THE_USER", "KNOWN_TEMPLATES", "OWN_SOURCES", "begins_with_wording", "cancelled_result_text",
           "result_said", "translate_stored"]
