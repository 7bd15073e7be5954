"""Issue 23's idea 4, measured: K processes each read the whole OTLP file and map the traces of their share.

A prototype, not the product (``inspector/`` is unchanged). Each of K worker processes runs the importer's
own reading and mapping (``reader_for`` / ``read_file`` / ``SpanSorter`` / ``_CheckingPlan``: every line
parsed, every span's trace id looked at) but hands the sorter only the spans of the traces whose id falls in
its share (``zlib.crc32`` of the id, modulo K). Each step and run it keeps is stamped with the place one
process would have made it at (the span being read, or, at the end of the file, the phase of
``SpanSorter.finish`` and the place of the waiting side that made it), so the parent can merge the K shares
back into the one process's order. The parent then writes them with the importer's own ``_write`` (one
transaction; run ids as one process hands them out). Anything unusual (a problem in the file, rows past the
cache budget) makes the parent import the file again in one process, as ``import_trace`` would.

Workers are forked (``multiprocessing`` context ``fork``): they inherit the modules the parent imported,
so none starts an interpreter and imports the importer again (about 0.3 s each here); the parent has
started no thread and opened no connection it shares with them when it forks. A product on macOS or
Windows, or in the window's process (threads), would have to spawn them (``--start spawn`` measures that).

    .venv/bin/python benchmarks/otlp_two_processes.py [--spans N] [--workers 1,2,3] [--rounds 3] [--check]

``--check`` imports the file once per K and compares the databases' dumps (``iterdump``) with K=1's.
K=1 is today's importer (``import_trace``). Writes ``otlp_two_processes.json`` (see ``_common.RESULTS_DIR``).
Informational: exit status 0 unless the dumps differ.
"""

from __future__ import annotations

import argparse
import heapq
import json
import marshal
import os
import pickle
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import zlib
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
from _common import RESULTS_DIR  # noqa: E402
from otlp_agent_import import FIXTURE, SPANS, write_file  # noqa: E402

_READING, _FINISHING = 0, 1
#: The phases of ``SpanSorter.finish`` that make steps, in its order: a server side joined to its client by
#: parent (A), by request id (B), the client sides left alone (C1), the server sides left alone (C2), the
#: tool spans left waiting (D).
_A, _B, _C1, _C2, _D = range(5)


# -- a worker: the importer's reading of the whole file, its share of the traces kept -------------------

class _Unusual(Exception):
    """Something the prototype leaves to one process (a problem in the file, rows past the budget)."""


@dataclass
class _Clock:
    """Where one process would be: the span being read (counted over every span, kept or not), or the
    phase of the sorter's finish and the waiting side driving it. Each kept step and run gets its place."""

    ordinal: int = -1
    finishing: bool = False
    phase: int = _A
    context: tuple[Any, ...] = ()
    emitted: int = 0
    last: int = -2
    born: dict[int, int] = field(default_factory=dict)  # id(a waiting side) → the ordinal of its span
    tools_born: dict[int, tuple[Any, ...]] = field(default_factory=dict)  # id(a held tool span) → its place
    first: dict[str, int] = field(default_factory=dict)  # trace id → the ordinal of its first foreign span

    def here(self) -> tuple[Any, ...]:
        """The place of the next step, not counted yet."""
        if not self.finishing:
            if self.ordinal != self.last:
                self.last, self.emitted = self.ordinal, 0
            return (_READING, self.ordinal, self.emitted)
        return (*self.context, self.emitted)

    def step_place(self) -> tuple[Any, ...]:
        place = self.here()
        self.emitted += 1
        return place


def _share_of(trace_id: Any, count: int) -> int:
    """The worker whose share the trace is, by its id as the sorter keys it (lower-case hex)."""
    if type(trace_id) is str and len(trace_id) == 32:
        return zlib.crc32(trace_id.lower().encode()) % count
    from inspector.traces.format import TraceProblem
    from inspector.traces.otlp import _hex_id

    try:  # base64 (protobuf's JSON mapping): the same trace as its hex spelling
        return zlib.crc32(_hex_id(trace_id, 32, ()).encode()) % count
    except TraceProblem:
        return 0  # a wrong id: worker 0 reads the span and finds the problem


