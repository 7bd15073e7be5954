"""Opening a trace by id from Jaeger and Tempo (inspector/capture/pull.py), against small fake
query services on 127.0.0.1 that serve the recorded OTLP JSON of tests/fixtures/otel/."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from inspector.capture.pull import PullError, cache_path, pull_trace
from inspector.store import RunStore
from inspector.transfer import import_trace
from tests.support.trace_backends import Route, as_old_tempo, fixture_trace, fixture_trace_ids, trace_backend

TRACE = fixture_trace_ids()[0]


@pytest.fixture
def store(tmp_path: Path):
    with RunStore.open(tmp_path / "runs.db") as opened:
        yield opened


def _reading(store: RunStore, run_ids) -> list[tuple[str, str, list[str]]]:  # type: ignore[no-untyped-def]
    """What the timeline shows of these runs: title, status, each step's outcome."""
    runs = [store.get_run(run_id) for run_id in run_ids]
    return sorted((run.title, run.status, [step.outcome for step in store.iter_steps(run.id)]) for run in runs)


@pytest.fixture
def imported_directly(tmp_path: Path) -> list[tuple[str, str, list[str]]]:
    """The same trace imported from a file: what a pull must read the same."""
    path = tmp_path / "direct.json"
    path.write_text(json.dumps(fixture_trace(TRACE)))
    with RunStore.open(tmp_path / "direct.db") as other:
        report = import_trace(other, path)
        return _reading(other, report.run_ids)


def test_a_jaeger_trace_opens_through_the_import_and_the_second_open_is_cached(
        store: RunStore, tmp_path: Path, imported_directly) -> None:  # type: ignore[no-untyped-def]
    with trace_backend() as jaeger:
        path = f"/api/v3/traces/{TRACE}"
        jaeger.serve_json(path, {"result": fixture_trace(TRACE)})
        first = pull_trace(store, "jaeger", jaeger.base + "/", TRACE.upper(), tmp_path / "cache")
        assert not first.cached and first.report.runs_imported >= 1
        assert _reading(store, first.report.run_ids) == imported_directly
        second = pull_trace(store, "jaeger", jaeger.base, TRACE, tmp_path / "cache")
        assert second.cached and second.report.runs_imported == 0
        assert second.report.runs_already_present == first.report.runs_imported
        assert jaeger.hits == {path: 1}
        assert jaeger.accept_seen == ["application/json"]


def test_a_streamed_jaeger_answer_one_result_per_line_is_one_trace(store: RunStore, tmp_path: Path,
                                                                    imported_directly) -> None:  # type: ignore[no-untyped-def]
    document = fixture_trace(TRACE)
    lines = [json.dumps({"result": {"resourceSpans": [item]}}) for item in document["resourceSpans"]]
    with trace_backend() as jaeger:
        jaeger.routes[f"/api/v3/traces/{TRACE}"] = Route(body="\n".join(lines).encode())
        pulled = pull_trace(store, "jaeger", jaeger.base, TRACE, tmp_path / "cache")
    assert _reading(store, pulled.report.run_ids) == imported_directly


@pytest.mark.parametrize("shape", ["old batches, base64 ids", "resourceSpans"])
def test_a_tempo_trace_reads_the_same_as_the_file(store: RunStore, tmp_path: Path, imported_directly,  # type: ignore[no-untyped-def]
                                                  shape: str) -> None:
    document = as_old_tempo(fixture_trace(TRACE)) if shape.startswith("old") else fixture_trace(TRACE)
    with trace_backend() as tempo:
        tempo.serve_json(f"/api/traces/{TRACE}", document)
        pulled = pull_trace(store, "tempo", tempo.base, TRACE, tmp_path / "cache")
    assert _reading(store, pulled.report.run_ids) == imported_directly


def _refused(store: RunStore, tmp_path: Path, route: Route, words: str, **options) -> None:  # type: ignore[no-untyped-def]
    with trace_backend() as jaeger:
        jaeger.routes[f"/api/v3/traces/{TRACE}"] = route
        with pytest.raises(PullError) as refused:
            pull_trace(store, "jaeger", jaeger.base, TRACE, tmp_path / "cache", **options)
    assert words in str(refused.value)
    assert "Nothing was imported" in str(refused.value) or "nothing was imported" in str(refused.value)
    assert store.list_runs() == []
    assert not cache_path(tmp_path / "cache", "jaeger", jaeger.base, TRACE).exists()


def test_garbage_is_refused_and_nothing_is_imported_or_cached(store: RunStore, tmp_path: Path) -> None:
    _refused(store, tmp_path, Route(body=b"<html>Jaeger UI</html>"), "not with an OpenTelemetry trace")


