"""Writing trace files: our trace format or OTLP JSON, redacted, streamed, all or nothing.

The runs come from whoever calls (the exporter reads them from the database page by page);
every string goes through :func:`inspector.traces.redact.redact` before it is written. A file is
written next to its destination under a temporary name and renamed into place only when
complete, so a failed write never leaves a partial file where the user expects a trace.
"""

from __future__ import annotations

import errno
import os
import signal
import stat
import tempfile
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import IO, Any, Protocol

from inspector.i18n import N_

from . import otlp
from .foreign_spans import SpanOut, is_foreign_run, is_joined_step, spans_of_step, with_run_note
from .format import FORMAT_NAME, FORMAT_VERSION, dump_json, format_time
from .progress import ProgressMeter
from .redact import redact, redact_text
from .span_groups import SpanGroups

__all__ = ["FORMATS", "RunToWrite", "StepToWrite", "existing_mode", "is_part_of", "replacing", "write_otlp",
           "write_trace", "written_at"]

FORMATS = ("trace", "otlp")


class RunToWrite(Protocol):
    """What a writer needs of a run."""

    uid: str
    title: str
    source: str
    server: str | None
    status: str
    started_at: datetime | None
    finished_at: datetime | None
    note: str


class StepToWrite(Protocol):
    """What a writer needs of a step: its place, its time, its stored payload and outcome."""

    sequence: int
    started_at: datetime | None
    payload: dict[str, Any]
    outcome: str


StepsOf = Callable[[Any], Iterable[StepToWrite]]
"""The steps of a run, in order (read lazily: a run may have many)."""


# The reasons are marked for translation: where the error is said, ``os_reason`` says them in the language.
_NOT_REGULAR = ((stat.S_ISDIR, errno.EISDIR, N_("it is a folder, not a file")),
                (stat.S_ISCHR, errno.EINVAL, N_("it is a device, not a regular file")),
                (stat.S_ISBLK, errno.EINVAL, N_("it is a device, not a regular file")),
                (stat.S_ISFIFO, errno.EINVAL, N_("it is a named pipe, not a regular file")),
                (stat.S_ISSOCK, errno.EINVAL, N_("it is a socket, not a regular file")))


def existing_mode(target: Path) -> int | None:
    """The permission bits of an existing regular ``target`` (None when there is none yet).

    Anything else that exists there is refused: the rename that makes a write atomic would
    replace a device node, a named pipe or a socket by a plain file; and so is a file this user
    may not write (``chmod a-w``), which the rename would replace as well, where ``>`` or ``cp`` stop.
    """
    try:
        found = os.stat(target)
    except FileNotFoundError:
        return None
    for test, code, reason in _NOT_REGULAR:
        if test(found.st_mode):
            raise OSError(code, reason)
    if not stat.S_ISREG(found.st_mode):
        raise OSError(errno.EINVAL, N_("it is not a regular file"))
    if not os.access(target, os.W_OK) and not _on_read_only_disk(target):  # (there the rename says so)
        raise OSError(errno.EACCES, N_("the file is write-protected"))
    return stat.S_IMODE(found.st_mode)


def _on_read_only_disk(target: Path) -> bool:
    try:
        return bool(os.statvfs(target).f_flag & os.ST_RDONLY)
    except OSError:
        return False


_PART = ".part"


def written_at(target: Path) -> Path:
    """The file a user's write to ``target`` replaces: the one a symbolic link there names (the link is kept, as
    a shell's ``>`` keeps it), else ``target``. Not for files of our own naming in a shared folder, where a
    link someone else put there would send the write to a file of their choosing."""
    return Path(os.path.realpath(target)) if os.path.islink(target) else target


def is_part_of(target: Path, path: object) -> bool:
    """Whether ``path`` (an error's file name, say) is the file :func:`replacing` writes beside
    ``target`` before it becomes ``target``."""
    if not isinstance(path, (str, os.PathLike)):
        return False
    found = Path(path)
    return found.parent == target.parent and found.name.startswith(f".{target.name}.") and found.name.endswith(_PART)


@contextmanager
def replacing(target: Path, placing: Callable[[], None] | None = None) -> Iterator[IO[str]]:
    """A text file that becomes ``target`` only if the block completes.

    Only a regular file (or nothing) may be at ``target``; a file replaced keeps its mode. A
    symbolic link at ``target`` is replaced (pass :func:`written_at` to write the file it names).
    ``placing`` is called right before the file is put in its place (a command holding its stop signals
    from there: a Ctrl-C landing as the rename ends is raised after it, and was said of a file not written).
    """
    mode = existing_mode(target)
    temporary: str | None = None
    out: IO[str] | None = None
    try:
        with _interrupts_held():  # a Ctrl-C or SIGTERM between making the file and knowing its name left it there
            handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=_PART, dir=target.parent or ".")
            out = os.fdopen(handle, "w", encoding="utf-8", newline="\n")
        if mode is not None:
            os.fchmod(out.fileno(), mode)  # mkstemp makes it 0600; the user chose the file's mode
        with out:
            yield out
            out.flush()
            os.fsync(out.fileno())
            if placing is not None:
                placing()
        os.replace(temporary, target)
    except BaseException:
        if out is not None:
            out.close()
        if temporary is not None:
            try:
                os.unlink(temporary)
            except OSError:
                pass  # already gone; the error that matters is the one being raised
        raise


_INTERRUPTS = (signal.SIGINT, signal.SIGTERM)


