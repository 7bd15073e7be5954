"""Words said in English on one thread (``in_english``: the English words Find also finds, said once on the
Runs search's reader thread; ``--json``'s) leave the other threads' language alone: the window's thread
said its words in English meanwhile, and a language the user chose meanwhile was undone as the reader
thread put back the language it had found."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest

from inspector.i18n import _, current_language, in_english, ngettext, set_language
from inspector.i18n.formatting import format_number


@pytest.fixture
def german() -> Iterator[None]:
    set_language("de")
    yield
    set_language("en")


def test_english_on_one_thread_leaves_the_others_in_their_language(german) -> None:
    inside, go = threading.Event(), threading.Event()
    said: list[str] = []

    def reader() -> None:
        with in_english():
            inside.set()
            go.wait(10)
            said.extend([_("Delete…"), current_language(), format_number(1234.5),
                         ngettext("{count} run", "{count} runs", 2)])

    thread = threading.Thread(target=reader)
    thread.start()
    assert inside.wait(10)
    assert (_("Delete…"), current_language(), format_number(1234.5)) == ("Löschen…", "de", "1.234,5")
    set_language("en")  # the user chooses English meanwhile
    set_language("de")
    set_language("en")
    go.set()
    thread.join(10)
    assert said == ["Delete…", "en", "1,234.5", "{count} runs"]
    assert current_language() == "en" and _("Delete…") == "Delete…"  # as chosen, after the reader's English
    set_language("de")
    assert _("Delete…") == "Löschen…"
