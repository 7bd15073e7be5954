"""The window's demo entry named in the reader's language where a person reads it.

The window adds the entry of the demo server it runs under the name "Demo server"
(:data:`inspector.store.servers.DEMO_ENTRY_NAME`), and the store keeps that name in every language: a
database, its exports and ``--json`` are the same whoever wrote them, and a German and an English user
share them. Shown, that entry says its name in the reader's language ("Demo-Server", as the rest of the
German window names the demo server), but only while it is the demo entry under that name: renamed, it
shows the user's name, and another server the user named "Demo server" shows that name as it is.

Which entry is the demo's: the window knows its address (its settings remember it; the demo service says
it here with :func:`know_window_entry`). The command line, which reads no window settings, takes the entry
of that name at the address the window gives it, ``http://127.0.0.1:PORT/mcp`` (as ``check_demo_entry``), and
finds it by any of its names (:func:`demo_entry_names`) unless a server of the user's has that name.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import Protocol

from . import DOMAIN, LANGUAGES, N_, _
from .languages import load_translations


class NamedServer(Protocol):
    """What :func:`shown_label` reads of a server (an ``inspector.mcp.ServerEndpoint``)."""

    @property
    def name(self) -> str | None: ...
    @property
    def key(self) -> str: ...
    @property
    def label(self) -> str: ...

#: The name the window stores for its demo entry (the same words as the store's ``DEMO_ENTRY_NAME``: data).
# Translators: the name shown for the window's own demo server entry, as other texts name the demo server.
DEMO_ENTRY_NAME = N_("Demo server")
#: The address the window gives its demo entry (a free port of 127.0.0.1).
_DEMO_ADDRESS = re.compile(r"http://127\.0\.0\.1:[0-9]{1,5}/mcp")

#: The address of this process's window's demo entry ("" when it has none; ``None``: no window says it).
_window_entry: str | None = None


def know_window_entry(url: str) -> None:
    """The window's demo entry is at ``url`` ("": the window has none): that entry alone is said in the
    reader's language from now on in this process."""
    global _window_entry
    _window_entry = url


def is_demo_entry(name: str | None, url: str) -> bool:
    """Is the server ``name`` at ``url`` the window's demo entry under the name the window gave it?"""
    if name != DEMO_ENTRY_NAME:
        return False
    if _window_entry is not None:
        return url == _window_entry
    return _DEMO_ADDRESS.fullmatch(url) is not None


def shown_name(name: str | None, url: str) -> str | None:
    """``name`` as a person reads it: the demo entry's in the reader's language, any other as it is."""
    return _(DEMO_ENTRY_NAME) if is_demo_entry(name, url) else name


def said_name(name: str | None, url: str) -> str:
    """How a sentence names the server ``name`` at ``url``: by its shown name, else by its address."""
    return shown_name(name, url) or url


class KeptEntryName(str):
    """The demo entry's name as a sentence kept to be said again holds it (a window's, said anew when its language
    changes): "Demo server", the stored name, as text (hashed, compared and written as English); said in the
    language it is read in, as :func:`inspector.i18n.messages.translate` says a value with a template."""

    template = DEMO_ENTRY_NAME
    params: Mapping[str, object] = MappingProxyType({})


def kept_name(name: str | None, url: str) -> str:
    """:func:`said_name` for a sentence kept and said again in the language of its moment."""
    return KeptEntryName(DEMO_ENTRY_NAME) if is_demo_entry(name, url) else name or url


def endpoint_name(name: str | None, url: str) -> str | None:
    """The name the endpoint of the server ``name`` at ``url`` is called by: the demo entry's a
    :class:`KeptEntryName`, so that every sentence the client says of it (a time-out, a refused connection, an HTTP
    status) names it in the language it is read in, and as stored ("Demo server") in ``--json``, the database and a
    step's note; any other as it is."""
    return KeptEntryName(DEMO_ENTRY_NAME) if is_demo_entry(name, url) else name


def demo_entry_names() -> frozenset[str]:
    """Every name that calls the demo entry: the stored one and its shown name in each language the program
    speaks (a script written on a German machine says "Demo-Server" under any locale)."""
    said = {DEMO_ENTRY_NAME}
    for language in LANGUAGES:
        catalogue = load_translations(DOMAIN, language)
        if catalogue is not None:
            said.add(catalogue.gettext(DEMO_ENTRY_NAME))
    return frozenset(said)


def names_calling(name: str | None, url: str) -> frozenset[str]:
    """The names that call the server ``name`` at ``url`` on the command line: its own, and the demo entry's in
    every language."""
    own = frozenset({name} if name else ())
    return own | demo_entry_names() if is_demo_entry(name, url) else own


def stored_name(typed: str | None, name: str | None, url: str) -> str | None:
    """The name to store for the server ``name`` at ``url`` given the name ``typed`` (its Server dialog showed
    the name as :func:`shown_name` says it): the demo entry's stays "Demo server" while it is left as shown."""
    return name if is_demo_entry(name, url) and typed == shown_name(name, url) else typed


def shown_label(server: NamedServer) -> str:
    """What a person reads for ``server`` (its ``label``, which stored sentences keep, with the demo entry's
    name said in the reader's language)."""
    return _(DEMO_ENTRY_NAME) if is_demo_entry(server.name, server.key) else server.label


__all__ = ["DEMO_ENTRY_NAME", "KeptEntryName", "demo_entry_names", "endpoint_name", "is_demo_entry", "kept_name",
           "know_window_entry", "names_calling", "said_name", "shown_label", "shown_name", "stored_name"]
