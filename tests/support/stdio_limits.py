"""A stdio "server" at the edges of the line: ``python -m tests.support.stdio_limits MODE [marker]``.

It answers ``initialize`` as a handshake server, ``tools/list`` with one tool (``echo``), and every
other request with ``{"echo": params}``, except where its mode says otherwise:

- ``big-first``: a request that is not the handshake gets a 20 MB answer, its ``id`` written before
  the result (as the Python SDK writes its messages);
- ``big-last``: the same, its ``id`` written after the result (as the TypeScript SDK does);
- ``big-note``: at such a request it first sends a 20 MB log notification, then answers normally;
- ``big-request``: at such a request it first sends a 20 MB request of its own with the same id as
  the client's request, then answers normally;
- ``half``: at such a request it writes the first half of its answer without ending the line,
  waits ``HALF_PAUSE_S``, then writes the whole answer on a line of its own;
- ``half-note``: the same, but what it breaks off is a notification (the answer that follows is whole);
- ``banner-glued``: at such a request it prints "Loading..." without a newline, then the answer;
- ``big-stderr``: at such a request it first writes a 20 MB line on stderr ("begins yyy…"), then a short
  one, then answers normally;
- ``lingers``: as the plain server, but it says "lingers PID" on stderr and, after the end of its
  stdin, lives on (a server that ignores EOF) until SIGTERM, which ends it at once;
- ``silent-probe``: the plain server, but it says nothing to ``server/discover``.

A ``marker`` word after the mode is ignored (tests find the process by it).
"""

from __future__ import annotations

import json
import os
import sys
import time

BIG = 20 * 1024 * 1024
HALF_PAUSE_S = 0.3


def write(text: str) -> None:
    sys.stdout.write(text)
    sys.stdout.flush()


def handshake(request: dict) -> dict:
    return {"protocolVersion": request["params"]["protocolVersion"], "capabilities": {"tools": {}},
            "serverInfo": {"name": "stdio limits", "version": "1"}}


def big_result() -> dict:
    return {"content": [{"type": "text", "text": "x" * BIG}], "isError": False}


def answer_line(request: dict) -> str:
    result = {"echo": request.get("params")}
    if request["method"] == "tools/list":
        result = {"tools": [{"name": "echo", "inputSchema": {"type": "object"}}]}
    return json.dumps({"jsonrpc": "2.0", "id": request["id"], "result": result}) + "\n"


def main(mode: str) -> None:
    if mode == "lingers":
        print(f"lingers {os.getpid()}", file=sys.stderr, flush=True)
    for line in sys.stdin:
        request = json.loads(line)
        if "id" not in request or "method" not in request:
            continue
        method = request["method"]
        if method == "initialize":
            write(json.dumps({"jsonrpc": "2.0", "id": request["id"], "result": handshake(request)}) + "\n")
            continue
        if method == "server/discover" and mode == "silent-probe":
            continue
        if mode == "big-first":
            write(json.dumps({"jsonrpc": "2.0", "id": request["id"], "result": big_result()}) + "\n")
            continue
        if mode == "big-last":
            write(json.dumps({"result": big_result(), "jsonrpc": "2.0", "id": request["id"]}) + "\n")
            continue
        if mode == "big-note":
            write(json.dumps({"jsonrpc": "2.0", "method": "notifications/message",
                              "params": {"level": "info", "data": "x" * BIG}}) + "\n")
        if mode == "big-stderr":
            sys.stderr.write("begins " + "y" * BIG + "\nafter the big line\n")
            sys.stderr.flush()
        if mode == "big-request":
            write(json.dumps({"jsonrpc": "2.0", "id": request["id"], "method": "sampling/createMessage",
                              "params": {"messages": [{"role": "user", "content": {"type": "text",
                                                                                    "text": "x" * BIG}}]}}) + "\n")
        whole = answer_line(request)
        if mode in ("half", "half-note"):
            broken = whole if mode == "half" else json.dumps(
                {"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": "hi"}})
            write(broken[:len(broken) // 2])
            time.sleep(HALF_PAUSE_S)
        if mode == "banner-glued":
            write("Loading...")
        write(whole)
    if mode == "lingers":
        time.sleep(3600)


if __name__ == "__main__":
    main(sys.argv[1])
