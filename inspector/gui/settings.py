"""The window's settings (QSettings): default budget, demo autostart, database, geometry, last arguments,
the server selected last.

``RUN_INSPECTOR_SETTINGS`` names an INI file to use instead of the user's settings: tests and
benchmarks set it so that they never read or write the real ones.
"""

from __future__ import annotations

import json
import os
import shutil
from datetime import datetime
from pathlib import Path
from typing import Any

from PySide6.QtCore import QByteArray, QSettings

from inspector.i18n import _
from inspector.mcp import DEFAULT_BUDGET_SECONDS, bounded_budget

from .settings_size import MAX_REMEMBERED_ARGUMENTS_CHARS, not_a_file, oversized, stand_in_settings, user_settings_file

SETTINGS_ENV = "RUN_INSPECTOR_SETTINGS"
ORGANIZATION = "run-inspector"
APPLICATION = "Run Inspector"


def _named_file() -> Path | None:
    """The INI file ``RUN_INSPECTOR_SETTINGS`` names, "~" expanded as in ``RUN_INSPECTOR_DB``; ``None`` when unset."""
    path = os.environ.get(SETTINGS_ENV, "").strip()
    return Path(path).expanduser() if path else None


def settings_file() -> Path:
    """The INI file of ``RUN_INSPECTOR_SETTINGS``, else the user's (found without reading it)."""
    return _named_file() or user_settings_file(ORGANIZATION, APPLICATION)


def open_qsettings() -> QSettings:
    """The settings store: :func:`settings_file`, or this session's stand-in when that file is too large
    to be settings or is no file at all (it is then never read nor written)."""
    if oversized(settings_file()) is not None or not_a_file(settings_file()):
        return stand_in_settings()
    named = _named_file()
    if named is not None:
        return QSettings(str(named), QSettings.Format.IniFormat)
    return QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope, ORGANIZATION, APPLICATION)


def keep_unreadable_copy(qsettings: QSettings, moment: datetime | None = None) -> Path | None:
    """Copy the settings file beside it, as it is, when Qt could not read all of it (a line that is no
    INI): QSettings writes back only what it read, so the next setting saved would drop the rest
    silently. Returns the copy (``None``: the file read back whole, or no copy can be made there, where
    QSettings cannot write either)."""
    path = Path(qsettings.fileName())
    if qsettings.status() != QSettings.Status.FormatError or not path.is_file():
        return None
    stamp = (moment or datetime.now()).strftime("%Y%m%d-%H%M%S")
    copy, number = path.with_name(f"{path.name}.unreadable-{stamp}"), 1
    while copy.exists():
        number += 1
        copy = path.with_name(f"{path.name}.unreadable-{stamp}-{number}")
    try:
        shutil.copy2(path, copy)
    except OSError:
        return None
    return copy


def unreadable_settings_note(qsettings: QSettings, copy: Path) -> str:
    """What the window says when :func:`keep_unreadable_copy` kept a copy."""
    return _("The settings file {path} has lines that cannot be read; the settings that could be read are used. "
             "A copy of the file as it was is kept at {copy}.").format(path=qsettings.fileName(), copy=copy)


def read_default_budget(value: object) -> float | None:
    """The default budget ``value`` sets (the 20-second default when empty), ``None`` when it sets none the
    window can use: no positive number, or more than a week, which the settings dialog and ``--budget``
    refuse (a budget of 1e308 s overflowed every operation's countdown, and no tool was listed)."""
    return bounded_budget(value)


def read_port(text: str) -> int | None:
    """The port ``text`` names (1 to 65535), ``None`` when it names none."""
    try:
        port = int(text)
    except ValueError:
        return None
    return port if 1 <= port <= 65535 else None