def _partition(reader: Any, clock: _Clock, index: int, count: int) -> None:
    """Hook this worker's sorter (its instance and its forked copy of the module: ``inspector/`` unchanged)."""
    from inspector.traces import span_sorter
    from inspector.traces.span_parts import NO_SCOPE

    sorter = reader._sorter
    take, first = sorter.span, clock.first

    def span(record: Any, path: Any, service: Any, line: Any, size: int = 0, resource: Any = None,
             scope: Any = NO_SCOPE) -> None:
        clock.ordinal += 1
        trace_id = record.get("traceId") if type(record) is dict else None
        if _share_of(trace_id, count) != index:
            return
        take(record, path, service, line, size, resource, scope)
        if type(trace_id) is str and len(trace_id) == 32:
            trace_id = trace_id.lower()
            if trace_id not in first and sorter.foreign.get(trace_id) is not None:
                first[trace_id] = clock.ordinal

    sorter.span = span
    held_type, born = span_sorter._Held, clock.born

    def held(sequence: int, side: Any, path: Any, size: int) -> Any:
        made = held_type(sequence, side, path, size)
        born[id(made)] = clock.ordinal
        return made

    span_sorter._Held = held

    class _Tools(dict):  # a tool span held waits in the order it was held: the place of the step it held back
        def __setitem__(self, key: Any, value: Any) -> None:
            clock.tools_born[id(value)] = clock.here()
            super().__setitem__(key, value)

    sorter.tools = _Tools(sorter.tools.items())
    emit, pair, finish = sorter._emit, sorter._pair_by_request_id, sorter.finish

    def finishing_emit(trace_id: str, client: Any, server: Any, hold: bool = True) -> None:
        if server is not None:  # A or B: the server side's place drives the loop
            clock.context = (_FINISHING, clock.phase, born[id(server)])
        elif not hold:  # D: the tool spans left waiting, in the order they were held
            clock.context = (_FINISHING, _D, clock.tools_born[id(client)])
        else:  # C1 (client sides left alone), then C2 (server sides)
            phase = _C2 if client.side.meaning.side == "server" else _C1
            clock.context = (_FINISHING, phase, born[id(client)])
        clock.emitted = 0
        emit(trace_id, client, server, hold)

    def pairing() -> None:
        clock.phase = _B
        pair()
        clock.phase = _C1

    def finishing(*, complete: bool = True) -> None:
        clock.finishing, clock.phase = True, _A
        sorter._emit, sorter._pair_by_request_id = finishing_emit, pairing
        finish(complete=complete)

    sorter.finish = finishing


def _placed_plan(clock: _Clock, budget: int, new_table: Any) -> Any:
    from inspector.transfer.importing import _CheckingPlan

    class _PlacedPlan(_CheckingPlan):
        """The importer's checking plan, each kept step and run with its place in one process's order."""

        def __init__(self) -> None:
            super().__init__(budget, new_table)
            self.places: list[tuple[Any, ...]] = []
            self.run_places: list[tuple[tuple[Any, ...], Any]] = []

        def step(self, key: Any, step: Any, path: Any, size: int = 0) -> None:
            self.places.append(clock.step_place())
            super().step(key, step, path, size)

        def run(self, key: Any, header: Any, path: Any) -> None:
            super().run(key, header, path)
            if not clock.finishing:
                self.run_places.append(((_READING, clock.ordinal), key))
            elif key in clock.first:
                self.run_places.append(((_FINISHING, clock.first[key]), key))
            else:
                raise _Unusual(f"the first span of trace {key} was not placed")

    return _PlacedPlan()


def _worker(source: str, index: int, count: int, conn: Any) -> None:
    """Read the whole file, keep this share's rows, send them (header, row batches, b"", stats)."""
    began, sent_bytes = time.perf_counter(), 0
    try:
        header, batches = _read_share(Path(source), index, count)
        read_cpu, read_wall = time.process_time(), time.perf_counter() - began
        steps, finish_steps = header["count"], header["finish_steps"]
        sending = time.perf_counter()
        data = pickle.dumps(header, protocol=pickle.HIGHEST_PROTOCOL)
        conn.send_bytes(data)
        sent_bytes += len(data)
        for batch in batches:
            conn.send_bytes(batch)
            sent_bytes += len(batch)
        conn.send_bytes(b"")
        sending = time.perf_counter() - sending
    except BaseException as error:  # noqa: BLE001 - the parent imports in one process then
        conn.send_bytes(pickle.dumps({"unusual": f"{type(error).__name__}: {error}"}))
        conn.send_bytes(b"")
        read_cpu = read_wall = sending = 0.0
        steps = finish_steps = 0
    usage = resource.getrusage(resource.RUSAGE_SELF)
    conn.send_bytes(pickle.dumps({"cpu": usage.ru_utime + usage.ru_stime, "read_cpu": read_cpu,
                                  "read_wall": read_wall, "send_wall": sending, "sent_bytes": sent_bytes,
                                  "steps": steps, "finish_steps": finish_steps,
                                  "peak_rss_mb": usage.ru_maxrss / 1024}))
    conn.close()


