"""The pictures of a tool's answer, kept apart from its text: which blocks, how many, how long."""

from __future__ import annotations

from inspector.agent.operations import MAX_STORED_IMAGE_CHARS, image_artifacts, tool_result_for
from inspector.mcp import ServerEndpoint, ToolCallResult
from inspector.mcp.images import MAX_IMAGE_CHARS, MAX_IMAGES, ImagePart, image_parts
from inspector.runs import ToolOutcome


def test_images_and_embedded_image_blobs_are_kept_links_and_other_blobs_are_not() -> None:
    blocks = [
        {"type": "text", "text": "a chart"},
        {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"},
        {"type": "resource_link", "uri": "http://127.0.0.1:9/chart.png", "name": "chart", "mimeType": "image/png"},
        {"type": "resource", "resource": {"uri": "file:///tmp/logo.jpg", "mimeType": "Image/JPEG", "blob": "/9j/"}},
        {"type": "resource", "resource": {"uri": "file:///tmp/a.bin", "mimeType": "application/zip", "blob": "UEs="}},
        {"type": "resource", "resource": {"uri": "file:///tmp/a.svg", "mimeType": "image/svg+xml", "text": "<svg/>"}},
        {"type": "image", "data": 42, "mimeType": None},
        "not a block",
    ]
    parts, more = image_parts(blocks)
    assert parts == (ImagePart(1, "", "image/png", "iVBORw0KGgo=", 12),
                     ImagePart(3, "file:///tmp/logo.jpg", "Image/JPEG", "/9j/", 4),
                     ImagePart(6, "", "", None, 0))
    assert more == 0
    result = ToolCallResult.from_result("chart", {"content": blocks})
    assert result.images == parts and result.images_left_out == 0
    # The text is as before: the pictures are named there, never turned into text.
    assert result.content.startswith("[7 blocks are not shown as text:")


def test_too_long_a_text_is_not_kept_and_too_many_pictures_are_counted() -> None:
    long = "A" * (MAX_IMAGE_CHARS + 4)
    parts, more = image_parts([{"type": "image", "data": long, "mimeType": "image/png"}])
    assert parts == (ImagePart(0, "", "image/png", None, len(long)),) and more == 0
    parts, more = image_parts([{"type": "image", "data": "AAAA", "mimeType": "image/png"}] * (MAX_IMAGES + 3))
    assert len(parts) == MAX_IMAGES and more == 3
    assert image_parts(None) == ((), 0)


def test_a_stored_step_keeps_drawable_pictures_as_artifacts_within_its_bound() -> None:
    half = "A" * (MAX_STORED_IMAGE_CHARS // 2)
    images = [ImagePart(0, "", "image/png", "iVBORw0KGgo=", 12),
              ImagePart(1, "", "image/svg+xml", "PHN2Zy8+", 8),  # not drawn, so not kept
              ImagePart(2, "file:///tmp/logo.jpg", "image/jpeg; q=1", "/9j/", 4),  # parameters: not a known type
              ImagePart(3, "", "IMAGE/JPEG", half, len(half)),
              ImagePart(4, "", "image/webp", half, len(half)),  # no room left beside the others
              ImagePart(5, "", "image/gif", None, 20_000_000),
              ImagePart(6, "", "image/gif", "R0lG", 4)]
    kept = image_artifacts(images)
    assert [(artifact.name, artifact.media_type) for artifact in kept] == [
        ("image-1.png", "image/png"), ("image-4.jpg", "image/jpeg"), ("image-7.gif", "image/gif")]
    assert sum(len(artifact.data) for artifact in kept) <= MAX_STORED_IMAGE_CHARS


def test_an_answer_stores_its_picture_a_tool_error_does_not() -> None:
    blocks = {"content": [{"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"}]}
    server = ServerEndpoint("http://127.0.0.1:9/mcp")
    ok = tool_result_for("chart", server, ToolCallResult.from_result("chart", blocks), None)
    assert [artifact.to_dict() for artifact in ok.artifacts] == [
        {"name": "image-1.png", "mediaType": "image/png", "data": "iVBORw0KGgo="}]
    failed = tool_result_for("chart", server, ToolCallResult.from_result("chart", {**blocks, "isError": True}), None)
    assert failed.outcome is ToolOutcome.FAILED and failed.artifacts == ()
