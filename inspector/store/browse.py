"""Reading the run database for a viewer: run lists with filters and sort orders, a run's
timeline one page at a time (light rows, never whole payloads), one step in full, finding
steps, and deleting runs.

The timeline rows are built in SQL: each payload is cut down to the few clipped fields a row
shows, so a hostile payload (megabytes of text, deep nesting) never reaches Python whole.
"""

from __future__ import annotations

import json
import re
from array import array
from collections.abc import Collection, Iterable, Mapping, MutableSequence, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import Any

from inspector.i18n import N_
from inspector.i18n.messages import Message
from inspector.i18n.scenarios import SCENARIO_TITLED_SOURCES, shown_title_matches
from inspector.runs import Leg, step_details
from inspector.runs.ending import TIMED_OUT_MARK
from inspector.runs.replaying import OWN_DEMO_ORIGIN
from inspector.runs.times import from_stored_time

from .checked_payloads import read_payloads
from .errors import UnknownRunError
from .find_text import find_condition, steps_holding, text_holds
from .named_servers import named_server_condition
from .plumbing_traces import NOT_PLUMBING_TRACE, PLUMBING_TRACE
from .run_store import RunRecord, RunStore, stored_exchange

#: What the detail of one step reads of its result and arguments (SQL cuts them, not Python).
DETAIL_TEXT_CHARS = 200_000
#: What a timeline row keeps of a long text field before ``step_details`` shortens it.
ROW_TEXT_CHARS = 400

#: The orders a run list can be sorted by: a key, then the SQL that sorts by it.
RUN_ORDERS = {
    "id": "runs.id",
    "started": "runs.started_at",
    "title": "runs.title COLLATE NOCASE",
    "status": "runs.status",
    "source": "runs.source",
    "server": "COALESCE(runs.server, '')",
    "steps": "(SELECT COUNT(*) FROM steps WHERE steps.run_id = runs.id)",
    "duration": "(julianday(runs.finished_at) - julianday(runs.started_at))",
    # Where the run stands in the outbox of the team's collector (its newest row), '' when never queued.
    "pushed": "COALESCE((SELECT state FROM outbox WHERE outbox.run_id = runs.id ORDER BY outbox.id DESC LIMIT 1), '')",
}


@dataclass(frozen=True)
class RunFilter:
    """Which runs a list shows: statuses (any of), server, source and a text in the title,
    server, origin or notes, or in a step as Find sees it (:func:`.find_text.steps_holding`). Empty means
    no restriction. ``server_imported`` narrows the server's runs to those imported (True) or those made
    here (False): a loopback address names two servers. ``plumbing_traces``, as :meth:`.RunStore.list_runs`
    takes it: ``False`` leaves the plumbing traces out (:mod:`.plumbing_traces`, as ``runs list`` does),
    ``True`` selects them alone, ``None`` does not ask."""

    statuses: tuple[str, ...] = ()
    server: str | None = None
    server_imported: bool | None = None
    source: str | None = None
    text: str = ""
    plumbing_traces: bool | None = None


@dataclass(frozen=True)
class StepFilter:
    """Which steps a timeline shows: outcomes (any of; ``""`` is no outcome) and kinds."""

    outcomes: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()


@dataclass(frozen=True)
class TimelineRow:
    """One step as a timeline row: no payload, only what the row shows."""

    id: int
    sequence: int
    started_at: datetime | None
    kind: str
    round: int
    duration_ms: float
    outcome: str
    details: str
    unfinished: bool
    cancelled_in_flight: bool | None
    legs: int
    #: The few payload fields ``details`` was made of, so a display can say them again in its language.
    detail_fields: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)
    #: The service of a step imported from a trace (its span's ``service.name``), "" for our own.
    service: str = ""
    #: The beginning of what a reviewer wrote about the step (at most ROW_TEXT_CHARS characters), "" for no note.
    note: str = ""


@dataclass(frozen=True)
class StepInFull:
    """One step as stored: its row, the raw payload text and its legs."""

    row: TimelineRow
    run_id: int
    payload_text: str
    legs: tuple[Leg, ...]
    #: The result (or, for a step without one, the content) cut to DETAIL_TEXT_CHARS, and its full length.
    result_text: str = ""
    result_length: int = 0
    #: The arguments as JSON text (cut to DETAIL_TEXT_CHARS), or None when the step has none.
    arguments_json: str | None = None
    #: The pictures among the step's artifacts (``toolArtifacts`` with an ``image/`` media type).
    images: tuple[StoredImage, ...] = ()
    #: What a reviewer wrote about the step ("" when nothing).
    note: str = ""
    #: Where the step's run came from (``runs.source``: ``live``, ``scenario``, ``imported``): who a
    #: cancel was.
    run_source: str = ""


@dataclass(frozen=True)
class StoredImage:
    """One picture a stored step keeps as an artifact: its name, media type and base64 text
    (``None`` when longer than :data:`DETAIL_IMAGE_CHARS`, which is not read); ``chars`` is
    the text's length."""

    name: str
    media_type: str
    data: str | None
    chars: int


#: The longest base64 text of one stored picture the detail reads (a viewer refuses longer ones).
DETAIL_IMAGE_CHARS = 10_000_000
#: How many pictures of one step the detail reads.
DETAIL_IMAGES = 20


#: A run as a list reads it: its row and its step count.
_RUN_ROW = ("SELECT runs.id, uid, title, source, server, status, started_at, finished_at, origin, note,"
            " (SELECT COUNT(*) FROM steps WHERE steps.run_id = runs.id) AS step_count FROM runs")


