"""The real model the Play tab asks: its base URL and name (in the settings file) and its API key
(a secret: in the system keyring, under the same entry ``run-inspector agent`` reads, or only
until the window closes when there is no keyring). The key is never shown again."""

from __future__ import annotations

from typing import Any

#: The keyring entry of a model's API key, beside its completions URL (as the command line keeps it).
KEYRING_ENTRY = "api-key"


def key_place(url: str) -> str:
    """Where a model's key is kept: its completions URL without credentials (``ValueError`` if bad)."""
    from inspector.agent.chat_model import completions_url
    from inspector.mcp import public_url

    return public_url(completions_url(url))


class ModelSettings:
    """The model's URL and name, remembered; its API key kept as a secret."""

    def __init__(self, qsettings: Any, secrets: Any) -> None:
        self._qsettings = qsettings
        self._secrets = secrets
        #: Keys kept only for this session (no keyring): never written anywhere.
        self._session: dict[str, str] = {}

    @property
    def url(self) -> str:
        return str(self._qsettings.value("play/model_url", "") or "")

    @property
    def model(self) -> str:
        return str(self._qsettings.value("play/model", "") or "")

    def has_key(self, url: str) -> bool:
        return self.kept_where(url) is not None

    def kept_where(self, url: str) -> str | None:
        """Where the key of the model at ``url`` is kept: ``session``, ``keyring`` or ``None``."""
        try:
            place = key_place(url)
        except ValueError:
            return None
        if place in self._session:
            return "session"
        return "keyring" if self._secrets.load(place, KEYRING_ENTRY) else None

    def remember(self, url: str, model: str, typed_key: str) -> str | None:
        """Keep the URL and name; keep a key that was typed, else use the one kept. Returns the key."""
        place = key_place(url)  # ValueError: the URL cannot be a model's
        self._qsettings.setValue("play/model_url", url)
        self._qsettings.setValue("play/model", model)
        if typed_key:
            if not self._secrets.save(place, KEYRING_ENTRY, typed_key):
                self._session[place] = typed_key
            return typed_key
        return self._key(place)

    def _key(self, place: str) -> str | None:
        return self._session.get(place) or self._secrets.load(place, KEYRING_ENTRY) or None
