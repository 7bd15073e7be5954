"""The client's own reasons for declining a server's request are recognised, with their values, and said
in the reader's language; another client's words (seen through the proxy) are not ours to translate."""

from __future__ import annotations

from inspector.i18n import set_language
from inspector.i18n.messages import translate
from inspector.mcp.client_reasons import own_reason
from inspector.mcp.messages import Message
from inspector.mcp.sampling_limits import limit_sentence


def said(answered: object, language: str) -> str | None:
    sentence = own_reason(answered)
    set_language(language)
    try:
        return None if sentence is None else translate(sentence)
    finally:
        set_language("en")


def test_a_reason_of_ours_is_said_in_the_readers_language_with_its_values() -> None:
    answered = {"code": -32601, "message": "This client does not support tasks/unknown."}
    assert said(answered, "en") == "This client does not support tasks/unknown."
    assert said(answered, "de") == "Dieser Client unterstützt tasks/unknown nicht."
    stopped = {"code": -32001, "message": "The client stopped waiting for an answer: its time budget for the "
                                          "operation ran out."}
    assert said(stopped, "de") == ("Der Client hat nicht länger auf eine Antwort gewartet: Sein Zeitbudget für "
                                   "den Vorgang war aufgebraucht.")


def test_a_sampling_limit_is_said_from_the_errors_data() -> None:
    sentence = limit_sentence("operation", 3)
    answered = {"code": -1, "message": str(sentence), "data": {"samplingLimit": "operation", "limit": 3}}
    assert said(answered, "en") == str(sentence)
    assert said(answered, "de") != str(sentence)


def test_another_clients_words_are_not_ours() -> None:
    assert own_reason({"code": -1, "message": "User said no."}) is None
    assert own_reason({"code": -1, "message": "This client offers no roots. Ask the admin."}) is None
    assert own_reason({"code": -1}) is None and own_reason("This client offers no roots.") is None


def test_a_long_text_shaped_like_our_sentences_is_answered_at_once() -> None:
    """A leg's name, an error's message and a stored result come from a stranger's file too: the templates'
    lazy groups took time growing with the square of the text (a leg named "a (round " 16,000 times, 144 KB:
    9.8 s each time it was said, on the window's thread; a 120 KB result shaped like a cancel sentence:
    2.9 s). Such a text is no sentence of ours and is left as it is."""
    import time

    from inspector.gui.runs.stored_text import translate_stored
    from inspector.mcp.leg_names import leg_name

    texts = ["a (round " * 16_000, "input: " + "(round " * 16_000,
             "You cancelled the operation after " + "x had been sent to the server " * 4_000,
             "The client could not answer " + ": " * 64_000]
    started = time.perf_counter()
    for text in texts:
        assert leg_name(text) == text and translate_stored(text) == text
        assert own_reason({"code": -32603, "message": text}) is None
    assert time.perf_counter() - started < 2.0  # about 0.01 s; 24 s before
    assert str(leg_name("tools/call (round 2) (resumed)")) == "tools/call (round 2) (resumed)"
    assert isinstance(leg_name("tools/call (round 2)"), Message)
