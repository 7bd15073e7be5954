"""A stdio "server" that misbehaves on purpose: ``python -m tests.support.stdio_faults MODE``.

Modes: ``banner`` (a line that is not JSON, then answers), ``huge`` (a 20 MB line, then answers),
``exit`` (reads one request, says "boom" on stderr, exits with status 3), ``stubborn`` (ignores the
end of stdin and SIGTERM, and leaves a grandchild in its group), ``flood`` (200,000 stderr lines),
``mute`` (answers the handshake, then nothing), ``babble`` (answers the handshake, then text that
is not JSON to every request), ``stuck`` (says its pid on stderr, then never reads
or answers, and outlives the end of its stdin: a server stuck before its handshake, like ``npx``
still fetching a package), ``silent`` (reads every message and names its method on stderr, answers
none: not even ``initialize``), ``closeout`` (answers the handshake, then closes its stdout at the next
request and runs on), ``orphan`` (answers the handshake, then at the next request starts a child
that keeps stdout open, says its pid on stderr and exits with status 4), ``unended`` (answers the
handshake, then answers the next request without the newline that ends a message, and hangs),
``escaped`` (as ``stubborn``, but its child starts a session of its own: the group's end does not
reach it, and it keeps the server's stdout open), ``notnumbers`` (answers ``tools/call`` with structured
content holding NaN, the infinities and a number too big for a float, spelled as Python's JSON writes
them: not JSON, yet read by a lenient parser).
Answers echo the request's params as the result (``initialize`` gets a handshake's answer).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time


def answer(line: str) -> None:
    request = json.loads(line)
    if "id" in request and "method" in request:
        result = {"echo": request.get("params")}
        if request["method"] == "initialize":  # enough of a handshake for the client to go on
            result = {"protocolVersion": request["params"]["protocolVersion"], "capabilities": {},
                      "serverInfo": {"name": "stdio faults", "version": "1"}}
        print(json.dumps({"jsonrpc": "2.0", "id": request["id"], "result": result}), flush=True)


def main(mode: str) -> None:
    if mode == "banner":
        print("Server v1.0 ready!", flush=True)
    if mode == "huge":
        sys.stdout.write("x" * (20 * 1024 * 1024) + "\n")
        sys.stdout.flush()
    if mode == "flood":
        for number in range(200_000):
            print(f"log line {number}", file=sys.stderr)
        sys.stderr.flush()
    if mode == "stuck":
        print(f"stuck {os.getpid()}", file=sys.stderr, flush=True)
        time.sleep(3600)
    if mode in ("stubborn", "escaped"):
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)"],
                                 start_new_session=mode == "escaped")
        print(f"grandchild {child.pid}", file=sys.stderr, flush=True)
    for line in sys.stdin:
        if mode == "silent":
            print(f"heard {json.loads(line).get('method')}", file=sys.stderr, flush=True)
            continue
        if mode in ("closeout", "orphan") and json.loads(line).get("method") not in ("initialize", None) \
                and "id" in json.loads(line):
            if mode == "closeout":
                os.close(1)
                time.sleep(3600)
            child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)"])
            print(f"child {child.pid}", file=sys.stderr, flush=True)
            os._exit(4)
        if mode == "unended" and json.loads(line).get("method") != "initialize":
            sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": json.loads(line)["id"], "result": {}}))
            sys.stdout.flush()
            time.sleep(3600)
        if mode == "notnumbers" and json.loads(line).get("method") == "tools/call":
            structured = '{"ratio": NaN, "high": Infinity, "low": -Infinity, "huge": 1e999, "kept": [1.5]}'
            print(f'{{"jsonrpc": "2.0", "id": {json.loads(line)["id"]}, "result": {{"content": [], '
                  f'"structuredContent": {structured}}}}}', flush=True)
            continue
        if mode == "exit":
            print("boom", file=sys.stderr, flush=True)
            sys.exit(3)
        if mode in ("mute", "babble") and json.loads(line).get("method") != "initialize":
            if mode == "babble" and "id" in json.loads(line):
                print("working on it...", flush=True)  # text where its answer should be
            continue  # reads every request, answers none but the handshake
        answer(line)
    if mode in ("stubborn", "escaped"):
        time.sleep(3600)


if __name__ == "__main__":
    main(sys.argv[1])
