"""File › Import servers… on a system keyring that refuses: what it did not keep is said in the
window's keyring box as Edit… and OK say it (naming its answer), and the values are used this
session. Offscreen, real SQLite, the real ``keyring`` backend ``TroubledKeyring``."""

from __future__ import annotations

import json

from tests.support.stall_meter import StallMeter

from .test_keyring_troubles import STALL_S, window  # noqa: F401 - the fixture

NEW = "http://127.0.0.1:8/mcp"


def test_imported_secrets_the_keyring_does_not_keep_are_said_in_the_box(qtbot, window, file_keyring,  # noqa: F811
                                                                        tmp_path) -> None:
    from inspector.gui.workbench.server_import import preview

    made, troubled = window(wait_s=1.5, set="KeyringLocked")
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {
        "notes": {"url": NEW, "headers": {"X-Api-Key": "n3w"}},
        "tasks": {"command": "tasks-server", "env": {"API_TOKEN": "s3cr3t"}}}}))
    dialog = preview(made.admin, config, made)
    qtbot.addWidget(dialog)
    meter = StallMeter().start()
    dialog.accept()
    assert made.status.text().startswith("2 servers imported."), made.status.text()
    qtbot.waitUntil(lambda: made.admin.keyring.box is not None, timeout=20000)
    assert meter.stop() < STALL_S, meter.longest_s
    said = made.admin.keyring.box.text()
    locked = "KeyringLocked: the test keyring refuses to set (KeyringLocked)"
    assert said == (f"The system keyring did not keep the secret X-Api-Key of notes ({locked}): it is used only until "
                    "Run Inspector quits. Unlock the keyring and save the server again to keep it. The system keyring "
                    f"did not keep the secret API_TOKEN of tasks ({locked}): it is used only until Run Inspector "
                    "quits. Unlock the keyring and save the server again to keep it."), said
    record = next(record for record in made.admin.registry.all() if record.url == NEW)
    assert dict(made.admin.endpoint_for(record).headers) == {"X-Api-Key": "n3w"}  # this session
    assert not any(entry.startswith(NEW) for entry in file_keyring.entries())
    assert "MainThread" not in troubled.threads
