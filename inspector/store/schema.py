"""The database schema as a list of forward migrations; ``PRAGMA user_version`` is its version.

Never edit a released migration: append a new one. A database whose version is newer than
:data:`SCHEMA_VERSION` is refused untouched.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

from .command_key_upgrade import name_command_servers_anew, name_titles_anew
from .configured_key_upgrade import key_configured_servers_anew
from .payload_mentions import mention_in_columns
from .plumbing_upgrade import mark_plumbing_steps

#: One migration is a sequence of statements (SQL, or a function given the connection), run in the upgrade's one
#: transaction with its version bump. A function may return what to do once that transaction is committed (what
#: lies outside the file, as the keyring's entries: done before, a rollback would leave them changed).
Migration = tuple[str | Callable[[sqlite3.Connection], Callable[[], None] | None], ...]


def _statements(script: str) -> Migration:
    return tuple(part.strip() for part in script.split(";") if part.strip())


_V1_INITIAL = _statements("""
        CREATE TABLE runs (
            id INTEGER PRIMARY KEY,
            uid TEXT NOT NULL UNIQUE,
            title TEXT NOT NULL,
            source TEXT NOT NULL CHECK (source IN ('live', 'scenario', 'imported')),
            server TEXT,
            status TEXT NOT NULL
                CHECK (status IN ('running', 'ok', 'failed', 'cancelled', 'interrupted')),
            started_at TEXT NOT NULL,
            finished_at TEXT
        );
        CREATE TABLE steps (
            id INTEGER PRIMARY KEY,
            run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
            sequence INTEGER NOT NULL,
            kind TEXT NOT NULL,
            round INTEGER NOT NULL,
            duration_ms REAL NOT NULL,
            started_at TEXT NOT NULL DEFAULT '',
            outcome TEXT NOT NULL DEFAULT '',
            payload TEXT NOT NULL,
            UNIQUE (run_id, sequence)
        );
        CREATE TABLE legs (
            id INTEGER PRIMARY KEY,
            step_id INTEGER NOT NULL REFERENCES steps(id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            method TEXT NOT NULL,
            granted_s INTEGER,
            elapsed_ms REAL,
            http_status INTEGER,
            outcome TEXT NOT NULL
        );
        CREATE INDEX legs_by_step ON legs (step_id, position);
        CREATE TABLE servers (
            url TEXT PRIMARY KEY,
            name TEXT,
            budget_s REAL,
            headers TEXT NOT NULL DEFAULT '[]'
        );
        CREATE TABLE server_health (
            url TEXT PRIMARY KEY,
            last_contact_at TEXT,
            last_latency_ms REAL,
            ok_count INTEGER NOT NULL DEFAULT 0,
            failed_count INTEGER NOT NULL DEFAULT 0,
            cancelled_count INTEGER NOT NULL DEFAULT 0
        );
""")

# Which process writes a running run, so a later open can tell a live run from a dead one;
# where an imported run came from, so the same trace is not imported twice; and the index
# the timeline pages through (time, then sequence).
_V2_OWNER_ORIGIN_TIMELINE = _statements("""
        ALTER TABLE runs ADD COLUMN owner_pid INTEGER;
        ALTER TABLE runs ADD COLUMN origin TEXT;
        CREATE INDEX steps_timeline ON steps (run_id, started_at, sequence);
        CREATE INDEX runs_by_start ON runs (started_at);
""")

# A tool's own error (isError) is counted on its own: the server answered (a contact), the tool
# failed. Databases written before this version counted those as ok; they stay there, since
# which of them were tool errors was not recorded.
_V3_TOOL_ERRORS = _statements("""
        ALTER TABLE server_health ADD COLUMN tool_error_count INTEGER NOT NULL DEFAULT 0;
""")

# The roots (folders, as file:// URIs in a JSON list) the user configured for a server: what the
# client answers to the server's roots/list. None by default.
_V4_SERVER_ROOTS = _statements("""
        ALTER TABLE servers ADD COLUMN roots TEXT NOT NULL DEFAULT '[]';
""")

# How a server is reached ('http': Streamable HTTP, 'sse': the older HTTP+SSE transport, 'stdio': a
# command), and for a command its program, arguments, folder and environment (JSON; secret
# variables by name only, their values in the keyring). A command server's url is its key
# ("stdio:" and its command line).
_V5_SERVER_TRANSPORTS = _statements("""
        ALTER TABLE servers ADD COLUMN transport TEXT NOT NULL DEFAULT 'http'
            CHECK (transport IN ('http', 'sse', 'stdio'));
        ALTER TABLE servers ADD COLUMN command TEXT;
""")

# Which era of MCP a server is spoken to in ('auto' probes with server/discover; 'handshake' and
# 'stateless' pin one), and what 'auto' found, with when: kept beside the health, since it is what
# was seen of a server (also of an address or command never configured), keyed as the health is.
_V6_SERVER_ERAS = _statements("""
        ALTER TABLE servers ADD COLUMN era TEXT NOT NULL DEFAULT 'auto'
            CHECK (era IN ('auto', 'handshake', 'stateless'));
        ALTER TABLE server_health ADD COLUMN found_era TEXT CHECK (found_era IN ('handshake', 'stateless'));
        ALTER TABLE server_health ADD COLUMN found_era_at TEXT;
""")

# How the user set a server up for signing in (OAuth): a pre-registered client's id and how it
# authenticates, a client metadata document's address, the grant, the scope, and the PATH of a
# signed-JWT client's key file (never its contents). Whether the client's secret is kept in the
# keyring is a flag: the secret itself never comes here. All NULL: discovery decides.
_V7_SERVER_SIGNIN = _statements("""
        ALTER TABLE servers ADD COLUMN signin_client_id TEXT;
        ALTER TABLE servers ADD COLUMN signin_auth_method TEXT
            CHECK (signin_auth_method IN ('none', 'client_secret_basic', 'client_secret_post', 'private_key_jwt'));
        ALTER TABLE servers ADD COLUMN signin_metadata_url TEXT;
        ALTER TABLE servers ADD COLUMN signin_grant TEXT
            CHECK (signin_grant IN ('authorization-code', 'client-credentials'));
        ALTER TABLE servers ADD COLUMN signin_scope TEXT;
        ALTER TABLE servers ADD COLUMN signin_key_file TEXT;
        ALTER TABLE servers ADD COLUMN signin_secret_kept INTEGER NOT NULL DEFAULT 0
            CHECK (signin_secret_kept IN (0, 1));
""")

# What someone who reviewed a run wrote about it (support staff's finding). A step's note lives in
# its payload (key "note"), so that it travels with the step wherever the step goes.
_V8_RUN_NOTES = _statements("""
        ALTER TABLE runs ADD COLUMN note TEXT NOT NULL DEFAULT '';
""")

# What each leg sent and received (``inspector.mcp.wire``), redacted and bounded before it comes
# here: a JSON object as text, NULL when it was not kept (older steps, the wire level "off").
_V9_LEG_EXCHANGES = _statements("""
        ALTER TABLE legs ADD COLUMN exchange TEXT;
""")

# The outbox of runs pushed to a team's OpenTelemetry collector (inspector/store/outbox.py): one row per
# run and collector address, its state ('queued', 'sending' while one process holds it, 'sent', or
# 'failed' for good with the reason), the attempts made and when the next one is due (UTC). The
# headers sent (credentials) are never here.
_V10_OUTBOX = _statements("""
        CREATE TABLE outbox (
            id INTEGER PRIMARY KEY,
            run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
            endpoint TEXT NOT NULL,
            state TEXT NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'sending', 'sent', 'failed')),
            attempts INTEGER NOT NULL DEFAULT 0,
            queued_at TEXT NOT NULL,
            next_attempt_at TEXT NOT NULL,
            sent_at TEXT,
            reason TEXT NOT NULL DEFAULT '',
            owner_pid INTEGER,
            UNIQUE (run_id, endpoint)
        );
        CREATE INDEX outbox_due ON outbox (endpoint, state, next_attempt_at);
