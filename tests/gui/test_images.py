"""Pictures in results: drawn in the result pane and in a stored step's detail (also an imported
trace's), decoded from the answer only, within bounds; hostile pictures give a sentence, not a crash."""

from __future__ import annotations

import base64
import http.server
import json
import struct
import threading
import time
import zlib
from pathlib import Path

import pytest
from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QSize
from PySide6.QtGui import QColor, QImage, QImageReader

from inspector.gui.runs.step_detail import StepDetail
from inspector.gui.widgets import image_decode as images
from inspector.gui.widgets.image_view import ImageStrip, ShownImage
from inspector.store import RunStore
from inspector.store.browse import step_in_full
from inspector.transfer import import_trace
from tests.gui.test_main_window import choose, finished


def png(width: int, height: int, rows: int | None = None) -> bytes:
    """A grey PNG; ``rows`` fewer than ``height`` makes a picture whose header promises more than it has."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    body = b"".join(b"\x00" + b"\x80" * width for _ in range(height if rows is None else rows))
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(body)) + chunk(b"IEND", b"")


def encoded(image: QImage, kind: str) -> bytes:
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    assert image.save(buffer, kind)
    return bytes(data)


def b64(raw: bytes) -> str:
    return base64.b64encode(raw).decode("ascii")


def decoded_tiles(qtbot, strip: ImageStrip) -> list:
    qtbot.waitUntil(lambda: strip.tiles and all(tile.decoded is not None for tile in strip.tiles), timeout=10000)
    return strip.tiles


# -- the real demo server, the result pane and the stored step -----------------------------------

def test_the_demo_servers_picture_is_drawn_in_the_result_pane_and_in_the_stored_steps_detail(
        qtbot, make_window, demo_server) -> None:
    window = make_window((demo_server.url, "Demo server"))
    choose(window, "describe_image")
    outcome = finished(qtbot, window.workbench.run_current_tool())
    assert outcome.status == "ok"
    [tile] = decoded_tiles(qtbot, window.workbench.result.images)
    assert window.workbench.result.images.isVisibleTo(window)
    assert tile.picture.pixmap.size() == QSize(16, 8) and tile.picture.isVisibleTo(window)
    assert tile.caption.text() == "Image 1: 16 × 8 pixels, PNG"
    assert tile.full_size.isVisibleTo(window)
    # Full size: the picture decoded again, at its own size.
    tile.full_size.click()
    [dialog] = [child for child in window.findChildren(images.QObject) if type(child).__name__ == "FullSizeDialog"]
    qtbot.waitUntil(lambda: dialog.pending is None, timeout=10000)
    assert dialog.label.pixmap().size() == QSize(16, 8)
    dialog.close()
    # Another operation without pictures: the row of pictures goes away.
    choose(window, "echo")
    window.workbench.arguments.set_arguments({"text": "hi"})
    finished(qtbot, window.workbench.run_current_tool())
    assert window.workbench.result.images.isHidden() and not window.workbench.result.images.tiles

    # The stored step keeps the picture as an artifact, and its detail draws it.
    tab = window.runs_tab
    window.tabs.setCurrentWidget(tab)
    assert tab.select_runs([outcome.run_id])
    qtbot.waitUntil(lambda: tab.timeline.rowCount() > 0, timeout=10000)
    tab.select_step(tab.timeline.rowCount() - 1)
    qtbot.waitUntil(lambda: tab.detail.step is not None, timeout=5000)
    [stored] = tab.detail.step.images
    assert (stored.name, stored.media_type) == ("image-2.png", "image/png")
    [tile] = decoded_tiles(qtbot, tab.detail.images)
    assert tile.picture.pixmap.size() == QSize(16, 8)
    assert tab.detail.images.isVisibleTo(window)


def test_an_imported_traces_pictures_are_drawn_and_a_hostile_one_is_named(qtbot, tmp_path: Path) -> None:
    picture = QImage(40, 30, QImage.Format.Format_RGB32)
    picture.fill(QColor("#0072B2"))
    trace = {"format": "run-inspector-trace", "version": 1, "exported_at": "2026-11-30T12:00:00.000000Z",
             "runs": [{"uid": "pictures-1", "title": "call chart", "source": "live", "server": None, "status": "ok",
                       "started_at": "2026-11-30T08:00:00.000000Z", "finished_at": "2026-11-30T08:00:01.000000Z",
                       "steps": [{"sequence": 1, "started_at": "2026-11-30T08:00:00.500000Z", "payload": {
                           "kind": "tool", "round": 1, "durationMs": 12.5, "toolName": "chart",
                           "toolResult": "A chart.", "toolIsError": False, "toolOutcome": "ok",
                           "toolArtifacts": [
                               {"name": "chart.jpg", "mediaType": "image/jpeg", "data": b64(encoded(picture, "JPEG"))},
                               {"name": "notes.txt", "mediaType": "text/plain", "data": "not a picture"},
                               {"name": "logo.svg", "mediaType": "image/svg+xml",
                                "data": b64(b'<svg xmlns="http://www.w3.org/2000/svg"/>')},
                           ]}}]}]}
    path = tmp_path / "pictures.trace.json"
    path.write_text(json.dumps(trace), encoding="utf-8")
    with RunStore.open(tmp_path / "runs.db") as store:
        [run_id] = import_trace(store, path).run_ids
        [step] = list(store.iter_steps(run_id))
        full = step_in_full(store, step.id)
    assert [image.name for image in full.images] == ["chart.jpg", "logo.svg"]
    detail = StepDetail()
    qtbot.addWidget(detail)
    detail.show_step(full)
    first, second = decoded_tiles(qtbot, detail.images)
    assert first.picture.pixmap.size() == QSize(40, 30)
    assert first.caption.text() == "Image 1: 40 × 30 pixels, JPEG (chart.jpg)"
    assert second.decoded.image is None and second.picture.pixmap.isNull()
    assert second.caption.text() == ("Image 2 (image/svg+xml) is not drawn: an SVG image can load addresses and "
                                     "run scripts. (logo.svg)")
    # A new language says the same again, without decoding again.
    detail.show_step(full)
    assert detail.images.tiles == [first, second]
    # The Structured tab names the artifacts and says their data's length instead of showing it.
    structured = detail.structured.toPlainText()
    assert '"name": "chart.jpg"' in structured and "characters of data)" in structured
    assert full.images[0].data[:40] not in structured


@pytest.mark.parametrize("file_format", ["trace", "otlp"])
def test_a_stored_picture_survives_export_and_import(qtbot, tmp_path: Path, file_format: str) -> None:
    from inspector.runs import Artifact, RunTrace, ToolResult
    from inspector.transfer import export
    from tests.support.sample_runs import T0

    data = b64(png(30, 20))
    with RunStore.open(tmp_path / "source.db") as source:
        run_id = source.start_run("tools/call chart", "live", None, started_at=T0)
        step = RunTrace().record_tool_result(0, "chart", {}, ToolResult.text(
            "A chart.", [Artifact("image-1.png", "image/png", data)]), 5.0)
        source.append_steps(run_id, [(step, T0)])
        source.finish_run(run_id, "ok", T0)
        export(source, [run_id], None, tmp_path / "out.json", file_format)
    with RunStore.open(tmp_path / "copy.db") as copy:
        [imported] = import_trace(copy, tmp_path / "out.json").run_ids
        [stored] = list(copy.iter_steps(imported))
        [image] = step_in_full(copy, stored.id).images
    assert (image.name, image.media_type, image.data) == ("image-1.png", "image/png", data)


def test_a_strip_replaced_or_deleted_while_decoding_drops_the_late_pictures(qtbot) -> None:
    picture = QImage(3000, 3000, QImage.Format.Format_RGB32)
    picture.fill(QColor("#D55E00"))
    slow = b64(encoded(picture, "PNG"))  # a few hundred milliseconds to decode
    strip = ImageStrip()
    strip.show_images([ShownImage("", "image/png", slow, len(slow))] * 3)
    first = list(strip.tiles)
    strip.show_images([ShownImage("", "image/png", b64(png(5, 5)), 60)])
    [tile] = decoded_tiles(qtbot, strip)
    assert tile.picture.pixmap.size() == QSize(5, 5)
    strip.show_images([ShownImage("", "image/png", slow, len(slow))] * 2)
    strip.deleteLater()
    qtbot.waitUntil(lambda: not images._waiting, timeout=20000)  # every decode ran or was let go
    assert all(old.decoded is None for old in first)


# -- hostile pictures -------------------------------------------------------------------------------

BOMB = png(100_000, 100_000, rows=2)  # 10 billion pixels declared in a few hundred bytes


@pytest.mark.parametrize(("data", "mime", "problem"), [
    ("not base64 at all!", "image/png", images.BAD_BASE64),
    ("iVBORw0KGgo", "image/png", images.BAD_BASE64),  # padding missing
    ("", "image/png", images.BAD_BASE64),
    (b64(BOMB), "image/png", images.TOO_MANY_PIXELS),
    (b64(png(64, 64)[:60]), "image/png", images.DAMAGED),  # cut inside the picture's data
    (b64(png(64, 64)[:20]), "image/png", images.DAMAGED),  # cut inside its header
    (b64(b'<svg xmlns="http://www.w3.org/2000/svg"><image href="http://127.0.0.1:9/x.png"/></svg>'),
     "image/svg+xml", images.SVG),
    (b64(b'<svg xmlns="http://www.w3.org/2000/svg"/>'), "image/png", images.NOT_AN_IMAGE),
    (b64(b"BM" + b"\x00" * 60), "image/bmp", images.UNKNOWN_TYPE),
    (b64(png(4, 4)), "text/html", images.UNKNOWN_TYPE),
], ids=["bad-base64", "no-padding", "empty", "bomb", "truncated-data", "truncated-header", "svg", "svg-as-png",
        "bmp", "html"])
def test_a_hostile_picture_is_refused_quickly_with_a_reason(data: str, mime: str, problem: str) -> None:
    began = time.monotonic()
    result = images.decode(data, mime, len(data), QSize(320, 200))
    assert result.image is None and result.problem == problem
    assert time.monotonic() - began < 1.0


def test_the_bomb_is_refused_by_its_declared_size_before_a_pixel_is_decoded() -> None:
    result = images.decode(b64(BOMB), "image/png")
    assert (result.width, result.height) == (100_000, 100_000)
    # Qt's own backstop stays on: no single picture may take more than its default allocation.
    assert 0 < QImageReader.allocationLimit() <= 256


def test_a_text_longer_than_the_bound_is_not_even_decoded_from_base64() -> None:
    huge = "A" * (images.MAX_BASE64_CHARS + 4)
    began = time.monotonic()
    assert images.decode(huge, "image/png", len(huge)).problem == images.TOO_LARGE
    assert images.decode(None, "image/png", 50_000_000).problem == images.TOO_LARGE
    assert time.monotonic() - began < 0.5


def test_a_wrong_mime_type_is_said_but_the_picture_is_drawn_by_its_own_signature() -> None:
    picture = QImage(10, 6, QImage.Format.Format_RGB32)
    picture.fill(QColor("white"))
    result = images.decode(b64(encoded(picture, "JPEG")), "image/png")
    assert result.image is not None and result.image.size() == QSize(10, 6)
    assert (result.format, result.mismatch) == ("jpeg", "jpeg")


def test_gif_first_frame_webp_and_scaling_down() -> None:
    picture = QImage(1000, 500, QImage.Format.Format_RGB32)
    picture.fill(QColor("#009E73"))
    result = images.decode(b64(encoded(picture, "PNG")), "image/png", fit=QSize(320, 200))
    assert result.image.size() == QSize(320, 160) and (result.width, result.height) == (1000, 500)
    assert images.decode(b64(encoded(picture, "JPEG")), "image/jpeg", fit=QSize(320, 200)).image.size() == \
        QSize(320, 160)
    # A GIF of two frames (Qt writes no GIF; this is the classic 1 × 1 one with its frame twice).
    one = base64.b64decode("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7")
    frame = one[one.index(b"\x21\xf9"):-1]
    gif = images.decode(b64(one[:-1] + frame + b";"), "image/gif")
    assert gif.image is not None and gif.image.size() == QSize(1, 1) and gif.format == "gif"
    if b"webp" in [bytes(f.data()) for f in QImageReader.supportedImageFormats()]:
        webp = images.decode(b64(encoded(picture.scaled(20, 10), "WEBP")), "image/webp")
        assert webp.image is not None and webp.image.size() == QSize(20, 10)


def test_hostile_pictures_in_the_pane_are_sentences_and_nothing_is_fetched(qtbot) -> None:
    """Every picture is decoded from the answer only: a link, an address as data or an SVG that
    points somewhere never reaches the (counting) server on 127.0.0.1."""
    hits: list[str] = []

    class Counting(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - the standard library's name
            hits.append(self.path)
            self.send_response(200)
            self.send_header("Content-Type", "image/png")
            self.end_headers()
            self.wfile.write(png(4, 4))

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Counting)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    address = f"http://127.0.0.1:{server.server_address[1]}/picture.png"
    svg = f'<svg xmlns="http://www.w3.org/2000/svg"><image href="{address}"/></svg>'.encode()
    try:
        strip = ImageStrip()
        qtbot.addWidget(strip)
        strip.show_images([
            ShownImage("", "image/png", address, len(address)),
            ShownImage(address, "image/png", None, 0),
            ShownImage("", "image/svg+xml", b64(svg), len(b64(svg))),
            ShownImage("", "image/png", b64(svg), len(b64(svg))),
            ShownImage("", "image/png", b64(BOMB), len(b64(BOMB))),
            ShownImage("", "image/png", b64(png(64, 64)[:60]), 80),
            ShownImage("", "image/png", "A" * 20_000_000, 20_000_000),
        ], more=3)
        strip.show()
        tiles = decoded_tiles(qtbot, strip)
        captions = [tile.caption.text() for tile in tiles]
        assert captions == [
            "Image 1 is not drawn: its data is not valid base64.",
            f"Image 2 is not drawn: its data is not valid base64. ({address})",
            "Image 3 (image/svg+xml) is not drawn: an SVG image can load addresses and run scripts.",
            "Image 4 is not drawn: its data is not a PNG, JPEG, GIF or WebP image.",
            "Image 5 is not drawn: it says it is 100,000 × 100,000 pixels, more than the 40 million pixels "
            "allowed.",
            "Image 6 is not drawn: its data is damaged or cut short.",
            "Image 7 is not drawn: its data (15 MB) is larger than the 7.5 MB this window decodes.",
        ]
        assert all(tile.picture.isHidden() and tile.full_size.isHidden() for tile in tiles)
        assert strip.note.text() == "3 more images are not shown."
        from tests.gui.test_screenshots import save

        strip.resize(1200, strip.height())
        save(strip, "images-hostile-en")
        # A click on a picture that is not drawn opens nothing.
        tiles[0].open_full_size()
    finally:
        server.shutdown()
        thread.join(5)
    assert hits == []


# -- what it looks like -----------------------------------------------------------------------------

def test_screenshots_of_pictures_in_the_result_pane_and_the_step_detail_in_english_and_german(
        qtbot, make_window, demo_server) -> None:
    from inspector.gui.language import switch_language
    from tests.gui.test_screenshots import save

    window = make_window((demo_server.url, "Demo server"))
    window.resize(1280, 800)
    choose(window, "describe_image")
    outcome = finished(qtbot, window.workbench.run_current_tool())
    decoded_tiles(qtbot, window.workbench.result.images)
    tab = window.runs_tab
    try:
        for language in ("en", "de"):
            switch_language(language)
            window.tabs.setCurrentIndex(0)
            caption = window.workbench.result.images.tiles[0].caption.text()
            assert caption == {"en": "Image 1: 16 × 8 pixels, PNG", "de": "Bild 1: 16 × 8 Pixel, PNG"}[language]
            save(window.workbench.result, f"images-result-pane-{language}")
            save(window, f"images-window-{language}")
            window.tabs.setCurrentWidget(tab)
            assert tab.select_runs([outcome.run_id])
            qtbot.waitUntil(lambda: tab.timeline.rowCount() > 0, timeout=10000)
            tab.select_step(tab.timeline.rowCount() - 1)
            qtbot.waitUntil(lambda: tab.detail.images.tiles and tab.detail.images.tiles[0].decoded is not None,
                            timeout=10000)
            assert tab.detail.images.tiles[0].caption.text() == f"{caption} (image-2.png)"  # the artifact's name
            save(tab.detail, f"images-step-detail-{language}")
            save(window, f"images-runs-tab-{language}")
    finally:
        switch_language("en")
