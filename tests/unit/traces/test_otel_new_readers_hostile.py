"""A stranger's trace with OpenLIT's, Respan's and Splunk's attributes but odd values imports without a traceback,
quickly, and loses nothing: every span a step, an answer not understood kept as written. Real imports into a real
SQLite file."""

from __future__ import annotations

import ast
import json
import time
import warnings
from pathlib import Path
from typing import Any

from hypothesis import example, given
from hypothesis import strategies as st

from inspector.mcp.text import repair_string
from inspector.store import RunStore
from inspector.store.recovery import run_reason
from inspector.traces.python_text import python_string
from inspector.transfer.importing import import_trace

OPENLIT = "openlit.instrumentation.mcp"


def _value(value: Any) -> dict[str, Any]:
    if isinstance(value, dict):
        return value  # an OTLP AnyValue written as it is (an odd type)
    return {"stringValue": value}


def span(number: int, name: str, attributes: dict[str, Any], parent: int | None = None,
         status: int = 0) -> dict[str, Any]:
    start = 1_700_000_000_000_000_000 + number * 1_000_000
    return {"traceId": "ab" * 16, "spanId": f"{number:016x}", "parentSpanId": f"{parent:016x}" if parent else "",
            "name": name, "kind": 3, "startTimeUnixNano": str(start), "endTimeUnixNano": str(start + 500_000),
            "status": {"code": status},
            "attributes": [{"key": key, "value": _value(value)} for key, value in attributes.items()]}


def imported(tmp_path: Path, spans: list[dict[str, Any]], scope: str = OPENLIT) -> tuple[RunStore, int, list[Any]]:
    """The spans as one OTLP JSON line, imported (warnings as errors: none may reach the user's terminal)."""
    document = {"resourceSpans": [{"resource": {"attributes": [{"key": "service.name", "value": _value("agent")}]},
                                   "scopeSpans": [{"scope": {"name": scope}, "spans": spans}]}]}
    path = tmp_path / "stranger.jsonl"
    path.write_text(json.dumps(document) + "\n", encoding="utf-8")
    store = RunStore.open(tmp_path / "runs.db")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        (run_id,) = import_trace(store, path).run_ids
    return store, run_id, list(store.iter_steps(run_id))


def call(number: int, answer: Any, **more: Any) -> dict[str, Any]:
    """OpenLIT's ``mcp tools/call`` span answering ``answer`` (its ``mcp.response.payload``: a text as it is, any
    other value as its JSON; ``more`` may give it as an OTLP value of another type)."""
    return span(number, "mcp tools/call", {"mcp.operation.name": "tools_call", "mcp.system": "mcp",
                                           "mcp.response.payload": answer if isinstance(answer, str)
                                           else json.dumps(answer), **more})


def block(text_repr: str) -> str:
    return f"type='text' text={text_repr} annotations=None meta=None"


@given(st.text())
def test_a_text_block_s_repr_reads_back_as_its_text_a_lone_surrogate_as_u_fffd(text: str) -> None:
    assert python_string(repr(text)) == repair_string(text)


_PIECES = ["\\", "n", "t", "x", "4", "1", "7", "N", "{", "}", "DEGREE SIGN", "u", "U", "0", "q", "€", "\n", "a", "d8"]


@example("\\444")  # an octal escape past \\377: the unicode_escape codec warns (DeprecationWarning), Python reads it
@example("\\4444\\18\\3777")
@given(st.lists(st.sampled_from(_PIECES), max_size=24).map("".join))
def test_a_literal_of_escapes_reads_as_python_reads_it(body: str) -> None:
    """Escapes of every kind, cut short, unknown, beside characters beyond Latin-1: as ``ast.literal_eval`` reads
    them where it does (a lone surrogate as U+FFFD), never a warning."""
    literal = f"'{body}'"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            expected = ast.literal_eval(literal)
        except (SyntaxError, ValueError):
            return  # no literal to Python (an escape cut short, the closing quote escaped)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert python_string(literal) == repair_string(expected)


def test_reprs_with_quotes_at_their_edges_unknown_escapes_and_surrogates_import_as_their_text(tmp_path: Path) -> None:
    """``ast.literal_eval`` read these before: ``'\\ud800'`` spelled a lone surrogate and storing the step failed
    (UnicodeEncodeError, nothing imported); ``'C:\\q'`` made the compiler warn on the user's terminal (here, with
    warnings as errors, the block stayed its whole repr)."""
    texts = ["it's", "'", '"', "'\"", "ends with \\", "", "C:\\q\\d", "\ud800 lone", "\\N{NO SUCH NAME}"]
    reprs = [repr(text) for text in texts[:6]] + ["'C:\\q\\d'", "'\\ud800 lone'", "'\\N{NO SUCH NAME}'"]
    answer = {"content": [block(text) for text in reprs], "isError": False}
    store, _run_id, steps = imported(tmp_path, [call(1, answer)])
    with store:
        (step,) = steps
        assert step.outcome == "ok"
        assert step.payload["toolResult"].split("\n") == texts[:7] + ["\ufffd lone", "\\N{NO SUCH NAME}"]


def test_an_answer_that_is_no_content_list_is_kept_as_written(tmp_path: Path) -> None:
    """A content list with an item of no known kind, or none at all (a tool that answered nothing, as the server's
    ``(content, structured)`` pair): the step said "no outcome recorded" and showed no answer."""
    answers = [{"content": [None, 5, block("'x'")], "isError": False}, [[], None], {"content": [], "isError": True}]
    store, _run_id, steps = imported(tmp_path, [call(number, answer) for number, answer in enumerate(answers, 1)])
    with store:
        said = [step.payload["toolResult"].split("\n")[-1] for step in steps]
        assert said == [json.dumps(answer) for answer in answers]
        assert [step.outcome for step in steps] == ["ok", "ok", "failed"]