""")

# Which step a run replays (``inspector.runs.replaying``): "<run uid>:<sequence>", NULL for every other
# run. The replayed step's detail finds its replays through the index.
_V11_REPLAYS = _statements("""
        ALTER TABLE runs ADD COLUMN replay_of TEXT;
        CREATE INDEX runs_by_replay_of ON runs (replay_of) WHERE replay_of IS NOT NULL;
""")

# The steps that carry a reviewer's note (the key "note" of the payload, inspector/store/notes.py), by
# run: the run list's search looks in them without reading every payload. A payload is compact JSON
# (json_set writes a note so too), so a noted step's payload holds '"note":'; a step whose payload
# merely mentions it is indexed too, and the search reads its note to be sure.
_V12_STEP_NOTES = _statements("""
        CREATE INDEX steps_with_note ON steps (run_id) WHERE instr(payload, '"note":') > 0;
""")

# The steps an instrumentation made for its own work (``raw.otlp.plumbing``, inspector/store/plumbing_traces.py,
# its condition word for word), by run: whether a run is a plumbing trace, which `runs list` and the window's Runs
# list leave out, is asked of every run listed or counted; read from the payloads, that took 0.3 s for 25,000
# runs (each run's first payload read), and through the index 0.09 s (at a load of 8 on 2 cores).
_V13_PLUMBING_STEPS = _statements("""
        CREATE INDEX steps_plumbing ON steps (run_id) WHERE kind = 'request' AND instr(payload, '"plumbing"') > 0
            AND (CASE WHEN json_valid(payload) THEN json_extract(payload, '$.raw.otlp.plumbing') END) IS 1;
