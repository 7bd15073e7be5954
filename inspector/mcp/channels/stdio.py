"""A server as a child process: its pipes, its stderr, its shutdown ladder.

One JSON-RPC message per line on stdin and stdout (UTF-8, no raw newline inside a message); stderr
is the server's log, drained all the time (a full pipe would block the server) and kept bounded.
Several operations share one process (:class:`~.multiplex.Multiplexer`: ids unique on the process,
answers routed back, a cancel named to the server at once); the process keeps running for the others.

The process starts in a session of its own, so that closing it reaches its whole tree (``npx``
starts a node process, which may start more): close stdin, wait, SIGTERM to the group, wait,
SIGKILL to the group. The spec names the order, not the times; the official SDK waits 2 s at each
step, and so does :meth:`StdioProcess.close` by default.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import shutil
import signal
from collections import deque
from collections.abc import Callable, Mapping
from typing import Any

from ..messages import N_, Message, Number, system_reason, whole
from ..sanitize import inside_a_sentence
from ..server_command import ServerCommand
from ..text import load_wire_json
from .line_faults import LineFault, megabytes, not_json, too_long
from .line_glimpse import EDGE_BYTES
from .multiplex import Multiplexer
from .pipe_lines import UNENDED_S, PipeLines, TooLong, Unended

#: Longest line read from the server's stdout (bigger messages are dropped, and said so; the
#: request a dropped message answers fails at once).
MAX_LINE_BYTES = 16 * 1024 * 1024
#: How many of the server's last stderr lines are kept, and how long each may be.
STDERR_LINES = 200
STDERR_LINE_CHARS = 2_000
#: The environment a server gets besides its own variables: what the official SDK passes on POSIX,
#: and how this machine reaches the network (a proxy, a company's certificate authority): without
#: them a first ``npx -y`` behind a proxy waits silently until the deadline instead of downloading.
BASE_ENVIRONMENT = ("HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER",
                    "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "http_proxy", "https_proxy", "no_proxy",
                    "NODE_EXTRA_CA_CERTS", "SSL_CERT_FILE", "SSL_CERT_DIR", "TMPDIR")
GRACE_S = 2.0
#: How long the end of stdout, the end of stderr and the exit of the process wait for each other
#: before the requests in flight are failed: a server that exits has its last answers and its last
#: words on stderr read first (a server failing at its start ends all three within moments, in any
#: order); a server that closed its stdout but runs on, or that exited while a child of it holds
#: the pipe, fails them at once.
SETTLE_S = 0.5


class ChannelError(Exception):
    """The process cannot be used; ``sentence`` says what happened (translatable)."""

    def __init__(self, sentence: Message) -> None:
        super().__init__(str(sentence))
        self.sentence = sentence


class ProcessExited(ChannelError):
    """The process ended while a request waited; ``status`` is its exit status (negative: the signal)."""

    def __init__(self, sentence: Message, status: int | None) -> None:
        super().__init__(sentence)
        self.status = status


def server_environment(command: ServerCommand, parent: Mapping[str, str] | None = None) -> dict[str, str]:
    """The base variables of ``parent`` (as the official SDK chooses, no API key of the user's shell
    leaks to a server by default; the network settings do reach it), then the command's own."""
    parent = os.environ if parent is None else parent
    base = {name: parent[name] for name in BASE_ENVIRONMENT if name in parent and not parent[name].startswith("()")}
    return base | dict(command.env)


