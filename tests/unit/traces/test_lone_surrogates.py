"""An escaped lone high surrogate is refused at the same byte however the bytes come to the parser
(yajl itself reads one as "?", or joins it with the escape after it), and nothing else is."""

from __future__ import annotations

import json
import re

import pytest

from inspector.traces.json_stream import JSON_ERRORS, event_parser

_LONE = re.compile("[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]")


def _refused_at(document: bytes, piece: int, exact: bool = False) -> int | None:
    """The byte the parser refuses ``document`` at, sent ``piece`` bytes at a time (None: taken whole)."""
    events, parser = event_parser(exact)
    sent = 0
    try:
        while sent < len(document):
            parser.send(document[sent:sent + piece])
            sent += piece
        parser.close()
    except UnicodeDecodeError as error:
        return sent + error.start
    assert events[1] == ("string", json.loads(document)[0])
    return None


@pytest.mark.parametrize(("body", "at"), [
    (rb"a\ud800b", 9),               # yajl: "a?b"
    (rb"a\ud800\u0041", 11),         # yajl: U+10041
    (rb"\uDBFF", 8),
    (rb"\ud800\ud800\udc00", 11),    # the first is alone, the pair after it is not
    (rb"\\\ud800", 10),              # an escaped backslash, then the surrogate
    (rb"\ud83d\ude00", None),        # a pair: text
    (rb"\\ud800", None),             # an escaped backslash, then letters
    (rb"\\\\ud800", None),
    (rb"\\\\\\\\\\", None),
])
@pytest.mark.parametrize("exact", [False, True])
def test_the_same_byte_is_refused_in_pieces_of_any_size(body: bytes, at: int | None, exact: bool) -> None:
    document = b'["' + body + b'"]'
    assert {_refused_at(document, piece, exact) for piece in range(1, len(document) + 1)} == {at}


def test_pieces_of_escapes_are_refused_exactly_when_the_text_holds_a_lone_surrogate() -> None:
    atoms = [rb"\ud800", rb"\udbff", rb"\uDFFF", rb"\u0041", rb"\\", rb"\\u", b"a", b"ud800", rb"\n"]
    for first in atoms:
        for second in atoms:
            for third in atoms:
                document = b'["' + first + second + third + b'"]'
                lone = bool(_LONE.search(json.loads(document)[0]))
                for piece in (1, 2, 5, len(document)):
                    try:
                        refused = _refused_at(document, piece) is not None
                    except JSON_ERRORS:  # a lone low one: the parser's own refusal
                        refused = True
                    assert refused == lone, (document, piece)