def test_json_that_is_no_trace_is_refused(store: RunStore, tmp_path: Path) -> None:
    _refused(store, tmp_path, Route(body=b'{"data": [], "total": 0}'), "neither 'resourceSpans' nor 'batches'")


@pytest.mark.parametrize("shape", ["jaeger", "old tempo"])
def test_an_answer_with_another_traces_spans_is_refused_and_not_kept_under_the_id_asked(
        store: RunStore, tmp_path: Path, shape: str) -> None:
    """A gateway or cache that mixed up its answers: the other trace was imported as "Opened trace <asked>",
    and kept under the asked id, so every later open of it read the wrong trace from the cache."""
    other = fixture_trace_ids()[1]
    document = fixture_trace(other)
    body = {"result": document} if shape == "jaeger" else as_old_tempo(document)  # old Tempo: base64 ids
    _refused(store, tmp_path, Route(body=json.dumps(body).encode()),
             f"answered with the spans of another trace ({other}), none of trace {TRACE}")


def test_spans_the_import_refuses_leave_the_database_and_the_cache_as_they_were(store: RunStore,
                                                                                 tmp_path: Path) -> None:
    document = fixture_trace(TRACE)
    document["resourceSpans"][0]["scopeSpans"][0]["spans"][0]["startTimeUnixNano"] = "yesterday"
    _refused(store, tmp_path, Route(body=json.dumps({"result": document}).encode()), "not a trace Run Inspector")


def test_a_404_says_there_is_no_such_trace(store: RunStore, tmp_path: Path) -> None:
    _refused(store, tmp_path, Route(404, b'{"error": {"httpCode": 404, "message": "trace not found"}}'),
             "There is no trace")


def test_a_redirect_is_not_followed(store: RunStore, tmp_path: Path) -> None:
    with trace_backend() as elsewhere:
        elsewhere.serve_json(f"/api/v3/traces/{TRACE}", {"result": fixture_trace(TRACE)})
        _refused(store, tmp_path, Route(302, headers={"Location": f"{elsewhere.base}/api/v3/traces/{TRACE}"}),
                 "which is not followed")
        assert elsewhere.hits == {}


@pytest.mark.parametrize("declared", [True, False], ids=["with Content-Length", "read to the end"])
def test_a_huge_answer_is_not_read_to_the_end(store: RunStore, tmp_path: Path, declared: bool) -> None:
    huge = b'{"result": {"resourceSpans": [' + b" " * (3 * 1024 * 1024) + b"]}}"
    _refused(store, tmp_path, Route(body=huge, declare_length=declared), "larger than 1 MB", limit=1024 * 1024)


@pytest.mark.parametrize(("packing", "pack"), [("gzip", bytes), ("deflate", gzip.compress),
                                              ("gzip, gzip", gzip.compress)])
def test_an_answer_not_packed_as_it_says_is_no_address_to_check(store: RunStore, tmp_path: Path, packing: str,
                                                                pack) -> None:  # type: ignore[no-untyped-def]
    # Before: "… cannot be reached: Error -3 while decompressing data: incorrect header check. Check the query
    # address." (zlib's English, and the address was right).
    answer = Route(body=pack(json.dumps({"result": fixture_trace(TRACE)}).encode()),
                   headers={"Content-Encoding": packing})
    _refused(store, tmp_path, answer, "answered, but its answer cannot be unpacked as its Content-Encoding header "
                                      "says")


def test_a_trace_id_that_is_none_asks_nothing(store: RunStore, tmp_path: Path) -> None:
    with trace_backend() as jaeger:
        for text in ("../../etc/passwd", "", "0" * 32, "g" * 32, "1" * 33):
            with pytest.raises(PullError, match="is not a trace id"):
                pull_trace(store, "jaeger", jaeger.base, text, tmp_path / "cache")
        assert jaeger.hits == {}


def test_an_unreachable_query_address_says_so(store: RunStore, tmp_path: Path) -> None:
    with trace_backend() as jaeger:
        base = jaeger.base
    with pytest.raises(PullError, match="cannot be reached") as caught:
        pull_trace(store, "jaeger", base, TRACE, tmp_path / "cache")
    # The address may come from the command line or the dialog: the sentence does not send the user to Settings.
    assert str(caught.value).endswith("Check the query address. Nothing was imported.")


