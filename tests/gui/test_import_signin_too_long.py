"""A client secret the keyring will not keep, given to the window (File › Import servers… of a listing edited by
hand, or typed in the Servers dialog), is said by the keyring's reason: it said "No system keyring is available"
with a keyring there that refused a value longer than an entry holds (the command line's import names the length).

Real parts: the real window and preview offscreen, a real SQLite file, the file keyring (and one refusing the
entry, as a locked item is)."""

from __future__ import annotations

from pathlib import Path

from tests.gui.test_import_signin import SIGNIN, URL, _imported, keyring_window  # noqa: F401 - its fixture


def _heard(window) -> list[str]:
    said: list[str] = []
    real = window.admin.say
    window.admin.say = lambda text: (said.append(text), real(text))
    return said


def test_a_client_secret_longer_than_an_entry_is_said_so(keyring_window, qtbot, tmp_path: Path,  # noqa: F811
                                                         file_keyring) -> None:
    window = keyring_window
    said = _heard(window)
    _imported(window, qtbot, tmp_path / "whole.json", {**SIGNIN, "client_secret": "x" * 70_000})
    qtbot.waitUntil(lambda: len(said) >= 2, timeout=20000)
    assert said[1] == ("The system keyring cannot keep the sign-in's client secret of Work: it is longer than the "
                       "65,536 characters one entry holds, and is used only until Run Inspector quits. Check what was "
                       "pasted (a key is rarely longer than a few thousand characters) and save it again.")
    assert file_keyring.entries() == {}


def test_a_client_secret_the_keyring_refuses_is_said_with_its_answer(keyring_window, qtbot, tmp_path: Path,  # noqa: F811
                                                                     file_keyring) -> None:
    import keyring

    from tests.support.file_keyring import RefusingEntries

    keyring.set_keyring(RefusingEntries(file_keyring.path, "signin client-secret"))
    window = keyring_window
    said = _heard(window)
    _imported(window, qtbot, tmp_path / "whole.json", {**SIGNIN, "client_secret": "CLIENT-SECRET-refused-3x"})
    qtbot.waitUntil(lambda: len(said) >= 2, timeout=20000)
    assert said[1] == ("The system keyring did not keep the sign-in's client secret of Work (PasswordSetError: "
                       "refused for this entry): it is used only until Run Inspector quits. Unlock the keyring and "
                       "save the server again to keep it.")