def _run_record(row: Sequence[Any]) -> RunRecord:
    return RunRecord(id=row[0], uid=row[1], title=row[2], source=row[3], server=row[4], status=row[5],
                     started_at=from_stored_time(row[6]), finished_at=from_stored_time(row[7]),
                     origin=row[8], note=row[9] or "", step_count=row[10])


def _ordered(store: RunStore, sql: str, where: RunFilter, order: str, descending: bool) -> tuple[str, list[Any]]:
    """``sql`` (a ``SELECT … FROM runs``) with ``where``'s conditions and ``order``, and its values."""
    clauses, params = _run_clauses(store, where)
    if clauses:
        sql += " WHERE " + " AND ".join(clauses)
    direction = "DESC" if descending else "ASC"
    return sql + f" ORDER BY {RUN_ORDERS[order]} {direction}, runs.id {direction}", params


def list_runs(store: RunStore, where: RunFilter = RunFilter(), order: str = "started",
              descending: bool = True, limit: int | None = None, offset: int = 0) -> list[RunRecord]:
    """The runs ``where`` selects, with their step counts, in ``order`` (newest first by default);
    ``limit`` runs from ``offset`` on."""
    sql, params = _ordered(store, _RUN_ROW, where, order, descending)
    if limit is not None or offset:
        sql += " LIMIT ? OFFSET ?"
        params.extend([-1 if limit is None else limit, offset])
    return [_run_record(row) for row in store.db.conn.execute(sql, params)]


def listed_ids(store: RunStore, where: RunFilter = RunFilter(), order: str = "started", descending: bool = True,
               limit: int | None = None, offset: int = 0) -> list[int]:
    """The ids of the runs :func:`list_runs` lists, alone: a list of 25,000 runs knows its rows' runs
    in milliseconds (the records, their step counts and reasons, are read for the rows shown)."""
    sql, params = _ordered(store, "SELECT runs.id FROM runs", where, order, descending)
    return [row[0] for row in store.db.conn.execute(sql + " LIMIT ? OFFSET ?",
                                                    [*params, -1 if limit is None else limit, offset])]


def listed_ids_through(store: RunStore, wanted: Collection[int], where: RunFilter = RunFilter(),
                       order: str = "started", descending: bool = True, offset: int = 0, more: int = 0,
                       least: int = 0) -> tuple[list[int], bool]:
    """The ids :func:`listed_ids` lists from ``offset`` on: at least ``least`` of them, and down to the
    last of the runs ``wanted`` that ``where`` selects and ``more`` after it; and whether the list goes on
    after those. One read of the list however far down they are; a run the filter leaves out is not
    looked for (a long list is not read to its end to find none)."""
    wanted = set(wanted)
    left, listed = set(wanted), _count_listed(store, wanted, where)
    sql, params = _ordered(store, "SELECT runs.id FROM runs", where, order, descending)
    ids: list[int] = []
    cursor = store.db.conn.execute(sql + " LIMIT -1 OFFSET ?", [*params, offset])
    try:
        end = None if listed else least
        while end is None:
            chunk = [row[0] for row in cursor.fetchmany(2_000)]
            if not chunk:
                return ids, False
            ids.extend(chunk)
            before = len(left)
            left.difference_update(chunk)
            listed -= before - len(left)
            if listed <= 0:  # the last one wanted is in this chunk
                last = max(index for index, run_id in enumerate(chunk) if run_id in wanted)
                end = max(len(ids) - len(chunk) + last + 1 + more, least)
        ids.extend(row[0] for row in cursor.fetchmany(max(end + 1 - len(ids), 0)))
    finally:
        cursor.close()
    return ids[:end], len(ids) > end


def _count_listed(store: RunStore, run_ids: Collection[int], where: RunFilter) -> int:
    """How many of these runs ``where`` selects (one question for 25,000 of them)."""
    if not run_ids:
        return 0
    clauses, params = _run_clauses(store, where)
    condition = "".join(f" AND {clause}" for clause in clauses)
    # Each wanted id looked up by the key (runs.id IN (…) would scan the runs and probe the ids).
    return int(store.db.conn.execute(
        f"SELECT COUNT(*) FROM json_each(?) AS wanted JOIN runs ON runs.id = wanted.value WHERE 1{condition}",
        [json.dumps(list(run_ids)), *params]).fetchone()[0])


def runs_by_id(store: RunStore, run_ids: Sequence[int]) -> dict[int, RunRecord]:
    """These runs as :func:`list_runs` reads them (with their step counts), by id; a run deleted
    meanwhile is not there."""
    found: dict[int, RunRecord] = {}
    for start in range(0, len(run_ids), 500):
        chunk = list(run_ids[start:start + 500])
        found.update((row[0], _run_record(row)) for row in store.db.conn.execute(
            f"{_RUN_ROW} WHERE runs.id IN ({','.join('?' * len(chunk))})", chunk))
    return found


def count_runs(store: RunStore, where: RunFilter = RunFilter()) -> int:
    """How many runs ``where`` selects."""
    clauses, params = _run_clauses(store, where)
    condition = " WHERE " + " AND ".join(clauses) if clauses else ""
    return int(store.db.conn.execute(f"SELECT COUNT(*) FROM runs{condition}", params).fetchone()[0])


