"""The real model the Play tab asks: its base URL and name (in the settings file) and its API key
(a secret: in the system keyring, under the same entry ``run-inspector agent`` reads, or only
until the window closes when there is no keyring). The key is never shown again."""

from __future__ import annotations

from typing import Any

from inspector.i18n.messages import Message
from inspector.store.keyring_words import KEY_READING, KEY_UNREADABLE
from inspector.store.secrets import MODEL_KEY_ACCOUNT as KEYRING_ENTRY


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
    def keeper(self) -> Any:
        """Where the keys are kept (the window's keeper says when one has been read: ``arrived``)."""
        return self._secrets

    @property
    def url(self) -> str:
        return str(self._qsettings.value("play/model_url", "") or "")

    @property
    def model(self) -> str:
        return str(self._qsettings.value("play/model", "") or "")

    def has_key(self, url: str) -> bool:
        return self.kept_where(url) in ("session", "keyring")

    def kept_where(self, url: str) -> str | None:
        """Where the key of the model at ``url`` is kept: ``session``, ``keyring``, ``None`` (nowhere),
        or, with the window's keeper, ``reading`` (asked of the keyring, on its line) or ``unreadable``."""
        try:
            place = key_place(url)
        except ValueError:
            return None
        if place in self._session:
            return "session"
        try:
            value = self._secrets.load(place, KEYRING_ENTRY)
        except ValueError:  # the window's keeper reads it now, or the keyring would not give it
            return "unreadable" if self._unreadable(place) is not None else "reading"
        if not value:
            return None
        return "keyring" if self._secrets.available else "session"

    def remember(self, url: str, model: str, typed_key: str) -> str | None:
        """Keep the URL and name; keep a key that was typed, else use the one kept. Returns the key;
        :class:`KeyNotRead` when the keyring has not given the one kept (yet)."""
        place = key_place(url)  # ValueError: the URL cannot be a model's
        self._qsettings.setValue("play/model_url", url)
        self._qsettings.setValue("play/model", model)
        if typed_key:
            if not self._secrets.save(place, KEYRING_ENTRY, typed_key):
                self._session[place] = typed_key
            return typed_key
        return self._key(place)

    def _key(self, place: str) -> str | None:
        if place in self._session:
            return self._session[place]
        try:
            return self._secrets.load(place, KEYRING_ENTRY) or None
        except ValueError:
            problem = self._unreadable(place)
            if problem is not None:
                getattr(self._secrets, "read", lambda *_u, **_k: None)(place, retry=True)  # asked again
                raise KeyNotRead(Message(KEY_UNREADABLE, {"server": place, "problem": problem}), False) from None
            raise KeyNotRead(Message(KEY_READING, {"server": place}), True) from None

    def _unreadable(self, place: str) -> str | None:
        return getattr(self._secrets, "unreadable", lambda _place: None)(place)


class KeyNotRead(ValueError):
    """The model's key kept in the keyring is not read (yet): what to do, as a message."""

    def __init__(self, message: Message, reading: bool) -> None:
        super().__init__(str(message))
        self.sentence = message
        #: It is being read (else the keyring would not give it).
        self.reading = reading
