"""What to say when a group's action (``resources list``, ``prompts get``, ``skills load``) is not where a
word that is not an action stands: the server written before it (``prompts http://…``), or an option
written before it, whose value argparse then took for the action (``prompts --stdio "CMD"`` said
"argument {list,get}: invalid choice: 'CMD'", and ``prompts --budget 5 list …`` "invalid choice: '5'").
The sentence names the actions and shows the line with the action first."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from inspector.i18n import N_
from inspector.i18n.messages import Message
from inspector.mcp.address_query import carries_typed_secret, typed_to_quote

from .safe_text import as_typed, one_line

#: The groups whose actions take the server as an option's value, with the action that does: `runs list --server`.
SERVER_AS_OPTION = {"runs": "list"}


def misplaced_action(prog: str, actions: Sequence[str], value: str, words: Sequence[str],
                     flags: Collection[str] = ()) -> Message | None:
    """The sentence for ``value`` where one of ``actions`` was wanted (``words``: what the group's parser
    was given; ``flags``: its own options that take no value, such as ``--json``, so the word after one is
    not its value), or ``None`` for a mistyped action (:mod:`.unknown_command` names the nearest one)."""
    command = prog.rsplit(" ", 1)[-1]
    after = _option_before(value, words)
    if after in flags:  # `runs --json shwo`: a mistyped action after an option the group takes
        after = None
    action = next((word for word in words if word in actions), actions[0])  # the one typed later, if any
    # The server without a password or a query it may carry (a key in either; an address typed without http://).
    if after == "--stdio":
        server = f"--stdio {as_typed(one_line(typed_to_quote(value)))}"
    elif "://" in value:
        server = typed_to_quote(value)
    elif carries_typed_secret(value):  # an address typed without http://
        server = f"http://{typed_to_quote(value)}"
    elif after is not None:
        # Its value is not repeated: it may be a credential (a --header's, an --env's).
        return Message(N_("{command} needs what to do right after it, before its options, e.g. {example}; it can do: "
                          "{actions}."), {"command": command, "example": f"{prog} {action} {after} …",
                                          "actions": ", ".join(actions)})
    else:
        return None
    if command in SERVER_AS_OPTION:  # `runs list` takes the server as --server's value: `runs list ADDR` is refused
        example = f"{prog} {SERVER_AS_OPTION[command]} --server {server.removeprefix('--stdio ')}"
        return Message(N_("{command} needs what to do before the server, and the server after --server, e.g. "
                          "{example}; it can do: {actions}."),
                       {"command": command, "example": example, "actions": ", ".join(actions)})
    return Message(N_("{command} needs what to do before the server, e.g. {example}; it can do: {actions}."),
                   {"command": command, "example": f"{prog} {action} {server}", "actions": ", ".join(actions)})


def _option_before(value: str, words: Sequence[str]) -> str | None:
    """The option (``--stdio``) written just before ``value`` in ``words``, if it was one."""
    for index, word in enumerate(words):
        if word == value:
            before = words[index - 1] if index else ""
            return before if before.startswith("-") and "=" not in before else None
    return None


__all__ = ["misplaced_action"]