def run_ids(store: RunStore, where: RunFilter = RunFilter()) -> list[int]:
    """The ids of every run ``where`` selects, newest first (for an export of the listed runs)."""
    return listed_ids(store, where)


# A step of the run whose note (the key "note" of its payload) holds the text: only the steps the
# index steps_with_note holds are read (its condition, word for word, lets SQLite use it); a damaged
# payload among them is passed over, not an error.
_NOTED_STEP = ("SELECT 1 FROM steps WHERE steps.run_id = runs.id AND steps.mentions_note = 1"
               " AND {holds}")
_STEP_NOTE = "CASE WHEN json_valid(steps.payload) THEN json_extract(steps.payload, '$.note') END"


def _run_clauses(store: RunStore, where: RunFilter) -> tuple[list[str], list[Any]]:
    clauses: list[str] = []
    params: list[Any] = []
    if where.statuses:
        clauses.append(f"status IN ({','.join('?' * len(where.statuses))})")
        params.extend(where.statuses)
    if where.server == OWN_DEMO_ORIGIN:  # the runs on a demo server of their own, one entry (servers_with_runs)
        clauses.append(_OWN_DEMO)
        params.append(OWN_DEMO_ORIGIN)
    elif where.server:
        clauses.append(f"server = ? AND NOT {_OWN_DEMO}")
        params.extend((where.server, OWN_DEMO_ORIGIN))
        if where.server_imported is not None:
            clauses.append("source = 'imported'" if where.server_imported else "source != 'imported'")
    if where.source:
        clauses.append("source = ?")
        params.append(where.source)
    if where.plumbing_traces is not None:  # before the search, which reads every run's steps
        clauses.append(PLUMBING_TRACE if where.plumbing_traces else NOT_PLUMBING_TRACE)
    if where.text.strip():
        conn = store.db.conn
        # Each in any case ("ärger" finds "Ärger": LIKE folds ASCII letters alone), as Find in the steps.
        title, server, origin, note, step_note = (text_holds(conn, expression, where.text) for expression in (
            "title", "COALESCE(server, '')", "COALESCE(origin, '')", "runs.note", _STEP_NOTE))
        shown, shown_params = _shown_title_condition(where.text)
        named, named_params = named_server_condition(store, where.text)  # a server by the name the list shows
        # A run with a step Find finds the text in (a tool's name, an error, an attribute): asked last.
        in_steps, in_steps_params = steps_holding(conn, where.text)
        # The shown titles asked right after the stored ones: before the notes of the steps (a query each).
        clauses.append(f"({title[0]}{shown} OR {server[0]}{named} OR {origin[0]} OR {note[0]}"
                       f" OR EXISTS ({_NOTED_STEP.format(holds=step_note[0])}) OR {in_steps})")
        params.extend([*title[1], *shown_params, *server[1], *named_params, *origin[1], *note[1], *step_note[1],
                       *in_steps_params])
    return clauses, params


def _like_text(text: str) -> str:
    """``text`` as a LIKE pattern that matches it literally (with ``ESCAPE '\\'``)."""
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


#: How a name is matched in :func:`_shown_title_condition`: a LIKE pattern around ``ShownTitleMatch.text``.
_NAME_LIKE = {"any": "_%", "starts": "{}%", "ends": "%{}", "is": "{}"}


def _shown_title_condition(text: str) -> tuple[str, list[Any]]:
    """" OR (…)" that a scenario run's title holds ``text`` as the reader sees it and not as stored
    (:func:`inspector.i18n.scenarios.shown_title_matches`: "Szenario" in German), and its values; ""
    when the shown titles hold it only where the stored ones do (the usual case: no cost then)."""
    parts: list[str] = []
    params: list[Any] = []
    for match in shown_title_matches(text):
        start, around = len(match.prefix) + 1, len(match.prefix) + len(match.suffix)
        # The name between the stored form's words has no space (as said_title reads it).
        parts.append(f"(title LIKE ? ESCAPE '\\' AND instr(substr(title, {start}, length(title) - {around}), ' ') = 0)")
        name = _NAME_LIKE[match.how].format(_like_text(match.text))
        params.append(_like_text(match.prefix) + name + _like_text(match.suffix))
    if not parts:
        return "", []
    sources = ", ".join(f"'{source}'" for source in SCENARIO_TITLED_SOURCES)  # constants of ours
    return f" OR (source IN ({sources}) AND (" + " OR ".join(parts) + "))", params


