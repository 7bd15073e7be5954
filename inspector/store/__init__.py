"""The run store: SQLite through sqlite-utils: runs, steps, legs, servers, health. No Qt."""

from .database import open_database, open_database_read_only
from .eras import StoredEras
from .errors import NewerSchemaError, StoreError, UnknownRunError
from .paths import DB_ENV, default_db_path, resolve_db_path
from .run_store import RUN_STATUSES, SOURCES, RunRecord, RunStore, StoredStep
from .schema import SCHEMA_VERSION
from .servers import CommandSetting, EnvSetting, ServerRecord, ServerRegistry, ServerSettings, is_secret_variable

__all__ = [
    "CommandSetting", "DB_ENV", "EnvSetting", "NewerSchemaError", "is_secret_variable",
    "RUN_STATUSES", "RunRecord", "RunStore", "SCHEMA_VERSION", "SOURCES",
    "ServerRecord", "ServerRegistry", "ServerSettings", "StoreError", "StoredEras", "StoredStep", "UnknownRunError",
    "default_db_path", "open_database", "open_database_read_only", "resolve_db_path",
]