def _read_share(source: Path, index: int, count: int) -> tuple[dict[str, Any], list[bytes]]:
    from inspector.traces.progress import ProgressMeter
    from inspector.traces.reader import read_file, reader_for
    from inspector.traces.sniff import sniff
    from inspector.transfer import importing
    from inspector.transfer.spill import SpillArea

    with importing._without_cyclic_gc(), SpillArea() as area:
        size = source.stat().st_size
        kind = sniff(source, False)
        if kind.name != "otlp":
            raise _Unusual("not OTLP")
        clock = _Clock()
        plan = _placed_plan(clock, importing.CACHE_BUDGET, area.table)
        reader = reader_for(kind, plan, checking=True, title=source.stem, new_table=area.table, stored_payloads=True)
        _partition(reader, clock, index, count)
        file_hash = read_file(source, kind, reader, ProgressMeter(None, 2 * size, 1.0), size)
        rows = plan.rows
        if rows is None:
            raise _Unusual("the rows outgrew the cache budget (the importer reads the file a second time)")
        batches = [packed.result() for packed in rows._batches]
        if rows._pending:
            batches.append(zlib.compress(marshal.dumps(rows._pending), 1))
        rows.close()
        header = {"hash": file_hash, "places": plan.places, "count": rows.count,
                  "runs": [(place, key, plan.runs[key].header, plan.runs[key].path) for place, key in plan.run_places],
                  "noted": list(plan.noted.keys()), "last_sequence": list(plan.last_sequence.items()),
                  "repeated": reader.repeats.repeated, "clashing": reader.repeats.clashing,
                  "finish_steps": sum(place[0] == _FINISHING for place in plan.places)}
        return header, batches


# -- the parent: the shares merged back into one process's order, written as the importer writes ----------

class _MergedRows:
    """The workers' rows in one process's order: what ``_write`` takes from ``_CheckedRows``."""

    def __init__(self, shares: list[dict[str, Any]]) -> None:
        self._shares = shares
        self.count = sum(share["header"]["count"] for share in shares)

    def take(self) -> Any:
        def rows(batches: list[bytes]) -> Any:
            for index, data in enumerate(batches):
                batches[index] = b""
                yield from marshal.loads(zlib.decompress(data))

        streams = [rows(share["batches"]) for share in self._shares]
        places = [[(place, worker) for place in share["header"]["places"]] for worker, share in enumerate(self._shares)]
        for _place, worker in heapq.merge(*places):
            yield next(streams[worker])

    def close(self) -> None:
        self._shares = []


def _receive(readers: list[Any]) -> list[dict[str, Any]]:
    from multiprocessing.connection import wait

    shares: list[dict[str, Any]] = [{"header": None, "batches": [], "stats": None} for _ in readers]
    waiting = {conn: index for index, conn in enumerate(readers)}
    while waiting:
        for conn in wait(list(waiting)):
            share = shares[waiting[conn]]
            data = conn.recv_bytes()
            if share["header"] is None:
                share["header"] = pickle.loads(data)
            elif share["stats"] is None and share.get("ended"):
                share["stats"] = pickle.loads(data)
                del waiting[conn]
            elif data == b"":
                share["ended"] = True
            else:
                share["batches"].append(data)
    return shares