def recent_ok_durations(store: RunStore, server: str, limit: int) -> list[float]:
    """The durations (ms) of the newest ``limit`` ok operations made here against ``server``, oldest
    first: each tool or request step that went well, so a run of several operations (a scenario, an
    agent's run with its model's turns) gives each of its operations, never its own length, and the
    newest is the latency the server's health last recorded (newest as stored, whatever the clock
    said). A server's stream an agent held open (a ``GET`` leg, as the recording proxy keeps it) lasts
    as long as the agent wants: no latency.
    Runs imported from a file are left out:
    they were made elsewhere (a customer's machine, another server at the same address), so they say
    nothing of how this server answers here.

    Only the operations the server's health counts are looked at: the newest as many operations (tool and
    request steps, not a stream) as it counts. A server removed and added again at the same address is a
    new entry, whose counts start at none, and its sparkline starts afresh with them rather than showing
    the operations made before (its runs stay stored and listed). A step the health does not count (a
    call the window cancelled as it set it aside, a notification through the proxy) takes the place of
    an older one: the sparkline may show fewer, never one from before."""
    conn = store.db.conn
    counted = conn.execute("SELECT ok_count + failed_count + tool_error_count + cancelled_count FROM server_health"
                           " WHERE url = ?", (server,)).fetchone()
    # Read newest first and stopped early (in the order the runs were stored, which needs no sort: a
    # server's thousands of runs are not sorted for twenty points). Not by the runs' starts: they are
    # the wall clock's, and a clock set back put every operation made since before the older ones.
    steps = conn.execute(
        "SELECT s.kind, s.outcome, s.duration_ms, r.status FROM runs r JOIN steps s ON s.run_id = r.id"
        " WHERE r.server = ? AND r.source != 'imported' AND (s.kind = 'tool' OR (s.kind = 'request'"
        "   AND NOT EXISTS (SELECT 1 FROM legs l WHERE l.step_id = s.id AND l.method = 'GET')))"
        " ORDER BY r.id DESC, s.sequence DESC", (server,))
    points: list[float] = []
    try:
        for _, (kind, outcome, duration_ms, status) in zip(range(counted[0] if counted else 0), steps, strict=False):
            if (kind == "tool" and outcome == "ok") or (kind == "request" and status == "ok"):
                points.append(float(duration_ms))
                if len(points) >= limit:
                    break
    finally:
        steps.close()
    return points[::-1]


#: A run played here on a demo server started for it alone: its address (a random port) died with it.
_OWN_DEMO = "(COALESCE(origin, '') = ? AND source != 'imported')"


def servers_with_runs(store: RunStore) -> list[tuple[str, bool]]:
    """Every server some run was made against, in order, with whether the runs were imported (True)
    or made here (False): a server with both kinds of run is there twice, imported last. The runs
    played on a demo server of their own (each at an address that died with it) are one entry,
    :data:`OWN_DEMO_ORIGIN` in an address's place (a :class:`RunFilter`'s ``server`` chooses them)."""
    return [(row[0], bool(row[1])) for row in store.db.conn.execute(
        f"SELECT DISTINCT CASE WHEN {_OWN_DEMO} THEN ? ELSE server END AS shown, source = 'imported' FROM runs"
        " WHERE server IS NOT NULL AND server != '' ORDER BY shown, 2", (OWN_DEMO_ORIGIN, OWN_DEMO_ORIGIN))]


def data_version(store: RunStore) -> int:
    """A number that changes whenever another connection commits to the database (cheap to ask)."""
    return int(store.db.conn.execute("PRAGMA data_version").fetchone()[0])


def run_span(store: RunStore, run: RunRecord) -> tuple[datetime | None, datetime | None]:
    """Where a run's time axis starts and ends, from the run and its first and last steps only.

    A run without a finish time (still running, interrupted) ends where its last step ends."""
    conn = store.db.conn
    first = conn.execute("SELECT started_at FROM steps WHERE run_id = ? AND started_at != ''"
                         " ORDER BY started_at, sequence LIMIT 1", (run.id,)).fetchone()
    start = run.started_at
    if first is not None:
        first_at = from_stored_time(first[0])
        if start is None or (first_at is not None and first_at < start):
            start = first_at
    end = run.finished_at
    # The last few steps by start: one of them ends last (steps of one run rarely overlap much).
    for stamp, duration in conn.execute("SELECT started_at, duration_ms FROM steps WHERE run_id = ?"
                                        " AND started_at != '' ORDER BY started_at DESC, sequence DESC LIMIT 16",
                                        (run.id,)):
        moment = from_stored_time(stamp)
        if moment is not None:
            step_end = _ended(moment, float(duration or 0))
            if end is None or step_end > end:
                end = step_end
    return start, end


#: The last moment a time axis can hold (the calendar's end, year 9999).
_LAST_MOMENT = datetime.max.replace(tzinfo=timezone.utc)


def _ended(moment: datetime, duration_ms: float) -> datetime:
    """When a step that began at ``moment`` ended; at the calendar's end for one that would end
    after it (a file's step at 9999-12-31 23:59:59 lasting a second, or lasting 1e300 ms)."""
    try:
        return moment + timedelta(milliseconds=duration_ms)
    except OverflowError:
        return _LAST_MOMENT


def _step_clauses(run_id: int, where: StepFilter) -> tuple[str, list[Any]]:
    clauses, params = ["run_id = ?"], [run_id]
    if where.outcomes:
        clauses.append(f"outcome IN ({','.join('?' * len(where.outcomes))})")
        params.extend(where.outcomes)
    if where.kinds:
        clauses.append(f"kind IN ({','.join('?' * len(where.kinds))})")
        params.extend(where.kinds)
    return " AND ".join(clauses), params


def count_timeline(store: RunStore, run_id: int, where: StepFilter = StepFilter()) -> int:
    """How many steps of the run ``where`` selects."""
    clause, params = _step_clauses(run_id, where)
    return int(store.db.conn.execute(f"SELECT COUNT(*) FROM steps WHERE {clause}", params).fetchone()[0])


def timeline_position(store: RunStore, run_id: int, step_id: int, where: StepFilter = StepFilter()) -> int | None:
    """The row of a step in the run's timeline as ``where`` filters it (``None``: it has no row there)."""
    clause, params = _step_clauses(run_id, where)
    found = store.db.conn.execute(
        f"""SELECT position FROM (SELECT id, row_number() OVER (ORDER BY started_at, sequence) - 1 AS position
            FROM steps WHERE {clause}) WHERE id = ?""", (*params, step_id)).fetchone()
    return None if found is None else int(found[0])


