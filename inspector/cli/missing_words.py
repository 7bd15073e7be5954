"""What a command given too little says: what it needs and how to write it, in the reader's language,
where argparse would say its own line ("the following arguments are required: RUN", in German
"diese Argumente fehlen: LAUF"). `call`, `tools`, `task`, `replay`, `runs show` and `proxy` say theirs
where they run; these are the others, checked before the command's module is loaded."""

from __future__ import annotations

import argparse

from inspector.i18n import N_
from inspector.i18n.messages import Message

from .common import UsageError

_ACTIONS = {
    "resources": N_("resources needs an action: resources list SERVER (the resources), resources templates SERVER "
                    "(the resource templates), resources read SERVER URI or resources subscribe SERVER URI."),
    "prompts": N_("prompts needs an action: prompts list SERVER (the prompts) or prompts get SERVER NAME (one "
                  "filled in with --args)."),
    "skills": N_("skills needs an action: skills list SERVER (the skills), skills get SERVER URI (a skill's entry) "
                 "or skills load SERVER URI (its files, read and verified)."),
}
_SERVERS = {
    "set": N_('servers set needs the server: servers set URL (its address), or servers set NAME --command '
              '"COMMAND LINE" (a server started as a command).'),
    "remove": N_("servers remove needs the server to forget: servers remove NAME_OR_URL (its name or address; "
                 "`servers` lists them)."),
    "import": N_("servers import needs the configuration file to read: servers import FILE (Claude Desktop's, "
                 "Cursor's, VS Code's or MCP Inspector's)."),
}


def check_given(args: argparse.Namespace) -> None:
    """Raise a :class:`UsageError` saying what is missing and how to give it, when a word the command
    needs was not given."""
    command = args.command
    if command in _ACTIONS and getattr(args, "offering", None) is None:
        raise UsageError(Message(_ACTIONS[command]))
    if command == "runs" and getattr(args, "runs_command", None) == "note" and args.run_id is None:
        raise UsageError(Message(N_('runs note needs the run to write on and the note: runs note RUN "TEXT", e.g. '
                                    'runs note last "the retry was ours" (--step N: one of its steps; --clear '
                                    'instead of the text removes the note; a run is named by its id, last, last~N '
                                    'or the beginning of its uid).')))
    if command == "complete" and (args.argument is None or (args.prompt is None and args.resource is None)):
        raise UsageError(Message(N_("complete needs what to complete: complete SERVER --prompt NAME --argument NAME "
                                    "(an argument of a prompt) or complete SERVER --resource URI_TEMPLATE "
                                    "--argument NAME (a variable of a resource template), with --value TEXT for "
                                    "what has been typed of it so far.")))
    if command in ("signin", "signout") and args.url is None:
        raise UsageError(Message(N_("{command} needs the server: {command} SERVER (its address or a configured "
                                    "server's name), e.g. {command} http://127.0.0.1:8000/mcp"), {"command": command}))
    if command == "agent" and None in (args.prompt, args.model_url, args.model, args.server):
        raise UsageError(Message(N_('agent needs what to ask, the model and the MCP server: agent "PROMPT" '
                                    '--model-url URL --model NAME --server URL, e.g. agent "What is 2 + 3?" '
                                    '--model-url http://127.0.0.1:11434/v1 --model llama3.2 --server '
                                    'http://127.0.0.1:8000/mcp')))
    if command == "servers" and getattr(args, "servers_command", None) in _SERVERS:
        given = {"set": "url", "remove": "server", "import": "file"}[args.servers_command]
        if getattr(args, given) is None:
            raise UsageError(Message(_SERVERS[args.servers_command]))


__all__ = ["check_given"]