def test_a_query_service_that_hangs_up_is_said_in_our_words(store: RunStore, tmp_path: Path) -> None:
    """httpx's "Server disconnected without sending a response." was the reason, in English only."""
    from inspector.i18n import set_language
    from inspector.i18n.messages import translate

    with trace_backend() as jaeger:
        jaeger.routes[f"/api/v3/traces/{TRACE}"] = Route(hang_up=True)
        with pytest.raises(PullError) as caught:
            pull_trace(store, "jaeger", jaeger.base, TRACE, tmp_path / "cache")
    assert "Server disconnected" not in str(caught.value)
    assert "cannot be reached: the query service closed the connection without an answer." in str(caught.value)
    set_language("de")
    try:
        assert "erreichbar: der Abfragedienst hat die Verbindung ohne Antwort geschlossen." in translate(caught.value)
    finally:
        set_language("en")


def test_an_answer_nested_too_deeply_is_refused_in_words(store: RunStore, tmp_path: Path) -> None:
    # Before: a RecursionError's traceback from the JSON reader, for 100,000 opening brackets.
    _refused(store, tmp_path, Route(body=b"[" * 100_000 + b"]" * 100_000), "nests too deeply")


def test_an_answer_of_millions_of_tiny_objects_is_refused_before_it_is_read(store: RunStore, tmp_path: Path) -> None:
    # 10 MB of "{}": 3.5 million objects, some 560 MB estimated (64 MB of them took 1.7 GB before).
    junk = b'{"result": {"resourceSpans": []}, "junk": [' + b"{}," * 3_500_000 + b"{}]}"
    _refused(store, tmp_path, Route(body=junk), "more objects than can be read at once")


def test_an_answer_of_millions_of_numbers_is_refused_before_it_is_read(store: RunStore, tmp_path: Path) -> None:
    # 48 MB of "1.5,": 12 million values, some 576 MB estimated as a receiver's body (before: read whole, 600 MB
    # and 10 s for import --from-tempo, then refused as a record over the import's limit).
    junk = b'{"result": {"resourceSpans": []}, "junk": [' + b"1.5," * 12_000_000 + b"0]}"
    _refused(store, tmp_path, Route(body=junk), "more objects than can be read at once")


def test_an_answer_sent_a_byte_at_a_time_is_not_waited_for_without_end(store: RunStore, tmp_path: Path) -> None:
    # Each byte comes well within the request timeout; before, only the 64 MB limit ended such an answer.
    slow = Route(body=json.dumps({"result": fixture_trace(TRACE)}).encode(), trickle_s=0.05)
    _refused(store, tmp_path, slow, "did not send its whole answer within 1 s", deadline_s=1.0)


def test_no_sentence_repeats_the_password_of_the_query_address(store: RunStore, tmp_path: Path) -> None:
    with trace_backend() as jaeger:
        jaeger.routes[f"/api/v3/traces/{TRACE}"] = Route(body=b"<html>Jaeger UI</html>")
        base = jaeger.base.replace("http://", "http://alice:pw-4c1e9a@")
        with pytest.raises(PullError) as refused:  # before: "http://alice:pw-4c1e9a@127.0.0.1:…/api/v3/… answered, …"
            pull_trace(store, "jaeger", base, TRACE, tmp_path / "cache")
    assert f"{jaeger.base}/api/v3/traces/{TRACE} answered" in str(refused.value)
    with pytest.raises(PullError) as unreachable:
        pull_trace(store, "jaeger", "http://alice:pw-4c1e9a@127.0.0.1:9", TRACE, tmp_path / "cache")
    for sentence in (refused.value, unreachable.value):
        assert "pw-4c1e9a" not in str(sentence)


def test_a_key_in_the_query_of_the_address_is_sent_with_the_trace_path_and_never_said(
        store: RunStore, tmp_path: Path) -> None:
    """``http://host:16686/?token=…`` (a gateway in front of the query service taking its key in the query): the
    trace's path went after the query (``/?token=…/api/v3/traces/…``, which no service answers) and every
    sentence repeated the key."""
    key = "tk-8d7c6b5a4f3e2d1c"
    with trace_backend() as jaeger:
        jaeger.serve_json(f"/api/v3/traces/{TRACE}?token={key}", {"result": fixture_trace(TRACE)})
        pulled = pull_trace(store, "jaeger", f"{jaeger.base}/?token={key}", TRACE, tmp_path / "cache")
        assert pulled.report.runs_imported >= 1
        jaeger.routes[f"/api/v3/traces/{TRACE}?token={key}"] = Route(401, b'{"error": "bad token"}')
        with pytest.raises(PullError) as refused:
            pull_trace(store, "jaeger", f"{jaeger.base}?token={key}", TRACE, tmp_path / "other-cache")
    assert jaeger.hits == {f"/api/v3/traces/{TRACE}?token={key}": 2}
    assert str(refused.value) == (f"{jaeger.base}/api/v3/traces/{TRACE} answered HTTP 401 instead of the trace. "
                                  "Nothing was imported.")