#: A sentence the importer kept with its template, or null: an object of at most 4,096 characters as it
#: is; a longer one (a hostile or verbose trace's error of 100,000 characters) as the array of its
#: leaves, each ``[path, value]`` with a text cut to ROW_TEXT_CHARS, rebuilt by :func:`_row_note`: the
#: row's result line is cut alike, and the reader's words still say it.
_NOTE = ("CASE WHEN json_type(p, '{path}') = 'object' THEN CASE WHEN length(json_extract(p, '{path}')) <= 4096"
         " THEN json(json_extract(p, '{path}')) ELSE (SELECT json_group_array(json_array(t.fullkey,"
         f" CASE WHEN t.type = 'text' THEN substr(t.atom, 1, {ROW_TEXT_CHARS}) ELSE t.atom END))"
         " FROM json_tree(json_extract(p, '{path}')) AS t WHERE t.type NOT IN ('object', 'array')) END END")

_ROW_COLUMNS = f"""
    id, sequence, started_at, kind, round, duration_ms, outcome,
    substr(json_extract(p, '$.toolName'), 1, {ROW_TEXT_CHARS}),
    json_extract(p, '$.cancelledInFlight'),
    substr(json_extract(p, '$.toolResult'), 1, {ROW_TEXT_CHARS}),
    substr(json_extract(p, '$.writeTargetTable'), 1, {ROW_TEXT_CHARS}),
    json_extract(p, '$.writeTargetUid'),
    substr(json_extract(p, '$.content'), 1, {ROW_TEXT_CHARS}),
    CASE json_type(p, '$.requestedToolCalls') WHEN 'array'
        THEN json_array_length(p, '$.requestedToolCalls') END,
    substr(json_extract(p, '$.finishReason'), 1, {ROW_TEXT_CHARS}),
    CASE json_type(p, '$.droppedSources') WHEN 'array'
        THEN json_array_length(p, '$.droppedSources') END,
    json_extract(p, '$.raw.otlp.unfinished'),
    substr(json_extract(p, '$.raw.otlp.service'), 1, {ROW_TEXT_CHARS}),
    (SELECT COUNT(*) FROM legs WHERE legs.step_id = steps.id),
    json_array({_NOTE.format(path="$.raw.otlp.notes[0]")}, {_NOTE.format(path="$.raw.otlp.server.notes[0]")},
               {_NOTE.format(path="$.raw.otlp.disagreement")}, {_NOTE.format(path="$.raw.otlp.outcomeNote")}),
    CASE WHEN json_type(p, '$.wording') = 'object' AND length(json_extract(p, '$.wording')) <= 4096
        THEN json_extract(p, '$.wording') END,
    json_type(p, '$.raw.otlp.timedOut') = 'true',
    CASE WHEN mentions_note = 1 AND json_type(p, '$.note') = 'text'
        THEN substr(json_extract(p, '$.note'), 1, {ROW_TEXT_CHARS}) END
"""


#: The steps with ``p``: the payload, or ``{}`` where SQLite cannot read it (e.g. nested deeper than its
#: JSON parser goes): one hostile step must not fail the query of its whole page.
_STEPS_WITH_P = ("(SELECT id, run_id, sequence, started_at, kind, round, duration_ms, outcome, payload, mentions_note,"
                 " CASE WHEN json_valid(payload) THEN payload ELSE '{{}}' END AS p FROM steps WHERE {clause}) AS steps")


def timeline_page(store: RunStore, run_id: int, offset: int, limit: int,
                  where: StepFilter = StepFilter()) -> list[TimelineRow]:
    """Rows ``offset`` to ``offset + limit`` of the run's timeline (by time, then sequence)."""
    clause, params = _step_clauses(run_id, where)
    rows = store.db.conn.execute(
        f"SELECT {_ROW_COLUMNS} FROM {_STEPS_WITH_P.format(clause=clause)} ORDER BY started_at, sequence"
        " LIMIT ? OFFSET ?",
        (*params, limit, offset)).fetchall()
    return [_timeline_row(row) for row in rows]


def _stored_time(text: str | None) -> datetime | None:
    """A stored time (fixed-width ISO 8601 in UTC) read fast: a page holds hundreds of them."""
    if not text:
        return None
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        return from_stored_time(text)


#: One step of a leaf's path in json_tree's ``fullkey``: ``.key``, ``."key"`` or ``[index]``.
_PATH_STEP = re.compile(r'\.(?:"((?:[^"\\]|\\.)*)"|([^.\[]+))|\[(\d+)\]')


def _row_note(note: Any) -> Any:
    """A note of a timeline row's notes column (:data:`_NOTE`): an object as it is, or one rebuilt from
    its leaves (``[path, value]`` pairs, its texts cut); a leaf under a list or a path it cannot read is
    left out, and the reader's words fall back to the note's text (as cut) where its template misses a value."""
    if not isinstance(note, list):
        return note
    rebuilt: dict[str, Any] = {}
    for leaf in note:
        if not (isinstance(leaf, list) and len(leaf) == 2 and isinstance(leaf[0], str) and leaf[0].startswith("$")):
            continue
        steps = list(_PATH_STEP.finditer(leaf[0], 1))
        if not steps or sum(len(step.group(0)) for step in steps) != len(leaf[0]) - 1 or \
                any(step.group(3) is not None for step in steps):
            continue
        keys = [step.group(1) if step.group(1) is not None else step.group(2) for step in steps]
        where = rebuilt
        for key in keys[:-1]:
            where = where.setdefault(key, {})
            if not isinstance(where, dict):
                break
        else:
            where[keys[-1]] = leaf[1]
    return rebuilt


