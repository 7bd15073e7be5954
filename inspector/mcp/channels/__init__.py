"""How a message travels to a server, one job each: a child process's pipes (stdio)."""