""")

# The plumbing marks of the steps imported before plumbing traces were marked (a session's set-up, a notification
# outside a request): the importer's rule asked of each request step's kept span (inspector/store/plumbing_upgrade.py),
# so that an older database lists the runs a fresh import of its traces would.
_V14_PLUMBING_MARKS: Migration = (mark_plumbing_steps,)

# The runs and health of a command server stored under a key holding its credentials (stdio:cmd --token T), as
# `call --stdio` stored them before its key left them out: under the key it has now (stdio:cmd --token …);
# a configured server's stay until it is saved again (inspector/store/command_key_upgrade.py).
_V15_COMMAND_KEYS: Migration = (name_command_servers_anew,)

# The runs by status, and the tool calls that were cancelled by run: `runs list --outcome cancelled` (and the window's
# status filter) read every run's row to find those of one status (25,000 runs: 26 ms for none found), and the line
# under it (inspector/store/cancelled_calls.py) every step of the newest 10,000 runs to find their cancelled calls
# (46 ms); through these, a look-up each. A step's row is indexed only when its call was cancelled: an import adds
# none, a run one entry at most per call. (``IF NOT EXISTS``: a database set back to an older version keeps them.)
_V16_STATUS_AND_CANCELS = _statements("""
        CREATE INDEX IF NOT EXISTS runs_by_status ON runs (status, started_at);
        CREATE INDEX IF NOT EXISTS steps_cancelled_calls ON steps (run_id)
            WHERE kind = 'tool' AND outcome = 'cancelled';
""")

# What a step's payload mentions (a note, plumbing), as columns the indexes of versions 12 and 13 select on instead of
# the payload's text, which SQLite searched in every payload an import wrote (6.7% of its thread): set by the writer
# of a step, and by the trigger when a payload is written over (inspector/store/payload_mentions.py); here once from
# every stored payload, by the old indexes' tests. The indexes keep their names and the rows they hold.
_V17_PAYLOAD_MENTIONS: Migration = (mention_in_columns,)

# A configured command server keyed with its credentials (stdio:sh -c 'srv --token T', as `servers set` keyed it before
# a credential inside a word of several was left out), which schema 15 left until it was saved again: under the key a
# save gives it now, its runs, health and keyring entries with it (inspector/store/configured_key_upgrade.py); then
# schema 15's step again, with the rule of now: `call --stdio "sh -c 'srv --token T'"` stored its runs and health
# under T between schema 15 and that rule, and no step named them anew. Then the titles `tools`, `ping` and the window
# gave their runs (tools/list stdio:… --token T), which neither step, nor schema 15, named anew.
_V18_CONFIGURED_COMMAND_KEYS: Migration = (key_configured_servers_anew, name_command_servers_anew, name_titles_anew)

MIGRATIONS: tuple[Migration, ...] = (_V1_INITIAL, _V2_OWNER_ORIGIN_TIMELINE, _V3_TOOL_ERRORS, _V4_SERVER_ROOTS,
                                     _V5_SERVER_TRANSPORTS, _V6_SERVER_ERAS, _V7_SERVER_SIGNIN, _V8_RUN_NOTES,
                                     _V9_LEG_EXCHANGES, _V10_OUTBOX, _V11_REPLAYS, _V12_STEP_NOTES,
                                     _V13_PLUMBING_STEPS, _V14_PLUMBING_MARKS, _V15_COMMAND_KEYS,
                                     _V16_STATUS_AND_CANCELS, _V17_PAYLOAD_MENTIONS, _V18_CONFIGURED_COMMAND_KEYS)
SCHEMA_VERSION = len(MIGRATIONS)