class StdioProcess:
    """A running server process and the requests in flight on it."""

    def __init__(self, command: ServerCommand, process: _Watched,
                 on_message: Callable[[dict[str, Any]], None] | None,
                 on_stderr: Callable[[str], None] | None,
                 on_problem: Callable[[Message], None] | None) -> None:
        self.command = command
        self._process = process
        self._on_stderr = on_stderr
        self._on_problem = on_problem
        self._requests = Multiplexer(self._write, on_message)
        self._write_lock = asyncio.Lock()
        self.stderr_tail: deque[str] = deque(maxlen=STDERR_LINES)
        #: How many messages the server wrote on stdout so far (a wedged server writes none).
        self.heard = 0
        self._stdout_ended = asyncio.Event()
        self._stderr_ended = asyncio.Event()
        self._settle_by: float | None = None
        #: A write found the server's stdin closed (by its exit, or by the server itself).
        self._input_closed = False
        self._readers = [asyncio.create_task(self._read_stdout()), asyncio.create_task(self._read_stderr())]
        self._readers.append(asyncio.create_task(self._watch_exit(process.exited)))

    @classmethod
    async def start(cls, command: ServerCommand, *, on_message: Callable[[dict[str, Any]], None] | None = None,
                    on_stderr: Callable[[str], None] | None = None,
                    on_problem: Callable[[Message], None] | None = None) -> StdioProcess:
        """Start ``command``; a program that is missing or cannot run is named."""
        env = server_environment(command)
        try:
            process = await _start_watched(command.argv, env=env, cwd=command.cwd)
        except FileNotFoundError:
            if command.cwd is not None and not os.path.isdir(command.cwd):
                raise ChannelError(Message(N_("the folder {folder} to start the server in does not exist"),
                                           {"folder": command.cwd})) from None
            interpreter = _missing_interpreter(command, env)
            if interpreter is not None:
                raise ChannelError(Message(N_(
                    "the program '{program}' was found, but not the interpreter its first line names: {interpreter} "
                    "(a virtual environment moved or removed, or a runtime not installed)"),
                    {"program": command.program[:200], "interpreter": interpreter[:200]})) from None
            raise ChannelError(Message(N_("the program '{program}' was not found: check the command, or give "
                                          "its full path"), {"program": command.program[:200]})) from None
        except PermissionError:
            if os.sep in command.program and os.path.isdir(os.path.join(command.cwd or "", command.program)):
                raise ChannelError(Message(N_("the program '{program}' is a folder: give the program in it to start "
                                              "(a script or a binary), or the command that runs it"),
                                           {"program": command.program[:200]})) from None
            raise ChannelError(Message(N_("the program '{program}' cannot be run (permission denied)"),
                                       {"program": command.program[:200]})) from None
        except OSError as error:
            raise ChannelError(Message(N_("the program '{program}' cannot be started: {reason}"), {
                "program": command.program[:200], "reason": system_reason(error)})) from None
        return cls(command, process, on_message, on_stderr, on_problem)

    @property
    def pid(self) -> int:
        return self._process.pid

    @property
    def running(self) -> bool:
        """The process runs and its stdout is open (a closed stdout can carry no answer)."""
        return self._process.returncode is None and not self._stdout_ended.is_set()

    @property
    def exit_status(self) -> int | None:
        return self._process.returncode

    async def request(self, message: Mapping[str, Any]) -> dict[str, Any]:
        """Send a request (its ``id`` is replaced by one unique on this process) and return the
        answer (with the caller's id back). When the caller is cancelled, the server is told."""
        return await self._requests.request(message)

    async def send(self, message: Mapping[str, Any]) -> None:
        """Send a notification, or an answer to the server's own request."""
        await self._write(dict(message))

    async def _write(self, message: Mapping[str, Any]) -> None:
        if not self.running or self._process.stdin is None:
            await self._settled()
            raise self._exited()
        line = json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"
        async with self._write_lock:
            try:
                self._process.stdin.write(line)
                await self._process.stdin.drain()
            except (BrokenPipeError, ConnectionResetError):
                self._input_closed = True
                await self._settled()
                raise self._exited() from None

    async def _read_stdout(self) -> None:
        stream = self._process.stdout
        assert stream is not None
        lines = PipeLines(stream, MAX_LINE_BYTES)
        while True:
            line = await lines.next()
            if isinstance(line, TooLong):
                self.heard += 1
                self._fault(too_long(line, MAX_LINE_BYTES))
                continue
            if isinstance(line, Unended):
                self._problem(Message(N_("the server wrote {size} bytes on stdout without ending the line, and "
                                         "nothing more for {seconds} s: every message must end with a newline. "
                                         "It begins: {line}"), {
                    "size": Number(line.size, f"{line.size:,}"), "seconds": Number(UNENDED_S, f"{UNENDED_S:g}"),
                    "line": line.head.decode("utf-8", "replace").strip()}))
                continue
            assert isinstance(line, bytes)
            if not line:
                break
            if line.strip():
                self._dispatch(line)
        self._stdout_ended.set()
        # Usually the process is exiting: its status makes the better sentence, if it comes soon.
        await self._settled()
        self._requests.close(self._exited)

    async def _watch_exit(self, exited: asyncio.Event) -> None:
        """The process exited: its last answers are read (while stdout ends), then whatever is still
        in flight fails, also when a child of the server holds stdout open after it."""
        await exited.wait()
        await self._settled()
        self._requests.close(self._exited)

    async def _settled(self) -> None:
        """Wait until the process has exited and both its outputs have ended, or :data:`SETTLE_S`
        after the first wait began (whoever waits later waits no longer than that): the sentence
        about its end then has its status and its last words on stderr."""
        loop = asyncio.get_running_loop()
        if self._settle_by is None:
            self._settle_by = loop.time() + SETTLE_S
        ends = (self._process.exited, self._stdout_ended, self._stderr_ended)
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(asyncio.gather(*(end.wait() for end in ends)),
                                   max(0.0, self._settle_by - loop.time()))

    def _dispatch(self, line: bytes) -> None:
        self.heard += 1
        try:
            message = load_wire_json(line)
        except (ValueError, UnicodeDecodeError, RecursionError):
            # The most common server bug: a banner or a print on stdout. Not fatal.
            self._fault(not_json(line))
            return
        if not isinstance(message, dict):
            self._problem(Message(N_("the server wrote a JSON value on stdout that is not a message")))
            return
        self._requests.dispatch(message)

    def _fault(self, fault: LineFault) -> None:
        """A faulty line: said, what is whole in it read, and the request whose answer it was failed."""
        self._problem(fault.problem)
        if fault.message is not None:
            self._requests.dispatch(fault.message)
        if fault.error is not None and type(fault.lost) is int:
            self._requests.fail(fault.lost, fault.error)

    async def _read_stderr(self) -> None:
        stream = self._process.stderr
        assert stream is not None
        while True:
            raw = await _read_line(stream)
            cut = raw if isinstance(raw, TooLong) else None
            if cut is not None:
                raw = cut.head  # its beginning, as any long line is shown; the rest was read, not kept
            if not raw:
                self._stderr_ended.set()
                return
            text = raw.decode("utf-8", "replace").rstrip("\r\n")[:STDERR_LINE_CHARS]
            self.stderr_tail.append(text)
            if self._on_stderr is not None:
                self._on_stderr(text)
            if cut is not None:
                self._problem(Message(N_("the server wrote a line of {size} MB on stderr, over the {most} MB limit; "
                                         "only its first {shown} characters were kept"), {
                    "size": megabytes(cut.size), "most": whole(MAX_LINE_BYTES // 2**20),
                    "shown": Number(STDERR_LINE_CHARS, f"{STDERR_LINE_CHARS:,}")}))

    def _problem(self, sentence: Message) -> None:
        if self._on_problem is not None:
            self._on_problem(sentence)

    def _exited(self) -> ProcessExited:
        status = self._process.returncode
        last = inside_a_sentence("\n".join(list(self.stderr_tail)[-5:]))  # our sentences end with it
        if status is None and self._input_closed and not self._stdout_ended.is_set():
            sentence = Message(N_("the server process closed its stdin and runs on: no request can reach it"))
        elif status is None:
            sentence = Message(N_("the server process closed its output"))
        elif status < 0 and last:  # ended by a signal: asyncio gives minus its number, no exit status
            sentence = Message(N_("the server process was ended by signal {signal}; its last words on stderr: "
                                  "{stderr}"), {"signal": _signal_name(-status), "stderr": last})
        elif status < 0:
            sentence = Message(N_("the server process was ended by signal {signal}"), {"signal": _signal_name(-status)})
        elif last:
            sentence = Message(N_("the server process exited with status {status}; its last words on stderr: "
                                  "{stderr}"), {"status": status, "stderr": last})
        else:
            sentence = Message(N_("the server process exited with status {status}"), {"status": status})
        return ProcessExited(sentence, status)

    async def close(self, grace_s: float = GRACE_S) -> int | None:
        """Shut the process down in the spec's order, bounded (at most about 2 × ``grace_s``),
        and its whole process group with it. Returns the exit status."""
        process = self._process
        if process.stdin is not None and not process.stdin.is_closing():
            process.stdin.close()
        for ladder_signal in (None, signal.SIGTERM, signal.SIGKILL):
            if ladder_signal is not None:
                self._problem(_LINGERED[ladder_signal](grace_s))  # the wait the user just had, explained
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(process.pid, ladder_signal)
            # Its exit, not asyncio's wait(), which also waits for every pipe to close: a child of
            # the server in a session of its own may hold them for good.
            if ladder_signal is signal.SIGKILL:
                await process.exited.wait()
                break
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(process.exited.wait(), grace_s)
                break
        # The server is gone; a grandchild it left in the group goes too (its end closes the pipes it held).
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self._stdout_ended.wait(), SETTLE_S)
        for reader in self._readers:
            reader.cancel()
        await asyncio.gather(*self._readers, return_exceptions=True)
        process.transport.close()  # our ends of the pipes, whoever still holds theirs
        return process.returncode