def test_odd_types_deep_nesting_and_huge_answers_import_quickly_and_every_span_is_a_step(tmp_path: Path) -> None:
    many = {"content": [block("'x\\n\\'y'")] * 17_000, "isError": False}  # just under the 1,000,000 parsed
    spans = [
        call(1, many),
        call(2, "{" + "x" * 4_000_000),  # too long to parse: kept as it is
        call(3, "[" * 100_000 + "]" * 100_000, **{"mcp.request.payload": "{\"params\": " * 50_000}),
        span(4, "mcp tools/call", {"mcp.operation.name": {"intValue": "7"}, "mcp.system": "mcp"}),
        call(5, "", **{"mcp.response.payload": {"intValue": "3"},
                       "mcp.tool.name": {"arrayValue": {"values": [_value("a")]}},
                       "mcp.request.payload": {"kvlistValue": {"values": []}}, "mcp.server.name": {"boolValue": True}}),
        call(6, {"content": "not a list", "is_error": "yes"},
             **{"mcp.request.payload": json.dumps({"params": {"args": [{"x": 1}, "not arguments", 3]}})}),
        span(7, "mcp.tool.lookup", {"respan.entity.log_type": "tool", "traceloop.entity.input": "[[[",
                                    "traceloop.entity.output": json.dumps({"content": [{"type": "text", "text": 5}],
                                                                           "isError": True})}),
        span(8, "mcp.tool.x", {"respan.entity.log_type": {"arrayValue": {"values": [_value("tool")]}}}),
        span(9, "tools/call t", {"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "t",
                                 "gen_ai.tool.call.result": json.dumps({"content": [{"type": "text", "text": "\ud800"}],
                                                                        "structured_content": {"a": [1]},
                                                                        "is_error": True, "data": "d" * 100_000})}),
    ]
    started = time.perf_counter()
    store, run_id, steps = imported(tmp_path, spans)
    took = time.perf_counter() - started
    with store:
        assert took < 30, took  # about 1 s on a loaded machine
        assert len(steps) == len(spans)
        by_span = {step.payload["raw"]["otlp"]["spanId"]: step for step in steps}
        first = by_span[f"{1:016x}"].payload
        assert first["toolResult"] == "\n".join(["x\n'y"] * 17_000) and first["contentBlocksDropped"] == 16_900
        assert by_span[f"{2:016x}"].payload["toolResult"] == "{" + "x" * 4_000_000
        assert by_span[f"{3:016x}"].payload["toolResult"].startswith("[" * 1000)
        assert by_span[f"{4:016x}"].payload["kind"] == "request"  # no OpenLIT operation: not read as one
        assert by_span[f"{6:016x}"].payload["toolResult"] == json.dumps({"content": "not a list", "is_error": "yes"})
        # Respan's answer with isError, its content no block list: failed (it read ok), the answer as written
        assert by_span[f"{7:016x}"].outcome == "failed"
        ninth = by_span[f"{9:016x}"]
        assert (ninth.outcome, ninth.payload["toolResult"].split("\n")[-1]) == ("failed", "\ufffd")
        assert run_reason(store, store.get_run(run_id)) is not None


def test_plumbing_that_goes_round_ends_and_the_call_under_it_is_counted_once(tmp_path: Path) -> None:
    plumbing = {"mcp.operation.name": "transport_request", "mcp.system": "mcp"}
    spans = [span(1, "mcp transport/request", plumbing, parent=2), span(2, "mcp transport/request", plumbing, parent=1),
             span(3, "MCP send tools/call lookup", {"mcp.method.name": "tools/call", "gen_ai.tool.name": "lookup"},
                  parent=1, status=2),
             call(4, {"content": [block("'ok'")]}, **{"mcp.client.operation.duration": {"doubleValue": 0.1}})]
    store, run_id, steps = imported(tmp_path, spans)
    with store:
        assert len(steps) == 4
        reason = run_reason(store, store.get_run(run_id))
        assert reason is not None and reason.said()[:2] == (1, 2)


def test_calls_under_a_chain_of_thousands_of_plumbing_spans_import_and_count_in_linear_time(tmp_path: Path) -> None:
    """6,000 calls under the deepest of 6,000 plumbing spans (OpenLIT's ``mcp transport/request``), one OpenLIT
    span over them all: each call walked the whole chain, in the import and in the run's reason (40 s and 12 s);
    each plumbing span now remembers where its walk ended (about 3 s in all on a loaded machine)."""
    plumbing = {"mcp.operation.name": "transport_request", "mcp.system": "mcp"}
    chain = 6_000
    spans = [span(1, "mcp tools/call", {"mcp.operation.name": "tools_call", "mcp.system": "mcp"})]
    spans += [span(1 + number, "mcp transport/request", plumbing, parent=number) for number in range(1, chain + 1)]
    spans += [span(10_000_000 + number, "MCP send tools/call lookup",
                   {"mcp.method.name": "tools/call", "gen_ai.tool.name": "lookup"}, parent=chain + 1,
                   status=2 if number % 2 else 0) for number in range(chain)]
    started = time.perf_counter()
    store, run_id, steps = imported(tmp_path, spans)
    with store:
        reason = run_reason(store, store.get_run(run_id))
        took = time.perf_counter() - started
        assert len(steps) == len(spans)
        assert reason is not None and reason.said()[:2] == (1, 1)  # one OpenLIT call over them, failed in one
        assert took < 20, took