@contextmanager
def _interrupts_held() -> Iterator[None]:
    """Within the block a Ctrl-C or SIGTERM is noted, and delivered (to the handler there before) as the
    block ends, where the caller can clean up what the block made. Python runs signal handlers only in
    the main thread (a mask would not do: the process's other threads take a signal the main thread
    masks, and Python then runs its handler in the main thread all the same); elsewhere the block runs
    as it is, as no handler can interrupt it there."""
    before = {number: signal.getsignal(number) for number in _INTERRUPTS}
    if threading.current_thread() is not threading.main_thread() or None in before.values():
        yield  # (a handler not set from Python could not be put back)
        return
    heard: list[int] = []
    previous = {number: signal.signal(number, lambda number, _frame: heard.append(number)) for number in _INTERRUPTS}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
        if heard:
            signal.raise_signal(heard[0])  # as it would have come: ignored, Ctrl-C, the command's SIGTERM



def _run_fields(run: RunToWrite) -> dict[str, object]:
    fields: dict[str, object] = {
        "uid": run.uid, "title": redact_text(run.title), "source": run.source,
        "server": redact_text(run.server) if run.server is not None else None, "status": run.status,
        "started_at": format_time(run.started_at), "finished_at": format_time(run.finished_at)}
    if run.note:  # written only when there is one: files of runs without notes stay as they were
        fields["note"] = redact_text(run.note)
    return fields


def write_trace(out: IO[str], steps_of: StepsOf, runs: list[RunToWrite], meter: ProgressMeter) -> int:
    """Write ``runs`` in our trace format; return the number of steps written."""
    exported_at = format_time(datetime.now(timezone.utc))
    out.write(f'{{"format": "{FORMAT_NAME}", "version": {FORMAT_VERSION}, "exported_at": "{exported_at}",\n'
              ' "runs": [')
    count = 0
    for index, run in enumerate(runs):
        fields = dump_json(_run_fields(run))
        out.write(f'{"," if index else ""}\n  {fields[:-1]}, "steps": [')
        for position, stored in enumerate(steps_of(run)):
            record = {"sequence": stored.sequence, "started_at": format_time(stored.started_at),
                      "payload": redact(stored.payload)}
            out.write(f'{"," if position else ""}\n    {dump_json(record)}')
            count += 1
            meter.advance()
        out.write("\n  ]}")
    out.write("\n]}\n")
    return count


def write_otlp(out: IO[str], steps_of: StepsOf, runs: list[RunToWrite], meter: ProgressMeter) -> int:
    """Write ``runs`` as OTLP JSON (one TracesData object); return the number of steps written.

    Our own runs are spans of ours under the run-inspector resource; a run imported from another
    tool's trace is written back as the spans it was read from, under their own resources and
    scopes (:mod:`.foreign_spans`)."""
    ours = [run for run in runs if not is_foreign_run(run.uid, run.source)]
    foreign = [run for run in runs if is_foreign_run(run.uid, run.source)]
    out.write('{"resourceSpans": [')
    count = 0
    with SpanGroups() as groups:
        if ours or not foreign:
            count += _write_our_runs(out, steps_of, ours, meter, groups)
        for run in foreign:
            groups.next_run()
            count += _gather_foreign_run(groups, steps_of, run, meter)
        groups.write(out, first=not (ours or not foreign))
    out.write("]}\n")
    return count


def _write_our_runs(out: IO[str], steps_of: StepsOf, runs: list[RunToWrite], meter: ProgressMeter,
                    groups: SpanGroups) -> int:
    """Our runs as spans of ours; a step made of another tool's span (a server's span that joined the
    run's trace) goes to ``groups`` as the span it was read from."""
    scope = {"name": otlp.SCOPE_NAME, "version": str(FORMAT_VERSION)}
    out.write(f'{{"resource": {dump_json(otlp.resource())}, '
              f'"scopeSpans": [{{"scope": {dump_json(scope)}, "spans": [')
    separator, count = "\n", 0
    for run in runs:
        groups.next_run()
        own_last = 0
        fields = _run_fields(run)
        out.write(separator + dump_json(otlp.run_span(
            run.uid, fields["title"], run.source, fields["server"], run.status, run.started_at, run.finished_at,
            str(fields.get("note", "")))))
        separator = ",\n"
        for stored in steps_of(run):
            if is_joined_step(stored.payload):
                for piece in spans_of_step(run.uid, stored.sequence, stored.started_at, redact(stored.payload)):
                    groups.add(piece)
                count += 1
                meter.advance()
                continue
            own_last = max(own_last, stored.sequence)
            for span in otlp.step_spans(run.uid, stored.sequence, stored.started_at, run.started_at,
                                        redact(stored.payload), stored.outcome):
                out.write(separator + dump_json(span))
            count += 1
            meter.advance()
        groups.numbered_after(own_last)
    out.write("\n]}]}")
    return count


def _gather_foreign_run(groups: SpanGroups, steps_of: StepsOf, run: RunToWrite, meter: ProgressMeter) -> int:
    """Put the spans of a foreign run's steps in their groups; return the number of steps."""
    counted = [0]

    def spans() -> Iterator[SpanOut]:
        for stored in steps_of(run):
            yield from spans_of_step(run.uid, stored.sequence, stored.started_at, redact(stored.payload))
            counted[0] += 1
            meter.advance()

    for piece in with_run_note(spans(), redact_text(run.note) if run.note else ""):
        groups.add(piece)
    return counted[0]