def partitioned_import(store: Any, source: Path, count: int, start: str = "fork") -> tuple[Any, dict[str, Any]]:
    """Import ``source`` with ``count`` workers; the report and the timings."""
    import multiprocessing

    from inspector.traces.progress import PROGRESS_INTERVAL_S, ProgressMeter
    from inspector.traces.reader import TracePlan
    from inspector.traces.sniff import sniff
    from inspector.transfer import importing
    from inspector.transfer.spill import SpillArea

    wall0, cpu0 = time.perf_counter(), time.process_time()
    context = multiprocessing.get_context(start)
    readers, workers = [], []
    for index in range(count):
        reader, writer = context.Pipe(duplex=False)
        worker = context.Process(target=_worker, args=(str(source), index, count, writer), daemon=True)
        worker.start()
        writer.close()
        readers.append(reader)
        workers.append(worker)
    wall1, cpu1 = time.perf_counter(), time.process_time()
    shares = _receive(readers)
    for worker in workers:
        worker.join()
    wall2, cpu2 = time.perf_counter(), time.process_time()
    unusual = [share["header"]["unusual"] for share in shares if "unusual" in share["header"]]
    if unusual or len({share["header"]["hash"] for share in shares}) != 1:
        report = importing.import_trace(store, source)  # one process, as today
        fell_back = unusual or ["the workers read different files"]
    else:
        fell_back = []
        with importing._without_cyclic_gc(), SpillArea() as area:
            size = source.stat().st_size
            meter = ProgressMeter(None, 2 * size, PROGRESS_INTERVAL_S)
            meter.advance(size)
            kind = sniff(source, False)
            plan = TracePlan(0, area.table)
            plan.cache = None
            runs = heapq.merge(*[share["header"]["runs"] for share in shares], key=lambda run: run[0])
            for _place, key, header, path in runs:
                plan.run(key, header, path)  # a uid twice in the file is refused here, as in one process
            plan.noted = area.table()
            for share in shares:
                for key in share["header"]["noted"]:
                    plan.noted[key] = True
                for key, sequence in share["header"]["last_sequence"]:
                    plan.last_sequence[key] = sequence
            plan.rows = _MergedRows(shares)
            report = importing._write(store, source, kind, plan, shares[0]["header"]["hash"], meter, area, size)
            report = importing.replace(report, spans_repeated=sum(s["header"]["repeated"] for s in shares),
                                       spans_clashing=sum(s["header"]["clashing"] for s in shares))
    wall3, cpu3 = time.perf_counter(), time.process_time()
    sent = sum(share["stats"]["sent_bytes"] for share in shares)
    return report, {
        "fell_back": fell_back,
        "parent": {"start_workers": {"wall": wall1 - wall0, "cpu": cpu1 - cpu0},
                   "receive": {"wall": wall2 - wall1, "cpu": cpu2 - cpu1},
                   "merge_and_write": {"wall": wall3 - wall2, "cpu": cpu3 - cpu2}},
        "workers": [share["stats"] for share in shares], "sent_mb": sent / 1e6,
    }


# -- measuring: one import per child process (its own peak RSS) ----------------------------------------

