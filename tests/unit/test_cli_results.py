"""How the command line words what an operation returned."""

from __future__ import annotations


def test_catalogue_sentences_use_real_plural_forms():
    from inspector.agent.operations import catalogue_sentence
    from inspector.cli.results import catalogue_heading

    assert str(catalogue_sentence(1, 1, ["echo"])) == "1 tool in 1 page: echo"
    assert str(catalogue_sentence(4, 2, ["a", "b", "c", "d"])) == "4 tools in 2 pages: a, b, c, d"
    assert catalogue_heading(0, 1) == "0 tools in 1 page:"
    assert catalogue_heading(1, 3) == "1 tool in 3 pages:"


def test_the_catalogue_heading_writes_its_numbers_as_the_language_does():
    """`tools` on a long catalogue said "1510 Tools auf 4 Seiten" in German, "1510 tools" in English."""
    from inspector.cli.results import catalogue_heading
    from inspector.i18n import set_language

    try:
        assert catalogue_heading(1510, 1) == "1,510 tools in 1 page:"
        assert catalogue_heading(12_000, 1_200) == "12,000 tools in 1,200 pages:"
        set_language("de")
        assert catalogue_heading(1510, 4) == "1.510 Tools auf 4 Seiten:"
        assert catalogue_heading(12_000, 1_200) == "12.000 Tools auf 1.200 Seiten:"
    finally:
        set_language("en")


def test_block_lines_name_each_kind_in_a_sentence():
    from inspector.cli.results import block_lines, step_extra_lines
    from inspector.i18n.content_blocks import size_words

    assert block_lines({"type": "text", "size": 3}) == []
    assert block_lines({"type": "image", "mimeType": "image/png", "size": 1}) == ["Image (image/png, 1 byte)."]
    assert block_lines({"type": "audio"}) == ["Audio."]
    assert block_lines({"type": "resource_link", "uri": "file:///a", "title": "A file", "name": "a"}) == [
        "Resource link A file: file:///a."]
    assert block_lines({"type": "resource", "uri": "blob://x", "mimeType": "application/pdf", "size": 2000}) == [
        "Embedded resource blob://x (application/pdf, 2,000 bytes)."]
    assert block_lines({"type": "hologram"}) == ["A content block of the unknown type hologram."]
    assert step_extra_lines({"contentBlocksDropped": 1}) == ["1 more content block was not kept."]
    assert step_extra_lines({"contentBlocksDropped": 3}) == ["3 more content blocks were not kept."]
    assert step_extra_lines({"contentBlocksDropped": True}) == [] and size_words(None) is None


def test_progress_and_request_counts_are_grouped_as_the_amounts_beside_them():
    """`runs show` said "The server sent 20000 progress notes; … 20,000 of 20,000." and "19950 notes …
    were not kept": the counts ungrouped beside the grouped amounts, in German too."""
    from inspector.cli.results import progress_lines, server_request_lines
    from inspector.i18n import set_language

    notes = [{"at_ms": 1500, "progress": 20_000, "total": 20_000}] * 50
    asked = [{"method": "sampling/createMessage", "count": 1200}]
    try:
        assert progress_lines(notes, 19_950) == [
            "The server sent 20,000 progress notes; the last, at 1.5 s: 20,000 of 20,000.",
            "19,950 notes between the first and the last ones were not kept."]
        assert server_request_lines(asked) == [
            "The server asked the client for sampling/createMessage (1,200 times); the client answered."]
        set_language("de")
        said = progress_lines(notes, 19_950)
        assert "20.000" in said[0] and "20000" not in said[0]
        assert said[1].startswith("19.950 ")
        assert "(1.200-mal)" in server_request_lines(asked)[0]
    finally:
        set_language("en")


def test_a_stored_steps_structured_content_is_said_bounded_and_its_cut_text_as_it_was_kept():
    """What `runs show` and the window's step detail say of a step's structured content when no text block
    carries it: the heading, the JSON's lines indented, cut, and how many more characters there are."""
    from inspector.i18n import set_language
    from inspector.i18n.content_blocks import stored_structure_lines

    kept = {"structuredContent": {"note": "Grüße"}}
    assert stored_structure_lines(kept, 100) == ["Its structured content:", "    {", '      "note": "Grüße"',
                                                 "    }"]
    text_too = {**kept, "contentBlocks": [{"type": "text", "size": 5}]}
    assert stored_structure_lines(text_too, 100) == []  # the text is said: not the structure again
    cut = {"structuredContentText": '{"rows":[1,2,3]}…' + "x" * 2000}  # the cut JSON text a step keeps of a larger one
    try:
        lines = stored_structure_lines(cut, 1000)
        assert lines[1] == '    {"rows":[1,2,3]}…' + "x" * 983
        assert lines[2:] == ["1,017 more characters of the structured content are not shown here; the step's "
                             "payload has them."]
        set_language("de")
        assert stored_structure_lines(cut, 1000)[2:] == [
            "1.017 weitere Zeichen des strukturierten Inhalts sind hier nicht gezeigt; die Rohdaten des Schritts "
            "haben sie."]
    finally:
        set_language("en")
