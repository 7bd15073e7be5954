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


def test_the_mcp_clients_reasons_are_said_in_german_and_stay_english_for_machines(tmp_path: Path) -> None:
    # The MCP client may not import our translations: it hands the reason on with its errno, and the
    # display layer says it in the reader's language; str() (--json, stored text) stays the system's.
    import asyncio

    from inspector.mcp.channels.stdio import ChannelError, StdioProcess
    from inspector.mcp.server_command import ServerCommand
    from inspector.mcp.server_configs import ServerConfigError, read_server_config

    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("")
    with pytest.raises(ChannelError) as started:
        asyncio.run(StdioProcess.start(ServerCommand(str(not_a_folder / "server"))))
    assert str(started.value).endswith(f"cannot be started: {os.strerror(errno.ENOTDIR)}")
    assert _said(started.value, "de").endswith("kann nicht gestartet werden: ein Teil des Pfads ist kein Ordner")
    with pytest.raises(ServerConfigError) as read:
        read_server_config(tmp_path / "missing.json")
    assert str(read.value) == f"cannot read missing.json: {os.strerror(errno.ENOENT)}"
    assert _said(read.value, "de") == ("missing.json kann nicht gelesen werden: keine solche Datei und "
                                       "kein solcher Ordner")