def _one(count: int, db: str, source: str, start: str) -> None:
    from inspector.store import RunStore
    from inspector.transfer.importing import import_trace

    store = RunStore.open(db)
    began, cpu = time.perf_counter(), time.process_time()
    if count == 1:
        report, detail = import_trace(store, source), {}
    else:
        report, detail = partitioned_import(store, Path(source), count, start)
    took, cpu = time.perf_counter() - began, time.process_time() - cpu
    store.close()
    print(json.dumps({"seconds": took, "parent_cpu": cpu, "steps": report.steps_imported, "runs": report.runs_imported,
                      "parent_peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, **detail}))


def _measure(count: int, db: Path, source: Path, start: str) -> dict[str, Any]:
    db.unlink(missing_ok=True)
    for extra in ("-wal", "-shm"):
        Path(f"{db}{extra}").unlink(missing_ok=True)
    load = os.getloadavg()[0]
    child = subprocess.run([sys.executable, __file__, "--one", str(count), str(db), str(source), start],
                           capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    if child.returncode:
        sys.exit(f"K={count} failed (exit status {child.returncode}):\n{child.stderr}")
    measured = json.loads(child.stdout.strip().splitlines()[-1])
    measured["k"], measured["load_before"] = count, round(load, 2)
    measured["load_after"] = round(os.getloadavg()[0], 2)
    return _summarised(measured)


def _summarised(measured: dict[str, Any]) -> dict[str, Any]:
    """Total CPU, peak RSS of all processes, and the critical path in CPU seconds: the parent's work before
    the workers, the slowest worker's, the parent's receiving, merging and writing (what idle cores, one per
    process, would take); on 2 cores, K workers' reading takes at least half their CPU together."""
    workers = measured.get("workers", [])
    parent = measured.get("parent")
    measured["cpu_total"] = measured["parent_cpu"] + sum(w["cpu"] for w in workers)
    measured["peak_rss_total_mb"] = measured["parent_peak_rss_mb"] + sum(w["peak_rss_mb"] for w in workers)
    if parent is None:
        measured["critical_path_cpu"] = measured["two_cores_cpu"] = measured["parent_cpu"]
    else:
        cpus = [w["cpu"] for w in workers]
        serial = parent["start_workers"]["cpu"] + parent["receive"]["cpu"] + parent["merge_and_write"]["cpu"]
        measured["critical_path_cpu"] = serial + max(cpus)
        measured["two_cores_cpu"] = serial + max(max(cpus), sum(cpus) / 2)  # K=3 shares 2 cores
    return measured


def _line(m: dict[str, Any]) -> str:
    text = (f"K={m['k']}: wall {m['seconds']:.2f} s, CPU total {m['cpu_total']:.2f} s, critical path "
            f"{m['critical_path_cpu']:.2f} s (on 2 cores {m['two_cores_cpu']:.2f} s), "
            f"peak RSS together {m['peak_rss_total_mb']:.0f} MB, load "
            f"{m['load_before']:.2f}->{m['load_after']:.2f}")
    if m.get("workers"):
        p = m["parent"]
        text += (f"\n    parent CPU {m['parent_cpu']:.2f} s (start {p['start_workers']['cpu']:.2f}, receive "
                 f"{p['receive']['cpu']:.2f} / wall {p['receive']['wall']:.2f}, merge+write "
                 f"{p['merge_and_write']['cpu']:.2f} / wall {p['merge_and_write']['wall']:.2f}), "
                 f"{m['parent_peak_rss_mb']:.0f} MB; sent {m['sent_mb']:.0f} MB"
                 + "".join(f"\n    worker {i}: CPU {w['cpu']:.2f} s (reading {w['read_cpu']:.2f}), read wall "
                           f"{w['read_wall']:.2f} s, send wall {w['send_wall']:.2f} s, {w['peak_rss_mb']:.0f} MB, "
                           f"{w['steps']} steps ({w['finish_steps']} made at the end)"
                           for i, w in enumerate(m["workers"])))
        if m["fell_back"]:
            text += f"\n    FELL BACK to one process: {m['fell_back']}"
    return text


def _dump(db: Path) -> tuple[int, str]:
    """The length and SHA-256 of the database's dump: the dump itself (130 MB for the benchmark's file)
    kept here would be counted in the next child's peak RSS (Linux keeps the high-water mark across exec)."""
    import hashlib
    import sqlite3

    digest, length = hashlib.sha256(), 0
    with sqlite3.connect(db) as conn:
        for line in conn.iterdump():
            data = line.encode() + b"\n"
            digest.update(data)
            length += len(data)
    return length, digest.hexdigest()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spans", type=int, default=SPANS)
    parser.add_argument("--workers", default="1,2", help="the values of K, in the order each round runs them")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--start", choices=("fork", "spawn", "forkserver"), default="fork")
    parser.add_argument("--file", type=Path, help="import this file instead of the benchmark's")
    parser.add_argument("--check", action="store_true", help="compare each K's database dump with K=1's")
    parser.add_argument("--keep", type=Path, help="write the files here and keep them")
    args = parser.parse_args()
    counts = [int(k) for k in args.workers.split(",")]
    with tempfile.TemporaryDirectory() as scratch:
        folder = (args.keep or Path(scratch)).resolve()
        folder.mkdir(parents=True, exist_ok=True)
        source = args.file.resolve() if args.file else folder / "agent.otlp.jsonl"
        if not args.file and not source.exists():
            write_file(source, args.spans, FIXTURE)
        results: list[dict[str, Any]] = []
        dumps: dict[int, tuple[int, str]] = {}
        for _ in range(args.rounds):
            for count in counts:
                db = folder / f"k{count}.db"
                measured = _measure(count, db, source, args.start)
                results.append(measured)
                print(_line(measured), flush=True)
                if args.check:
                    dumps[count] = _dump(db)
        same = all(dump == dumps[counts[0]] for dump in dumps.values())
        if args.check:
            print("dumps " + ("identical" if same else "DIFFER") + f" ({', '.join(f'K={k}' for k in dumps)}; "
                  f"{dumps[counts[0]][0]:,} bytes)")
    for count in counts:
        mine = [m for m in results if m["k"] == count]
        print(f"K={count} medians of {len(mine)}: wall {statistics.median(m['seconds'] for m in mine):.2f} s, "
              f"CPU total {statistics.median(m['cpu_total'] for m in mine):.2f} s, critical path "
              f"{statistics.median(m['critical_path_cpu'] for m in mine):.2f} s (on 2 cores "
              f"{statistics.median(m['two_cores_cpu'] for m in mine):.2f} s), peak RSS "
              f"{statistics.median(m['peak_rss_total_mb'] for m in mine):.0f} MB")
    if not args.file:
        RESULTS_DIR.mkdir(parents=True, exist_ok=True)
        (RESULTS_DIR / "otlp_two_processes.json").write_text(json.dumps(
            {"benchmark": "otlp_two_processes", "spans": args.spans, "start": args.start, "runs": results,
             "date": datetime.now(timezone.utc).isoformat(timespec="seconds")}, indent=2) + "\n")
    return 0 if same else 1


if __name__ == "__main__":
    if len(sys.argv) == 6 and sys.argv[1] == "--one":
        _one(int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5])
    else:
        sys.exit(main())
