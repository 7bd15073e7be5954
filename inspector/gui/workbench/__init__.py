"""The Workbench room: servers, their tools, the arguments form, operations and their results."""
