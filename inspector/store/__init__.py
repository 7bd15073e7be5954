"""The run store: SQLite (plain SQL through sqlite3): runs, steps, legs, notes, servers, health. No Qt."""

from __future__ import annotations

import importlib
from typing import Any

from .errors import NewerSchemaError, StoreError, UnknownRunError
from .paths import DB_ENV, default_db_path, missing_folder, resolve_db_path

# The rest loads on first use: importing one module of the store (its errors, the sign-in vault)
# must not load the database code, which `call --no-store` never needs.
_LAZY = {
    "open_database": "database", "open_database_read_only": "database",
    "StoredEras": "eras",
    "RUN_STATUSES": "run_store", "SOURCES": "run_store", "RunRecord": "run_store", "RunStore": "run_store",
    "StoredStep": "run_store", "StepRow": "run_store", "step_row": "run_store",
    "SCHEMA_VERSION": "schema",
    "CommandSetting": "servers", "EnvSetting": "servers", "ServerRecord": "servers", "ServerRegistry": "servers",
    "ServerSettings": "servers", "is_secret_variable": "servers",
}

__all__ = ["DB_ENV", "NewerSchemaError", "StoreError", "UnknownRunError", "default_db_path", "missing_folder",
           "resolve_db_path",
           *_LAZY]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value
