"""Which entry is the window's demo entry, said in the reader's language: the window's own (by its address,
under the name it gave it); without a window (the command line), the entry of that name at the address the
window gives it. Renamed, or another server the user named "Demo server", keeps the user's words."""

from __future__ import annotations

from inspector.i18n import set_language
from inspector.i18n.entry_names import know_window_entry, shown_name, stored_name

ENTRY = "http://127.0.0.1:43210/mcp"
OTHER_LOOPBACK = "http://127.0.0.1:8000/mcp"


def test_without_a_window_the_entry_of_that_name_at_the_demo_address_is_the_demo_entry(german: None) -> None:
    assert shown_name("Demo server", ENTRY) == "Demo-Server"
    assert shown_name("Demo server", OTHER_LOOPBACK) == "Demo-Server"  # the command line cannot tell them apart
    assert shown_name("Demo server", "http://example.com/mcp") == "Demo server"
    assert shown_name("Demo server", "http://127.0.0.1:43210/other") == "Demo server"
    assert shown_name("Mein Demo", ENTRY) == "Mein Demo"
    assert shown_name(None, ENTRY) is None
    set_language("en")
    assert shown_name("Demo server", ENTRY) == "Demo server"


def test_a_window_names_only_its_own_demo_entry(german: None) -> None:
    know_window_entry(ENTRY)
    assert shown_name("Demo server", ENTRY) == "Demo-Server"
    assert shown_name("Demo server", OTHER_LOOPBACK) == "Demo server"  # a server of the user's, so named
    know_window_entry("")  # a window without a demo entry
    assert shown_name("Demo server", ENTRY) == "Demo server"


def test_the_name_shown_and_left_as_it_is_stays_stored_as_it_was(german: None) -> None:
    know_window_entry(ENTRY)
    assert stored_name("Demo-Server", "Demo server", ENTRY) == "Demo server"
    assert stored_name("Mein Demo", "Demo server", ENTRY) == "Mein Demo"
    assert stored_name("Demo-Server", "Demo server", OTHER_LOOPBACK) == "Demo-Server"  # not the demo entry


def test_the_demo_entry_is_called_by_its_name_in_every_language_whatever_the_language_in_use() -> None:
    from inspector.i18n.entry_names import names_calling

    assert names_calling("Demo server", ENTRY) == {"Demo server", "Demo-Server"}  # in English too
    assert names_calling("Demo server", "http://example.com/mcp") == {"Demo server"}  # a server of the user's
    assert names_calling(None, ENTRY) == frozenset()


def test_a_sentence_kept_to_be_said_again_says_the_demo_entry_in_the_language_of_its_moment() -> None:
    from inspector.i18n.entry_names import kept_name
    from inspector.i18n.messages import Message, translate

    kept = Message("Listening to {server}.", {"server": kept_name("Demo server", ENTRY)})
    assert translate(kept) == "Listening to Demo server." and str(kept) == "Listening to Demo server."
    set_language("de")
    try:
        assert translate(kept) == "Empfängt Meldungen von Demo-Server."
        assert str(kept) == "Listening to Demo server."  # its English (a log's, a store's) keeps the stored name
    finally:
        set_language("en")
    assert kept_name("Demo server", "http://example.com/mcp") == "Demo server"
    assert kept_name(None, ENTRY) == ENTRY
