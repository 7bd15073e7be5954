"""Errors the store reports to the user."""

from __future__ import annotations


class StoreError(Exception):
    """The run database cannot be used as asked; the message says why and what to do."""


class NewerSchemaError(StoreError):
    """The database was written by a newer Run Inspector; it is left untouched."""


class UnknownRunError(StoreError):
    """No run with that id."""
