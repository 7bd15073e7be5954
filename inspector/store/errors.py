"""Errors the store reports to the user."""

from __future__ import annotations


class StoreError(Exception):
    """The run database cannot be used as asked; the message says why and what to do.

    ``sentence`` is the message as given: a translatable ``Message`` where the store made it
    (``str()`` of the error stays the English sentence, for ``--json``)."""

    def __init__(self, message: object = "") -> None:
        self.sentence = message
        super().__init__(str(message))


class NewerSchemaError(StoreError):
    """The database was written by a newer Run Inspector; it is left untouched."""


class UnknownRunError(StoreError):
    """No run with that id."""
