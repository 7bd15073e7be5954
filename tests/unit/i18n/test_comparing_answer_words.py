"""The summary of a comparison says a pair's other answer as its row does: two failed calls whose error texts and
content blocks both differ said "another error message and other content blocks" in the row and "another result and
other content blocks" in the summary. Every combination of the two calls' outcomes, another text or not, other blocks
or not, in English and German: the summary's phrase is the row's phrases joined, and ``--json``'s counts agree."""

from __future__ import annotations

import itertools

import pytest

from inspector import i18n
from inspector.i18n.comparing import english_summary_line, row_differences, step_outcome_word, summary_line
from inspector.runs.comparing import Difference, compare_steps, step_facts

OUTCOMES = ("ok", "failed", "cancelled", "")  # "": a call whose source recorded no outcome

#: What the summary says of one pair, by what its row says of its answer (the row's phrases, in order).
SAID = {
    "en": {("another result",): "1 with another result",
           ("another error message",): "1 with another error message",
           ("other content blocks",): "1 with other content blocks",
           ("another result", "other content blocks"): "1 with another result and other content blocks",
           ("another error message", "other content blocks"):
               "1 with another error message and other content blocks"},
    "de": {("anderes Resultat",): "1 mit anderem Resultat",
           ("andere Fehlermeldung",): "1 mit anderer Fehlermeldung",
           ("andere Inhaltsblöcke",): "1 mit anderen Inhaltsblöcken",
           ("anderes Resultat", "andere Inhaltsblöcke"): "1 mit anderem Resultat und anderen Inhaltsblöcken",
           ("andere Fehlermeldung", "andere Inhaltsblöcke"):
               "1 mit anderer Fehlermeldung und anderen Inhaltsblöcken"},
}
ALIKE = {"en": "0 steps alike and ", "de": "0 Schritte gleich und "}
OUTCOME_CHANGE = {"en": "1 {first} in run 1 and {second} in run 2", "de": "1 in Lauf 1 {first} und in Lauf 2 {second}"}


def call(outcome: str, text: str, link: str) -> dict:
    """A stored tool step of ``lookup`` that ended so, its text ``text``, its one block a link to ``link`` (its text
    stored as the text alone, so that either can differ without the other)."""
    payload = {"kind": "tool", "round": 1, "durationMs": 40, "toolName": "lookup", "toolArguments": {"city": "Berlin"},
               "toolResult": text, "contentBlocks": [{"type": "resource_link", "uri": link, "name": "forecast"}]}
    if outcome:
        payload.update(toolIsError=outcome != "ok", toolOutcome=outcome)
    return payload


CASES = [pytest.param(first, second, other_text, other_blocks, id=f"{first or 'unrecorded'}-{second or 'unrecorded'}"
                                                                  f"-text{int(other_text)}-blocks{int(other_blocks)}")
         for first, second, other_text, other_blocks in itertools.product(OUTCOMES, OUTCOMES, (False, True),
                                                                           (False, True))]


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize(("first", "second", "other_text", "other_blocks"), CASES)
def test_the_summary_says_a_pairs_answer_as_its_row_does(language, first, second, other_text, other_blocks):
    one = step_facts(call(first, "upstream 503", "demo://a"), 1)
    other = step_facts(call(second, "upstream 504" if other_text else "upstream 503",
                            "demo://b" if other_blocks else "demo://a"), 1)
    comparison = compare_steps([one], [other])
    (row,) = comparison.rows
    summary = comparison.summary
    i18n.set_language(language)
    try:
        said, line = row_differences(row, 1, 2), summary_line(summary, 1, 2)
        if Difference.OUTCOME in row.differences:
            # Counted under its outcome change alone; the row says that change first, then what follows from it.
            words = {"first": step_outcome_word(one.ended), "second": step_outcome_word(other.ended)}
            assert said[0] == i18n._("{first} → {second}").format(**words)
            assert line == ALIKE[language] + OUTCOME_CHANGE[language].format(**words)
        elif said:
            assert line == ALIKE[language] + SAID[language][tuple(said)], (said, line)
        else:
            assert line == ("1 step alike" if language == "en" else "1 Schritt gleich")
    finally:
        i18n.set_language("en")
    # --json: its text is the English line, and its counts name the pair as the row does.
    english = row_differences(row, 1, 2)
    assert english_summary_line(summary, 1, 2) == summary_line(summary, 1, 2)
    counted = Difference.OUTCOME not in row.differences
    assert summary.error_messages == int(counted and "another error message" in english)
    assert summary.results == int(counted and bool({"another error message", "another result"} & set(english)))
    assert summary.content_blocks == int(counted and "other content blocks" in english)