def _timeline_row(row: Sequence[Any]) -> TimelineRow:
    (step_id, sequence, started_at, kind, round_, duration, outcome, tool_name, in_flight, result, table,
     uid, content, calls, finish, dropped, unfinished, service, legs, notes, wording, timed_out, note) = row
    # The few fields step_details reads, rebuilt from the clipped columns.
    payload: dict[str, Any] = {"kind": kind}
    for key, value in (("toolName", tool_name), ("toolResult", result), ("writeTargetTable", table),
                       ("content", content), ("finishReason", finish)):
        if isinstance(value, str):
            payload[key] = value
    if isinstance(uid, int):
        payload["writeTargetUid"] = uid
    if outcome:
        payload["toolIsError"] = outcome != "ok"
        payload["toolOutcome"] = outcome
    if in_flight is not None and outcome == "cancelled":
        payload["cancelledInFlight"] = bool(in_flight)
    if isinstance(calls, int):
        payload["requestedToolCalls"] = [None] * min(calls, 10_000)
    if isinstance(dropped, int):
        payload["droppedSources"] = [None] * min(dropped, 10_000)
    if isinstance(notes, str) and notes != "[null,null,null,null]":  # a trace step's notes: said in the reader's words
        try:
            first, server, disagreement, together = (_row_note(note) for note in json.loads(notes))
        except ValueError:
            first = server = disagreement = together = None
        payload["raw"] = {"otlp": {"notes": [first], "server": {"notes": [server]}, "disagreement": disagreement,
                                   "outcomeNote": together}}
    if timed_out and outcome == "failed":  # the importer found the call timed out (inspector/runs/ending.py)
        payload.setdefault("raw", {"otlp": {}})["otlp"][TIMED_OUT_MARK] = True
    if isinstance(wording, str):  # the sentence of ours the step's text begins with, as data
        try:
            payload["wording"] = json.loads(wording)
        except ValueError:
            pass
    return TimelineRow(id=step_id, sequence=sequence, started_at=_stored_time(started_at), kind=kind,
                       round=round_, duration_ms=float(duration), outcome=outcome or "",
                       details=step_details(payload), unfinished=bool(unfinished),
                       cancelled_in_flight=None if in_flight is None or outcome != "cancelled" else bool(in_flight),
                       legs=legs, detail_fields=payload, service=service if isinstance(service, str) else "",
                       note=note if isinstance(note, str) else "")


def step_in_full(store: RunStore, step_id: int) -> StepInFull:
    """One step: its row, its payload as stored (text) and its legs."""
    conn = store.db.conn
    row = conn.execute(
        f"SELECT {_ROW_COLUMNS}, run_id, payload,"
        f" substr(COALESCE(json_extract(p, '$.toolResult'), json_extract(p, '$.content')), 1, {DETAIL_TEXT_CHARS}),"
        " length(COALESCE(json_extract(p, '$.toolResult'), json_extract(p, '$.content'))),"
        f" CASE WHEN json_type(p, '$.toolArguments') IS NOT NULL AND json_type(p, '$.toolArguments') != 'null'"
        f" THEN substr(json_extract(p, '$.toolArguments'), 1, {DETAIL_TEXT_CHARS}) END,"
        " CASE WHEN json_type(p, '$.note') = 'text' THEN json_extract(p, '$.note') END"
        f" FROM {_STEPS_WITH_P.format(clause='id = ?')}", (step_id,)).fetchone()
    if row is None:  # deleted meanwhile
        raise UnknownRunError(Message(N_("There is no step {id}."), {"id": step_id}))
    legs = []
    for method, granted, elapsed, status, outcome, exchange in conn.execute(
            "SELECT method, granted_s, elapsed_ms, http_status, outcome, exchange FROM legs WHERE step_id = ?"
            " ORDER BY position", (step_id,)):
        try:
            legs.append(Leg(method, granted, elapsed, status, outcome, stored_exchange(exchange)))
        except ValueError:
            continue  # a damaged leg is left out of the replay; the payload still shows
    result, length, arguments, note = row[-4:]
    source = conn.execute("SELECT source FROM runs WHERE id = ?", (row[-6],)).fetchone()
    return StepInFull(_timeline_row(row[:-6]), row[-6], row[-5], tuple(legs),
                      result if isinstance(result, str) else "", length if isinstance(length, int) else 0,
                      arguments if isinstance(arguments, str) else None, _stored_images(store, step_id),
                      note if isinstance(note, str) else "",
                      source[0] if source and isinstance(source[0], str) else "")