#: What the shutdown says before each signal: the server did not exit at the step before.
_LINGERED: dict[signal.Signals, Callable[[float], Message]] = {
    signal.SIGTERM: lambda grace_s: Message(N_(
        "the server process did not exit within {seconds} s of the end of its input (a server should exit when "
        "its stdin closes); it was sent SIGTERM"), {"seconds": Number(grace_s, f"{grace_s:g}", "s")}),
    signal.SIGKILL: lambda grace_s: Message(N_(
        "the server process did not exit within {seconds} s of SIGTERM; it was killed (SIGKILL)"),
        {"seconds": Number(grace_s, f"{grace_s:g}", "s")}),
}


class _Watched(asyncio.subprocess.Process):
    """A process whose exit is an event of its own: ``wait()`` also waits for every pipe to close,
    which a child of the server holding stdout may never do."""

    exited: asyncio.Event
    transport: asyncio.SubprocessTransport


class _ExitProtocol(asyncio.subprocess.SubprocessStreamProtocol):
    def __init__(self, limit: int, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__(limit=limit, loop=loop)
        self.exited = asyncio.Event()

    def process_exited(self) -> None:
        super().process_exited()
        self.exited.set()


async def _start_watched(argv: tuple[str, ...] | list[str], *, env: Mapping[str, str], cwd: str | None) -> _Watched:
    """``asyncio.create_subprocess_exec`` (pipes on all three, a session of its own), with the exit watched."""
    loop = asyncio.get_running_loop()
    protocols: list[_ExitProtocol] = []

    def protocol() -> _ExitProtocol:
        protocols.append(_ExitProtocol(MAX_LINE_BYTES, loop))
        return protocols[-1]

    transport, _ = await loop.subprocess_exec(
        protocol, *argv, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE, env=env, cwd=cwd, start_new_session=True)
    process = _Watched(transport, protocols[0], loop)
    process.exited = protocols[0].exited
    process.transport = transport
    return process


def _missing_interpreter(command: ServerCommand, env: Mapping[str, str]) -> str | None:
    """The interpreter a script's ``#!`` line names, when the script is there and that is not (the
    system then says "not found" of the script itself); a carriage return ending it (a file saved
    with Windows line endings) is part of the name for the system, and shown as ``\\r``."""
    if os.sep in command.program:
        path: str | None = os.path.join(command.cwd or "", command.program)
    else:
        path = shutil.which(command.program, path=env.get("PATH", os.defpath))
    if path is None or not os.path.isfile(path):
        return None
    try:
        with open(path, "rb") as script:
            first = script.readline(512)
    except OSError:
        return None
    named = re.match(rb"#![ \t]*([^ \t\n]+)", first)
    if named is None or os.path.exists(interpreter := os.fsdecode(named[1])):
        return None
    return interpreter.replace("\r", "\\r")


def _signal_name(number: int) -> str:
    """``SIGKILL (9)``: the name people know, and the number a shell shows (as 128 + it)."""
    try:
        return f"{signal.Signals(number).name} ({number})"
    except ValueError:
        return str(number)


async def _read_line(stream: asyncio.StreamReader) -> bytes | TooLong:
    """The next line (with its newline; empty at the end of the stream), or for a line longer than the
    stream's limit its size and its first :data:`~.line_glimpse.EDGE_BYTES` (:class:`~.pipe_lines.TooLong`,
    its ``tail`` left empty): it is read to its end, a limit's worth at a time, without being kept."""
    dropped: TooLong | None = None
    while True:
        try:
            line = await stream.readuntil(b"\n")
        except asyncio.IncompleteReadError as end:
            line = end.partial
            if dropped is None:
                return line
        except asyncio.LimitOverrunError as overrun:
            part = await stream.readexactly(overrun.consumed)  # a limit's worth at most: dropped
            head = dropped.head if dropped else part[:EDGE_BYTES]
            dropped = TooLong((dropped.size if dropped else 0) + len(part), head, b"")
            continue
        if dropped is None:
            return line
        return TooLong(dropped.size + len(line.rstrip(b"\r\n")), dropped.head, b"")


__all__ = ["BASE_ENVIRONMENT", "ChannelError", "ProcessExited", "StdioProcess", "server_environment"]
