"""The sentences an import says about the spans it left out because their trace had a span with
their id already: the command line's `import` and the window's import say the same ones."""

from __future__ import annotations

from inspector.i18n import ngettext
from inspector.i18n.formatting import format_number

from .importing import ImportReport


def left_out_sentences(imported: ImportReport) -> list[str]:
    """The sentences on spans left out (repeated, and sharing another span's id), in the current language."""
    repeated, clashing = imported.spans_repeated, imported.spans_clashing
    counts = (
        (repeated, ngettext("{count} span came again in its trace (the file holds it more than once) and was left out.",
                            "{count} spans came again in their traces (the file holds them more than once) and were "
                            "left out.", repeated)),
        (clashing, ngettext("{count} span had the id of another span before it in its trace and was left out: the "
                            "first span with an id is kept.",
                            "{count} spans had the id of another span before them in their traces and were left out: "
                            "the first span with an id is kept.", clashing)))
    return [sentence.format(count=format_number(count)) for count, sentence in counts if count]


__all__ = ["left_out_sentences"]