def _stored_images(store: RunStore, step_id: int) -> tuple[StoredImage, ...]:
    """The step's image artifacts, read by SQL: a text longer than the bound is never fetched."""
    rows = store.db.conn.execute(
        "SELECT json_extract(a.value, '$.name'), json_extract(a.value, '$.mediaType'),"
        " length(json_extract(a.value, '$.data')),"
        " CASE WHEN length(json_extract(a.value, '$.data')) <= ? THEN json_extract(a.value, '$.data') END"
        " FROM steps, json_each(CASE WHEN json_valid(steps.payload) AND"
        " json_type(steps.payload, '$.toolArtifacts') = 'array' THEN steps.payload ELSE '{\"a\": []}' END,"
        " CASE WHEN json_valid(steps.payload) AND json_type(steps.payload, '$.toolArtifacts') = 'array'"
        " THEN '$.toolArtifacts' ELSE '$.a' END) AS a"
        " WHERE steps.id = ? AND a.type = 'object'"
        " AND lower(json_extract(a.value, '$.mediaType')) LIKE 'image/%' AND json_type(a.value, '$.data') = 'text'"
        " ORDER BY a.key LIMIT ?", (DETAIL_IMAGE_CHARS, step_id, DETAIL_IMAGES)).fetchall()
    return tuple(StoredImage(name if isinstance(name, str) else "", media, data if isinstance(data, str) else None,
                             int(chars or 0)) for name, media, chars, data in rows)




def find_in_timeline(store: RunStore, run_id: int, text: str, where: StepFilter = StepFilter(),
                     limit: int = 10_000, also: Sequence[int] = (), say: bool = True) -> list[int]:
    """The row numbers (in the filtered timeline) of steps whose details, arguments, result or
    note contain ``text`` (case-insensitive), in order; at most ``limit`` of them. A step from a trace
    is also found by its span's (and its server side's) attribute keys and values, event names and
    attributes, and links. The steps of the ids ``also`` are found too (the window's: those whose
    words as shown hold the text), where the filter keeps them; ``say=False``: the caller looks in our
    sentences as the reader sees them itself (:func:`inspector.store.find_text.find_condition`)."""
    return _found(store, run_id, text, where, limit, "position", also, say)


@dataclass
class SpanNodes:
    """The steps of a run imported from a trace as its span tree needs them, column by column (a
    run of 100,000 steps makes no object per step): in time order, no payload text."""

    step_ids: MutableSequence[int] = field(default_factory=lambda: array("q"))  # 8 bytes a step, no int objects
    span_ids: list[str | None] = field(default_factory=list)
    parent_ids: list[str | None] = field(default_factory=list)
    plumbing: list[bool] = field(default_factory=list)
    kinds: list[str] = field(default_factory=list)
    outcomes: list[str] = field(default_factory=list)
    #: Other span ids that lead to a node's span (a leg of one of our steps → the step's; :mod:`.joined`).
    aliases: dict[str, str] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.step_ids)


#: Runs imported from foreign OTLP spans have a uid of this form; only they can have a span tree.
TRACE_RUN_UID_PREFIX = "otlp-"

_SPAN_NODES = """SELECT id, kind, outcome,
    json_extract({p}, '$.raw.otlp.spanId', '$.raw.otlp.parentSpanId', '$.raw.otlp.plumbing')
    FROM steps WHERE run_id = ? ORDER BY started_at, sequence"""


def span_nodes(store: RunStore, run_id: int) -> SpanNodes:
    """The run's steps in time order with their span ids, parents and plumbing marks, in one query.

    One ``json_extract`` of three paths parses each payload once (SQLite before 3.45 parses it
    again for every call); only if some payload is not JSON is the query made again, checking each."""
    conn = store.db.conn
    return read_payloads(lambda payload: _read_nodes(conn.execute(_SPAN_NODES.format(p=payload), (run_id,))))


def _read_nodes(rows: Iterable[tuple[int, str, str | None, str | None]]) -> SpanNodes:
    """The nodes of the rows, read as the cursor gives them (1,000,000 rows are never a list of
    tuples at once). A text many nodes share is one object: a kind or an outcome (a handful in a
    run), and a parent's span id said again by the next step (its siblings in a row, or its own
    child in a chain): a span of 100,000 children is not 100,000 copies of its id."""
    nodes = SpanNodes()
    add_step, add_span, add_parent = nodes.step_ids.append, nodes.span_ids.append, nodes.parent_ids.append
    add_plumbing, add_kind, add_outcome = nodes.plumbing.append, nodes.kinds.append, nodes.outcomes.append
    words: dict[str, str] = {}
    word = words.setdefault
    last_span = last_parent = None
    for step_id, kind, outcome, marks in rows:
        # The usual text, ["<16 hex>","<16 hex>",null] (or null for no parent, true for plumbing), is
        # cut by position; anything else goes through _span_marks.
        if marks is not None and marks[:2] == '["' and marks[18:20] == '",' and marks[1:19].count('"') == 2:
            span, rest = marks[2:18], marks[20:]
            if rest[:1] == '"' and rest[17:19] == '",' and rest[1:17].find('"') == -1:
                parent, tail = rest[1:17], rest[19:]
            elif rest[:5] == "null,":
                parent, tail = None, rest[5:]
            else:
                span, parent, tail = *_span_marks(marks)[:2], "?"
            plumbing = tail == "true]" if tail != "?" else _span_marks(marks)[2]
        else:
            span, parent, plumbing = _span_marks(marks)
        add_step(step_id)
        if parent is not None:
            parent = last_parent if parent == last_parent else last_span if parent == last_span else parent
        last_span, last_parent = span, parent
        add_span(span)
        add_parent(parent)
        add_plumbing(plumbing)
        add_kind(word(kind, kind))
        add_outcome(word(outcome or "", outcome or ""))
    return nodes


