"""The demo MCP server (official MCP SDK, Streamable HTTP, 127.0.0.1 only) for demos and first starts."""

from .app import MCP_PATH, SERVER_NAME, build_app, build_server
from .options import DEFAULT_CATALOGUE_SIZE, DemoOptions, InvalidDemoOptionsError
from .runner import DemoServer, DemoServerError
from .state import DemoState
from .tools import DEMO_TOOLS

__all__ = ["DEFAULT_CATALOGUE_SIZE", "DEMO_TOOLS", "DemoOptions", "DemoServer", "DemoServerError", "DemoState",
           "InvalidDemoOptionsError", "MCP_PATH", "SERVER_NAME", "build_app", "build_server"]
