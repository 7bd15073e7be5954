"""The operating system's reasons in words of ours: a German sentence carries no C library English."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from inspector.i18n import set_language
from inspector.i18n.messages import translate
from inspector.i18n.os_reasons import os_reason
from inspector.store import RunStore
from inspector.transfer import TraceDestinationError, TraceExportError, TraceImportError, export, import_trace


def _said(reason: object, language: str) -> str:
    set_language(language)
    try:
        return translate(reason)
    finally:
        set_language("en")


def test_the_common_reasons_are_ours_in_english_and_german() -> None:
    missing = os_reason(OSError(errno.ENOENT, os.strerror(errno.ENOENT)))
    assert str(missing) == "no such file or folder"
    assert _said(missing, "de") == "keine solche Datei und kein solcher Ordner"
    assert _said(os_reason(OSError(errno.EACCES, os.strerror(errno.EACCES))), "de") == "keine Berechtigung"
    # A reason of our own making is said in the language too; one we do not know stays the system's.
    ours = os_reason(OSError(errno.EISDIR, "it is a folder, not a file"))
    assert (str(ours), _said(ours, "de")) == ("it is a folder, not a file", "es ist ein Ordner, keine Datei")
    odd = os_reason(OSError(errno.EXDEV, os.strerror(errno.EXDEV)))
    assert str(odd) == os.strerror(errno.EXDEV) == _said(odd, "de")
    assert str(os_reason(OSError(errno.EINVAL, "a {brace} in it"))) == "a {brace} in it"
    assert os_reason(OSError("no number")) == "no number"


def test_an_export_and_an_import_say_the_reason_in_german(tmp_path: Path) -> None:
    with RunStore.open(tmp_path / "runs.db") as store:
        run_id = store.start_run("one", "live", None)
        store.finish_run(run_id, "ok")
        with pytest.raises((TraceDestinationError, TraceExportError)) as written:
            export(store, [run_id], None, tmp_path / "no-such-folder" / "out.json")
        with pytest.raises(TraceImportError) as read:
            import_trace(store, tmp_path / "missing.json")
    assert "(no such file or folder)" in str(written.value)
    assert "(keine solche Datei und kein solcher Ordner)" in _said(written.value, "de")
    assert "No such file" not in _said(read.value, "de")
    assert "(keine solche Datei und kein solcher Ordner)" in _said(read.value, "de")
