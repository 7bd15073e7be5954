"""Which runs replay which step (``runs.replay_of``, see :mod:`inspector.runs.replaying`)."""

from __future__ import annotations

from inspector.runs.replaying import ReplayLink

from .run_store import RunStore


def note_replay(store: RunStore, run_id: int, link: ReplayLink) -> None:
    """Note on the run ``run_id`` that it replays the step ``link`` names (in the caller's
    transaction, if one is open)."""
    store.db.execute("UPDATE runs SET replay_of = ? WHERE id = ?", (link.key(), run_id))


def replays_by_step(store: RunStore, run_uid: str) -> dict[int, list[tuple[int, str]]]:
    """The replays of every step of the run ``run_uid``: step sequence → [(run id, status)], oldest
    first (one indexed range read, however long the run)."""
    found: dict[int, list[tuple[int, str]]] = {}
    for key, run_id, status in store.db.execute(
            "SELECT replay_of, id, status FROM runs WHERE replay_of >= ? AND replay_of < ? ORDER BY started_at, id",
            (f"{run_uid}:", f"{run_uid};")):
        sequence = key.rpartition(":")[2]
        if sequence.isdigit():
            found.setdefault(int(sequence), []).append((run_id, status))
    return found


def replay_step_ids(store: RunStore, link: ReplayLink) -> list[tuple[int, int]]:
    """(run id, step id) of the step each replay of ``link`` made (its run's last step: a sign-in it
    waited for comes before it), oldest replay first."""
    rows = store.db.execute(
        "SELECT runs.id, (SELECT steps.id FROM steps WHERE steps.run_id = runs.id ORDER BY sequence DESC LIMIT 1)"
        " FROM runs WHERE replay_of = ? ORDER BY started_at, runs.id", (link.key(),)).fetchall()
    return [(run_id, step_id) for run_id, step_id in rows if step_id is not None]


def replayed_step_id(store: RunStore, link: ReplayLink) -> tuple[int, int] | None:
    """(run id, step id) of the step ``link`` names, ``None`` when it is not stored here."""
    row = store.db.execute("SELECT runs.id, steps.id FROM runs JOIN steps ON steps.run_id = runs.id"
                           " WHERE runs.uid = ? AND steps.sequence = ?", (link.run_uid, link.sequence)).fetchone()
    return (row[0], row[1]) if row else None
