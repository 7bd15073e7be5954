"""Redaction's time against the text's length, on hostile shapes a stranger's trace may hold.

Everything imported or exported goes through ``redact_text``; a pass that reads the text again from many
places takes time growing with the square of its length, and a 1 MB attribute would then freeze an import
for minutes. Each shape (one repeated piece, plus a tail that wakes every pass up) is redacted at 10,000,
30,000, 100,000, 300,000 and 1,000,000 characters, each in a child process of its own cut off after
``--limit`` seconds (a shape's curve stops at the first length that takes longer). Reported: the seconds
at each length and the ratio of the last two (about 3.3 for linear time, 10 for quadratic).

Target: 1,000,000 characters of every shape within 5 s. A shape beginning ``stdio:`` is a command server's key:
also kept as an import keeps a run's server (``address_to_keep``).

``--code DIR`` times another checkout's code (``git archive main | tar -x -C /tmp/before``): before/after.

    .venv/bin/python benchmarks/redaction_curve.py [--limit S] [--only SHAPE …] [--code DIR]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
from _common import table, verdict, write_result  # noqa: E402

LENGTHS = (10_000, 30_000, 100_000, 300_000, 1_000_000)
TARGET_S = 5.0
#: Wakes every pass up (each runs only where the text holds what it cannot match without).
TAIL = (" ://@ bearer basic mysql -u -- </ [ ' \" = : %3 -----BEGIN eyJ sk- ghp_ xox AKIA k_"
        " hooks.slack.com/services/")
#: Each shape, and the pass it once made slow (or a neighbour's shape that could).
SHAPES = {
    "http://a:b@h/x=": "assignments", "ab=": "assignments", "?token=": "assignments", "http://a@": "assignments",
    "-": "assignments (names)", '\\"ab\\":': "assignments (quoted)", "token='x": "assignments (values)",
    "token=a,": "assignments (commas)",
    "mysql ": "mysql -p", "-u.": "-u user:pw", "-u=": "-u user:pw", "a.b": "address scheme", "sk-": "address scheme",
    "x://a:b": "address user info", "x://a:b/@/": "address tail", "eyJ-": "token shapes", "Bearer ": "bearer",
    "Basic ": "basic", "ab: x\r": "header lines", "&a=": "URL parameters", "--ab ": "--option value",
    "<a b": "XML elements", '["ab", "': "name/value pairs", '"name":"ab","value":\'': "name/value pairs",
    "-----BEGIN A ": "private keys", "a": "plain text",
    "--password=a,": "--option=value", '"--token=a,': "--option=value (quoted)", ', "--api-key", "': "argv in text",
    "'http://a:b ": "address with a spaced password", "http://a:b@c?@": "address tail",
    "stdio:sh -c 'srv --token T a ": "a command server's key (a shell's script)",
    "stdio:srv --api-key=K -u a:b ": "a command server's key (its words)",
}

CHILD = r"""
import sys, time
from inspector.mcp.address_query import address_to_keep
from inspector.traces import redact_text
shape, length, tail = sys.argv[1], int(sys.argv[2]), sys.argv[3]
text = (shape * (length // len(shape) + 1))[:length] + tail
began = time.perf_counter()
redact_text(text)
if text.startswith("stdio:"):  # a server's key in a stranger's file: also kept as a run's server
    address_to_keep(text)
print(time.perf_counter() - began)
"""


def timed(code: Path, shape: str, length: int, limit: float) -> float | None:
    """Seconds to redact ``length`` characters of ``shape``, or ``None`` past ``limit``."""
    env = {**os.environ, "PYTHONPATH": str(code)}
    try:
        done = subprocess.run([sys.executable, "-c", CHILD, shape, str(length), TAIL], env=env, cwd=code,
                              capture_output=True, text=True, timeout=limit + 5, check=True)
    except subprocess.TimeoutExpired:
        return None
    seconds = float(done.stdout.strip())
    return seconds if seconds <= limit else None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=float, default=10.0, help="seconds a length may take (default 10)")
    parser.add_argument("--only", nargs="*", default=None, help="these shapes only")
    parser.add_argument("--code", type=Path, default=ROOT, help="the checkout whose code is timed")
    args = parser.parse_args()
    rows, results, met = [], {}, True
    for shape, what in SHAPES.items():
        if args.only and shape not in args.only:
            continue
        curve: list[float | None] = []
        for length in LENGTHS:
            curve.append(timed(args.code, shape, length, args.limit))
            if curve[-1] is None:
                break
        curve += [None] * (len(LENGTHS) - len(curve))
        done = [seconds for seconds in curve if seconds is not None]
        ratio = done[-1] / done[-2] if len(done) >= 2 and done[-2] > 0 else None
        ok = curve[-1] is not None and curve[-1] <= TARGET_S
        met = met and ok
        results[shape] = {"pass": what, "seconds": dict(zip(map(str, LENGTHS), curve, strict=True)), "ok": ok}
        rows.append([repr(shape), what, *(f"{s:.3f}" if s is not None else f">{args.limit:g}" for s in curve),
                     f"{ratio:.1f}" if ratio else "-", verdict(ok)])
    print(table(["shape", "pass", *(f"{n:,}" for n in LENGTHS), "last ratio", "1 MB < 5 s"], rows, left=(0, 1)))
    write_result("redaction_curve", {"target_s": TARGET_S, "limit_s": args.limit, "code": str(args.code),
                                     "shapes": results, "met": met})
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