class AppSettings:
    """Typed access to what the window remembers."""

    def __init__(self, settings: QSettings | None = None) -> None:
        self.qsettings = settings or open_qsettings()

    # -- preferences -----------------------------------------------------------------------

    @property
    def default_budget_s(self) -> float:
        seconds = read_default_budget(self.qsettings.value("operations/default_budget_s", DEFAULT_BUDGET_SECONDS))
        return DEFAULT_BUDGET_SECONDS if seconds is None else seconds

    @default_budget_s.setter
    def default_budget_s(self, seconds: float) -> None:
        self.qsettings.setValue("operations/default_budget_s", float(seconds))

    @property
    def language(self) -> str:
        """The window's language ("en", "de"), or "" for the system's."""
        return str(self.qsettings.value("window/language", "") or "")

    @language.setter
    def language(self, code: str) -> None:
        self.qsettings.setValue("window/language", code or "")

    @property
    def demo_autostart(self) -> bool:
        return _bool(self.qsettings.value("demo/autostart", True), True)

    @demo_autostart.setter
    def demo_autostart(self, on: bool) -> None:
        self.qsettings.setValue("demo/autostart", bool(on))

    @property
    def database_path(self) -> str:
        """The database chosen in the settings ("" = the default place)."""
        return str(self.qsettings.value("database/path", "") or "")

    @database_path.setter
    def database_path(self, path: str) -> None:
        self.qsettings.setValue("database/path", path)

    @property
    def allow_sampling(self) -> bool:
        """May servers use the model below (each request is still confirmed)?"""
        return _bool(self.qsettings.value("sampling/allow", False), False)

    @allow_sampling.setter
    def allow_sampling(self, on: bool) -> None:
        self.qsettings.setValue("sampling/allow", bool(on))

    @property
    def sampling_model_url(self) -> str:
        """The OpenAI-compatible model server's base URL for servers' sampling requests."""
        return str(self.qsettings.value("sampling/model_url", "") or "")

    @sampling_model_url.setter
    def sampling_model_url(self, url: str) -> None:
        self.qsettings.setValue("sampling/model_url", url)

    @property
    def sampling_model(self) -> str:
        return str(self.qsettings.value("sampling/model", "") or "")

    @sampling_model.setter
    def sampling_model(self, name: str) -> None:
        self.qsettings.setValue("sampling/model", name)

    @property
    def sampling_max_tokens(self) -> int:
        """The user's cap on a sampled answer, in tokens (the server's ``maxTokens`` when smaller)."""
        from inspector.agent.sampling import DEFAULT_MAX_TOKENS, LARGEST_MAX_TOKENS

        try:
            tokens = int(str(self.qsettings.value("sampling/max_tokens", DEFAULT_MAX_TOKENS)))
        except ValueError:
            return DEFAULT_MAX_TOKENS
        return min(max(tokens, 1), LARGEST_MAX_TOKENS)

    @sampling_max_tokens.setter
    def sampling_max_tokens(self, tokens: int) -> None:
        self.qsettings.setValue("sampling/max_tokens", int(tokens))

    @property
    def server_log_level(self) -> str | None:
        """The level asked of listened-to servers with ``logging/setLevel``; ``None``: off (not asked)."""
        from inspector.mcp import LOG_LEVELS

        value = str(self.qsettings.value("logging/server_level", "") or "")
        return value if value in LOG_LEVELS else None

    @server_log_level.setter
    def server_log_level(self, level: str | None) -> None:
        self.qsettings.setValue("logging/server_level", level or "")

    @property
    def receiver_port(self) -> int:
        """The port the OTLP trace receiver listens on (127.0.0.1); 4318 is OTLP/HTTP's own."""
        return read_port(str(self.qsettings.value("receiver/port", 4318))) or 4318

    @receiver_port.setter
    def receiver_port(self, port: int) -> None:
        self.qsettings.setValue("receiver/port", int(port))

    @property
    def receiver_autostart(self) -> bool:
        """Start the OTLP trace receiver as the window opens?"""
        return _bool(self.qsettings.value("receiver/autostart", False), False)

    @receiver_autostart.setter
    def receiver_autostart(self, on: bool) -> None:
        self.qsettings.setValue("receiver/autostart", bool(on))

    # -- what the window remembers ----------------------------------------------------------

    @property
    def last_server(self) -> str:
        """The URL (or key) of the server selected last in the Servers panel ("" when none was)."""
        return str(self.qsettings.value("servers/last_selected", "") or "")

    @last_server.setter
    def last_server(self, url: str) -> None:
        if self.last_server != url:  # each write makes QSettings save the whole file
            self.qsettings.setValue("servers/last_selected", url)

    def restore_bytes(self, key: str) -> QByteArray | None:
        value = self.qsettings.value(f"window/{key}")
        return value if isinstance(value, QByteArray) and not value.isEmpty() else None

    def save_bytes(self, key: str, value: QByteArray) -> None:
        self.qsettings.setValue(f"window/{key}", value)

    def last_arguments(self, server_url: str, tool: str) -> dict[str, Any] | None:
        raw = self.qsettings.value(_arguments_key(server_url, tool))
        if not isinstance(raw, str):
            return None
        try:
            value = json.loads(raw)
        except ValueError:
            return None
        return value if isinstance(value, dict) else None

    def remember_arguments(self, server_url: str, tool: str, arguments: dict[str, Any]) -> None:
        """Keep the arguments a tool last ran with. Unchanged arguments write nothing: each write makes
        QSettings save the whole file on the GUI thread's next turn (3 to 10 ms a Run, measured)."""
        key, text = _arguments_key(server_url, tool), json.dumps(arguments, ensure_ascii=False)
        if len(text) > MAX_REMEMBERED_ARGUMENTS_CHARS:  # pasted data: forgotten, not kept in the settings file
            if self.qsettings.contains(key):
                self.qsettings.remove(key)
        elif self.qsettings.value(key) != text:
            self.qsettings.setValue(key, text)

    def sync(self) -> None:
        self.qsettings.sync()


def _arguments_key(server_url: str, tool: str) -> str:
    # QSettings keys treat "/" as a group separator: the URL is kept whole in one key.
    safe = json.dumps([server_url, tool]).replace("/", "%2F").replace("\\", "%5C")
    return f"arguments/{safe}"


def read_switch(text: str) -> bool | None:
    """On or off as ``text`` says it (Qt writes "true" and "false"; 1/0, yes/no, on/off by hand), ``None``
    when it says neither."""
    word = text.strip().lower()
    return True if word in ("1", "true", "yes", "on") else False if word in ("0", "false", "no", "off") else None


def _bool(value: Any, default: bool) -> bool:
    """A switch's setting; ``default`` when it says neither on nor off ("abc" turned the demo server off)."""
    if isinstance(value, str):
        switch = read_switch(value)
        return default if switch is None else switch
    return bool(value)