def _span_marks(marks: str | None) -> tuple[str | None, str | None, bool]:
    """(span id, parent span id, plumbing) from ``["<span>","<parent>",null]``: ids are hex, so the
    array is split, not parsed (a third of the time for 100,000 rows); anything else is parsed."""
    if marks is None:
        return None, None, False
    parts = marks[1:-1].split(",")
    if len(parts) == 3 and "\\" not in marks:
        values = [None if part == "null" else part[1:-1] if part[:1] == '"' == part[-1:] and len(part) > 1
                  else part == "true" if part in ("true", "false") else _ODD for part in parts]
        if _ODD not in values:
            span, parent, plumbing = values
            return (span if isinstance(span, str) else None, parent if isinstance(parent, str) else None,
                    plumbing is True)
    try:
        span, parent, plumbing = json.loads(marks)
    except (ValueError, TypeError):
        return None, None, False
    return span if isinstance(span, str) else None, parent if isinstance(parent, str) else None, plumbing is True


_ODD = object()


def timeline_rows(store: RunStore, step_ids: Sequence[int]) -> list[TimelineRow]:
    """The timeline rows of these steps, in the order given (a page of a span tree)."""
    found: dict[int, TimelineRow] = {}
    for start in range(0, len(step_ids), 500):
        chunk = list(step_ids[start:start + 500])
        clause = f"id IN ({','.join('?' * len(chunk))})"
        for row in store.db.conn.execute(f"SELECT {_ROW_COLUMNS} FROM {_STEPS_WITH_P.format(clause=clause)}", chunk):
            found[row[0]] = _timeline_row(row)
    return [found[step_id] for step_id in step_ids if step_id in found]


def find_step_ids(store: RunStore, run_id: int, text: str, where: StepFilter = StepFilter(),
                  limit: int = 10_000, also: Sequence[int] = (), say: bool = True) -> list[int]:
    """The ids of the steps :func:`find_in_timeline` finds, in time order."""
    return _found(store, run_id, text, where, limit, "id", also, say)


def _found(store: RunStore, run_id: int, text: str, where: StepFilter, limit: int, answer: str,
           also: Sequence[int] = (), say: bool = True) -> list[int]:
    """What Find found, in time order: each step's row number in the filtered timeline
    (``answer="position"``) or its id (``"id"``)."""
    if not text.strip():
        return []
    condition, needles = find_condition(store.db.conn, text, step="found", say=say)
    if also:  # asked first: a step found by its shown words is not searched again
        condition, needles = f"(found.id IN (SELECT value FROM json_each(?)) OR {condition})", \
            [json.dumps(list(also)), *needles]
    clause, params = _step_clauses(run_id, where)
    sql = f"""
        SELECT {answer} FROM (
            SELECT id, kind, outcome, row_number() OVER (ORDER BY started_at, sequence) - 1 AS position,
                   CASE WHEN json_valid(payload) THEN payload ELSE '{{}}' END AS p
            FROM steps WHERE {clause}) AS found
        WHERE {condition}
        ORDER BY position LIMIT ?"""
    return [row[0] for row in store.db.conn.execute(sql, (*params, *needles, limit))]


def delete_runs(store: RunStore, run_ids: Sequence[int]) -> int:
    """Delete runs with their steps and legs, in one transaction; return how many were deleted.

    A run that is still ``running`` and owned by a live process is kept: its writer would
    recreate half of it."""
    ids = list(dict.fromkeys(run_ids))
    if not ids:
        return 0
    store.mark_interrupted_runs()
    deleted = 0
    with store.transaction():
        for start in range(0, len(ids), 500):
            chunk = ids[start:start + 500]
            marks = ",".join("?" * len(chunk))
            # Legs and steps by their indexes first: the cascade would look them up one by one.
            store.db.conn.execute(f"DELETE FROM legs WHERE step_id IN (SELECT id FROM steps WHERE run_id IN"
                                  f" (SELECT id FROM runs WHERE id IN ({marks}) AND status != 'running'))", chunk)
            store.db.conn.execute(f"DELETE FROM steps WHERE run_id IN (SELECT id FROM runs WHERE id IN ({marks})"
                                  " AND status != 'running')", chunk)
            deleted += store.db.conn.execute(f"DELETE FROM runs WHERE id IN ({marks}) AND status != 'running'",
                                             chunk).rowcount
    return deleted


def drop_empty_run(store: RunStore, run_id: int) -> bool:
    """Delete a run that has no step (a call's first row, its record saved to a side file instead, so
    that importing the file brings the run back whole); whether it was deleted."""
    with store.transaction():
        return store.db.conn.execute("DELETE FROM runs WHERE id = ? AND NOT EXISTS (SELECT 1 FROM steps WHERE "
                                     "run_id = ?)", (run_id, run_id)).rowcount == 1


def payload_json(text: str) -> Any:
    """The payload text parsed, or ``None`` when it cannot be (too deep to parse, not JSON)."""
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


__all__ = ["RUN_ORDERS", "TRACE_RUN_UID_PREFIX", "RunFilter", "SpanNodes", "StepFilter", "StepInFull", "StoredImage",
           "TimelineRow", "count_runs", "count_timeline", "find_step_ids", "span_nodes", "timeline_rows",
           "data_version",
           "delete_runs", "drop_empty_run", "find_in_timeline", "list_runs", "listed_ids", "listed_ids_through",
           "payload_json", "run_ids", "runs_by_id",
           "run_span",
           "recent_ok_durations", "servers_with_runs",
           "step_in_full", "timeline_page", "timeline_position"]
