"""A run named on the command line: its id (``42``), ``last`` (the newest run ``runs list`` lists: no plumbing
trace), ``last~N`` (the N-th before it, as git counts) or the beginning of its uid (``runs show --json`` prints the
uid)."""

from __future__ import annotations

import re

from inspector.i18n import N_
from inspector.i18n.messages import Message
from inspector.mcp.address_query import typed_to_quote
from inspector.store import RunRecord, RunStore, UnknownRunError

from .common import BadInputError
from .numbers import LARGEST_ID
from .safe_text import one_line

_LAST = re.compile(r"last(?:~(\d{1,9}))?")
#: The shortest beginning of a uid taken for the run (a shorter one would name many runs).
LEAST_UID_CHARS = 4


def resolve_run(store: RunStore, given: str) -> RunRecord:
    """The stored run ``given`` names; :class:`BadInputError` naming what to give instead."""
    text = given.strip()
    if text.isdigit() and text.isascii():
        # An id first; a uid may begin with digits only (12345678…): such a beginning names its run
        # when no run has that id.
        number = int(text)
        try:
            if 1 <= number <= LARGEST_ID:
                return store.get_run(number)
        except UnknownRunError:
            pass
        found = _by_uid(store, text) if len(text) >= LEAST_UID_CHARS else None
        if found is None:
            raise BadInputError(Message(N_("There is no run {id}. `runs list` shows the runs that are stored."),
                                        {"id": one_line(text)}))
        return found
    last = _LAST.fullmatch(text)
    if last:
        back = int(last.group(1) or 0)
        # Counted as `runs list` lists them: a plumbing trace (a session's notification) is no one's last run.
        runs = store.list_runs(limit=back + 1, plumbing_traces=False)
        if len(runs) <= back:
            if store.count_runs(plumbing_traces=True):
                raise BadInputError(Message(N_("There is no run {name}: `runs list` lists fewer runs than that (the "
                                               "plumbing traces it leaves out are named by their ids: `runs list "
                                               "--all` lists them)."), {"name": text}))
            raise BadInputError(Message(N_("There is no run {name}: the run database holds fewer runs than "
                                           "that."), {"name": text}))
        return store.get_run(runs[back].id)
    shown = one_line(typed_to_quote(text))  # an address typed here: without a password or a query
    if len(text) < LEAST_UID_CHARS:
        raise BadInputError(Message(N_("{name} names no run: give a run's id, last, last~N or at least {least} "
                                       "characters of its uid."), {"name": shown, "least": LEAST_UID_CHARS}))
    found = _by_uid(store, text)
    if found is None:
        raise BadInputError(Message(N_("No run has an id or a uid beginning {name}. `runs list` shows the runs that "
                                       "are stored."), {"name": shown}))
    return found


def _by_uid(store: RunStore, text: str) -> RunRecord | None:
    """The one run whose uid begins ``text``; ``None`` when none does (several: a bad-input error)."""
    rows = store.db.conn.execute("SELECT id FROM runs WHERE substr(uid, 1, ?) = ? ORDER BY id LIMIT 3",
                                 (len(text), text)).fetchall()
    if not rows:
        return None
    if len(rows) > 1:
        raise BadInputError(Message(N_("Several runs have a uid beginning {name} (runs {ids}, …): give more of it, "
                                       "or the run's id."), {"name": one_line(text),
                                                              "ids": ", ".join(str(row[0]) for row in rows[:2])}))
    return store.get_run(rows[0][0])


__all__ = ["LEAST_UID_CHARS", "resolve_run"]
