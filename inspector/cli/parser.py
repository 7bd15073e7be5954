"""The command line's grammar. Light on purpose: parsing must not import the network or the store."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from inspector.i18n import N_, _
from inspector.mcp.wire import DEFAULT_WIRE, MAX_WIRE_BYTES, WIRE_LEVELS
from inspector.runs.status import RUN_STATUSES

from . import numbers, sampling_option, signin_options
from .argparse_words import speak_our_language
from .common import Parser
from .compare_grammar import add_compare_command
from .one_command import EVERY_COMMAND, SomeCommands, command_word
from .skills_parser import SKILL_COMMANDS, add_skills_command
from .version_option import VersionAction

OPERATIONS = {"call": "tools/call", "tools": "tools/list", "ping": "ping", "task": "tasks/get"}
#: The commands on what a server offers besides tools (inspector/cli/offerings.py), made as operations.
OFFERING_COMMANDS = ("resources", "prompts", "complete", "skills")
#: Their operations (as cli/offerings.py's OFFERINGS says which command makes which).
OFFERING_METHODS = ("resources/list", "resources/templates/list", "resources/read", "prompts/list", "prompts/get",
                    "completion/complete", "resources/subscribe", *SKILL_COMMANDS.values())
#: The eras of MCP a server is spoken to in (as inspector.mcp.eras.ERAS; the grammar imports no network code).
ERAS = ("auto", "handshake", "stateless")
#: The demo commands (inspector/cli/demos.py).
DEMOS = ("serve-demo", "scenario", "agent")
#: The commands that record runs of other programs (inspector/cli/proxy.py).
CAPTURE = ("proxy",)



#: What a RUN argument takes (``runs show``, ``runs note``; ``compare`` and ``replay`` take the same).
RUN_WORDS = N_("the run: its id, last (the newest run), last~N (the N-th before it) or the beginning of its uid")

def _db_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", metavar=_("PATH"),
                        help=_("the run database (default: RUN_INSPECTOR_DB, else runs.db in the user data folder)"))


def group_db_option(group: argparse.ArgumentParser) -> None:
    """``runs --db PATH list``: a --db between a group and its sub-command, where the group's parser would
    take PATH for the sub-command's name. Kept apart (cli/app.py lends it to the sub-command, as the
    --db before the command); not in the group's help, as --json there is not (cli/common.py)."""
    group.add_argument("--db", dest="group_db", metavar=_("PATH"), help=argparse.SUPPRESS)


def status_alias(parser: argparse.ArgumentParser, statuses: Sequence[str]) -> None:
    """``--status`` as a second name of ``--outcome``: the lists head the column Status and the help
    says "this status", so a user types it (it said "unrecognized arguments"). Left out of the help,
    which names the option once."""
    parser.add_argument("--status", dest="outcome", choices=statuses, help=argparse.SUPPRESS)


def _json_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help=_("print exactly one JSON object"))


def _server_options(sub: argparse.ArgumentParser, *, positional: bool = True) -> None:
    # Optional, and parsed intermixed with the options: with --stdio the command line is the server
    # (cli/server_choice.py checks what was given). ``positional=False``: given as --server instead.
    if positional:
        sub.add_argument("url", nargs="?", metavar="SERVER",
                         help=_("the server: its address (Streamable HTTP, e.g. http://127.0.0.1:8000/mcp) or a "
                                "configured server's name; left out with --stdio"))
    else:
        sub.add_argument("--server", dest="url", metavar="SERVER",
                         help=_("the server to replay on: its address or a configured server's name (default: the "
                                "server the step's run was made against)"))
    sub.add_argument("--stdio", metavar=_('"COMMAND LINE"'),
                     help=_("start this command as the server and speak to it over stdin/stdout (words split as "
                            "a shell would, no shell run)"))
    sub.add_argument("--env", action="append", default=[], metavar=_("NAME=VALUE"),
                     help=_("an environment variable for the server's process (--stdio or a configured command; "
                            "may be repeated)"))
    sub.add_argument("--cwd", metavar=_("FOLDER"), help=_("the folder the server's process starts in"))
    sub.add_argument("--sse", action="store_true",
                     help=_("speak the older HTTP+SSE transport to the address (found by itself on 404 or 405)"))
    sub.add_argument("--era", choices=ERAS,
                     help=_("the era of MCP to speak: auto (ask with server/discover, else the handshake), "
                            "handshake (2025-11-25 and older) or stateless (2026-07-28); default: the server's "
                            "configured era, else auto"))
    # The default a configured server lends (`servers set --budget`), and replay the step's: said, or the help lied.
    sub.add_argument("--budget", metavar=_("SECONDS"),
                     help=_("time budget for the whole operation (default: the configured server's budget, else "
                            "20; minimum 1)") if positional else
                     _("time budget for the whole operation (default: the step's budget, else the configured "
                       "server's, else 20; minimum 1)"))
    sub.add_argument("--header", action="append", default=[], metavar=_('"Name: value"'),
                     help=_("extra HTTP header, e.g. an Authorization token (sent, never printed or stored)"))
    sub.add_argument("--wire", choices=WIRE_LEVELS, default=DEFAULT_WIRE,
                     help=_("what each leg keeps of what travelled: off, headers (the heads only) or full (heads "
                            "and bodies, {size} KB per leg at most, secrets removed); default: {default}").format(
                         size=MAX_WIRE_BYTES // 1024, default=DEFAULT_WIRE))
    signin_options.add_client_options(sub, for_command=True)
    _server_request_options(sub)
    _json_option(sub)
    sub.add_argument("--no-store", action="store_true", help=_("do not record this operation as a run"))
    _db_option(sub)


def _server_request_options(sub: argparse.ArgumentParser) -> None:
    """How the client answers what the server asks it (questions, a model, roots) and listens."""
    sub.add_argument("--elicit", choices=("decline", "cancel", "defaults", "ask"),
                     help=_("answer the server's questions: decline, cancel, accept with the form's defaults, "
                          "or ask at the terminal (default: questions are not offered to the server)"))
    sub.add_argument("--allow-sampling", nargs="?", const=sampling_option.DEFAULT_APPROVED,
                     type=sampling_option.approved_count, metavar="N",
                     help=_("let the server use the model given by --sampling-model-url and --sampling-model "
                            "for at most N sampling requests (default {count}); more are refused").format(
                         count=sampling_option.DEFAULT_APPROVED))
    sub.add_argument("--sampling-max-tokens", type=sampling_option.max_tokens, metavar="N",
                     help=_("the longest answer the model may give a sampling request, in tokens (default "
                            "{tokens}; the server's maxTokens when that is smaller)").format(
                         tokens=sampling_option.DEFAULT_MAX_TOKENS))
    sub.add_argument("--sampling-model-url", metavar="URL",
                     help=_("an OpenAI-compatible model server's base URL for the server's sampling requests"))
    sub.add_argument("--sampling-model", metavar="NAME", help=_("the model's name for sampling requests"))
    sub.add_argument("--sampling-api-key-env", metavar="VARIABLE",
                     help=_("read the sampling model's API key from this environment variable"))
    sub.add_argument("--root", action="append", default=[], metavar=_("PATH_OR_URI"),
                     help=_("a root (folder) offered to the server when it asks for roots; may be repeated"))
    sub.add_argument("--log-level", choices=("debug", "info", "notice", "warning", "error", "critical", "alert",
                                             "emergency"),
                     help=_("ask the server to send log messages of this level and above (logging/setLevel)"))


def build_parser(argv: Sequence[str] | None = None) -> Parser:
    """The command line's grammar: whole, or with ``argv`` the words of the command it names alone
    (the others by name and help: :mod:`.one_command`)."""
    speak_our_language()  # argparse's own words ("usage:", "options", its errors) in the chosen language
    parser = Parser(prog="run-inspector",
                    description=_("Make, cancel, store and inspect MCP tool calls. Without a subcommand "
                                "the window opens; `run-inspector FILE` opens it and imports the trace FILE."))
    # Its own name: a subcommand's --db (default None) must not hide the window's; cli/app.py lends it to
    # the sub-command when that names none.
    parser.add_argument("--db", dest="window_db", metavar=_("PATH"),
                        help=_("the run database the window opens, or a sub-command uses (default: "
                               "RUN_INSPECTOR_DB, else runs.db in the user data folder)"))
    # Taken out of the arguments (anywhere on the line) before parsing: cli/language.py.
    parser.add_argument("--lang", metavar="CODE",
                        help=_("the language of the readable output and the window: en or de (default: the "
                               "environment's locale, else English)"))
    parser.add_argument("--version", action=VersionAction, help=_("print the version of Run Inspector and stop"))
    commands = parser.add_subparsers(dest="command", parser_class=Parser, action=SomeCommands)
    commands.wanted = EVERY_COMMAND if argv is None else command_word(argv)

    call = commands.add_parser("call", help=_("call a tool"),
                               usage=_('%(prog)s [options] SERVER TOOL\n       %(prog)s [options] --stdio '
                                       '"COMMAND LINE" TOOL'),
                               description=_("Call a tool and store the call as a run. Ctrl-C (or SIGTERM) cancels "
                                             "the call at once: the request on the wire is torn down, the server is "
                                             "told where it can be, and the run is recorded as cancelled, not "
                                             "failed (exit status 130). A second Ctrl-C exits at once."))
    call.intermixed = True
    _server_options(call)
    call.add_argument("tool", nargs="?", metavar="TOOL", help=_("the tool's name"))
    call.add_argument("--args", default="{}", metavar="JSON", help=_("the tool's arguments as a JSON object"))
    call.add_argument("--task", action="store_true",
                      help=_("run the tool as a task when it offers that (a tool that requires one always runs as "
                             "one); its polls are steps of the one operation"))
    replay = commands.add_parser("replay", help=_("call a stored step's tool again, with the same arguments and "
                                                  "budget, as a new run linked to the step"),
                                 usage=_("%(prog)s [options] RUN:STEP"))
    replay.intermixed = True
    replay.add_argument("target", nargs="?", metavar=_("RUN:STEP"),  # missing: replay says what it needs
                        help=_("the step: its run (its id, last, last~N or the beginning of its uid) and its "
                               "number in the run, e.g. 17:3 or last:1"))
    _server_options(replay, positional=False)
    task = commands.add_parser("task", help=_("look up a task made earlier (its status, and its result when it has "
                                              "ended)"),
                                 usage=_('%(prog)s [options] SERVER TASK_ID\n       %(prog)s [options] --stdio '
                                         '"COMMAND LINE" TASK_ID'))
    task.intermixed = True
    _server_options(task)
    task.add_argument("tool", nargs="?", metavar="TASK_ID", help=_("the task's id, as the server gave it"))
    task.add_argument("--session", metavar=_("SESSION_ID"),
                      help=_("the session the task was made in (a timed-out task's message names it)"))
    for name, help_text in (("tools", _("list the tools a server offers")),
                            ("ping", _("check that a server answers the handshake"))):
        operation = commands.add_parser(name, help=help_text, usage=_(
            '%(prog)s [options] SERVER\n       %(prog)s [options] --stdio "COMMAND LINE"'))
        operation.intermixed = True
        _server_options(operation)

    _offering_commands(commands)
    add_skills_command(commands, _server_options, group_db_option)

    for name, help_text in (("signin", _("sign in to a server (OAuth, in the browser); the tokens go to the keyring")),
                            ("signout", _("sign out of a server: forget its tokens"))):
        account = commands.add_parser(name, help=help_text, usage=_("%(prog)s [options] SERVER"))
        account.add_argument("url", nargs="?", metavar="SERVER",  # missing: missing_words says it
                             help=_("the server: its address or a configured server's name"))
        # What choosing a server reads, for the words these commands do not take.
        account.set_defaults(stdio=None, env=[], cwd=None, sse=False, header=[], era=None, no_store=True)
        if name == "signin":  # signing out only forgets tokens: it has no client to name and no budget
            signin_options.add_client_options(account, for_command=True)
        _db_option(account)
        if name == "signin":
            account.add_argument("--budget", metavar=_("SECONDS"),
                                 help=_("time budget for the whole sign-in (default 300: a person signs in)"))
        _json_option(account)
    runs = commands.add_parser("runs", help=_("list or show stored runs, or write a note on one"))
    group_db_option(runs)
    actions = runs.add_subparsers(dest="runs_command", parser_class=Parser, metavar="{list,show,note}")
    listing = actions.add_parser("list", help=_("the most recent runs, newest first"))
    listing.add_argument("--outcome", choices=RUN_STATUSES, help=_("only runs with this status"))
    status_alias(listing, RUN_STATUSES)
    listing.add_argument("--server", metavar=_("URL_OR_NAME"),
                         help=_("only runs against this server (its URL, its configured name, the command line "
                                "a command server was started with, or the service an imported trace names)"))
    listing.add_argument("--search", metavar=_("TEXT"),
                         help=_("only runs whose title, server, file or notes hold TEXT, or with a step that "
                                "holds it as Find in the window finds it (a tool's name, an error or exception, "
                                "an outcome, arguments, a result, a span's attributes and events)"))
    listing.add_argument("--limit", type=numbers.limit, default=50, metavar="N", help=_("at most N runs (default 50)"))
    listing.add_argument("--all", action="store_true",
                         help=_("list the plumbing traces too: runs read from a trace whose every span is an "
                                "instrumentation's plumbing (a session's set-up, a notification outside a request), "
                                "which are left out by default"))
    _json_option(listing)
    _db_option(listing)
    # Its usage names RUN as needed (argparse wrote "[RUN]", as if `runs show` alone showed something).
    show = actions.add_parser("show", help=_("a run and its timeline"), usage=_("%(prog)s [options] RUN"))
    show.add_argument("run_id", nargs="?", metavar=_("RUN"), help=_(RUN_WORDS))  # missing: `runs` says what it needs
    show.add_argument("--plumbing", action="store_true",
                      help=_("list the plumbing spans of a run read from a trace too (stream writers and the "
                             "like), which are hidden by default as the window's Show plumbing hides them; "
                             "--json always lists every step"))
    _json_option(show)
    _db_option(show)
    note = actions.add_parser("note", help=_("write a note on a run or one of its steps (a finding; it is searched "
                                             "and exported with the run)"),
                              usage=_('%(prog)s [options] RUN "TEXT" [--append]\n'
                                      '       %(prog)s [options] RUN --clear'))
    note.intermixed = True  # `runs note 4 --step 2 "text"`: the text may follow the options
    note.add_argument("run_id", nargs="?", metavar=_("RUN"), help=_(RUN_WORDS))  # missing: missing_words says it
    note.add_argument("text", nargs="?", metavar="TEXT",
                      help=_("the note (it replaces the one there was; with --append it goes under it)"))
    note.add_argument("--step", type=numbers.step_number, metavar="N",
                      help=_("the step's number in its run (the # column of `runs show`, the window's \"Step N\", "
                             "the \"sequence\" of `runs show --json`) instead of the run"))
    note.add_argument("--clear", action="store_true", help=_("remove the note"))
    note.add_argument("--append", action="store_true",
                      help=_("write the text under the note there is, after an empty line, instead of replacing it "
                             "(an answer to a customer's note, which reaches them when they import your export)"))
    _json_option(note)
    _db_option(note)

    add_compare_command(commands)

    export = commands.add_parser("export", help=_("write runs to a trace file (credentials are never written)"))
    export.add_argument("run_ids", nargs="*", metavar=_("RUN"),
                        help=_("the runs to export, each as `runs show` takes it: its id, last (the newest run), "
                               "last~N (the N-th before it) or the beginning of its uid"))
    export.add_argument("--all", action="store_true", help=_("export every run"))
    export.add_argument("--outcome", choices=("ok", "failed", "cancelled", "interrupted"),
                        help=_("only runs with this status"))
    status_alias(export, ("ok", "failed", "cancelled", "interrupted"))
    export.add_argument("-o", "--output", metavar=_("FILE"), help=_("the file to write"))
    export.add_argument("--force", action="store_true",
                        help=_("replace FILE if it is there already (without it, export writes over no file)"))
    export.add_argument("--format", choices=("trace", "otlp"), default="trace",
                        help=_("our trace format (default) or OTLP JSON for OpenTelemetry tools"))
    _push_options(export)
    _json_option(export)
    _db_option(export)
    importing = commands.add_parser("import", help=_("read runs from a trace file (ours, reference payloads or OTLP), "
                                                     "or a trace by id from Jaeger or Tempo"),
                                    usage=_("%(prog)s [options] FILE\n       %(prog)s [options] --from-jaeger URL "
                                            "--trace ID\n       %(prog)s [options] --from-tempo URL --trace ID"))
    importing.add_argument("file", nargs="?", metavar=_("FILE"),
                           help=_("the trace file to read: ours (as export writes it), reference payloads or OTLP "
                                  "JSON; runs already here are not imported again"))
    _pull_options(importing)
    _json_option(importing)
    _db_option(importing)

    # Its usage and description say what it does given no action (the usage named only the actions).
    servers = commands.add_parser("servers", help=_("servers and their health; `servers set` configures one"),
                                  usage=_("%(prog)s [--json [--with-secrets]] [--db PATH]\n"
                                          "       %(prog)s {set,remove,import} ..."),
                                  description=_("Without an action: the configured servers, each with its transport, "
                                                "era and health (last contact, latency, how many operations ended "
                                                "with each outcome)."))
    _json_option(servers)
    servers.add_argument("--with-secrets", action="store_true",
                         help=_("with --json: each configured command as it starts, its credentials included, and "
                                "the values kept in the keyring (headers, an address's query, a sign-in's client "
                                "secret), for a backup or another machine (servers import reads it back; keep the "
                                "output as you keep a password); without it they are listed as … or left out"))
    _db_option(servers)
    # Named by its choices, as `runs` is: a mistyped action said "argument servers_command: invalid choice".
    server_actions = servers.add_subparsers(dest="servers_command", parser_class=Parser, prog=servers.prog,
                                            metavar="{set,remove,import}")  # its actions' prog: not from its usage
    _server_commands(server_actions)
    _demo_commands(commands)
    _receive_command(commands)
    return parser


def _offering_commands(commands: argparse._SubParsersAction) -> None:
    """``resources list|templates|read``, ``prompts list|get``, ``complete``: operations like ``tools``."""
    server_usage = _('%(prog)s [options] SERVER{extra}\n       %(prog)s [options] --stdio "COMMAND LINE"{extra}')
    for name, help_text, actions in (
            ("resources", _("list, or read, the resources a server offers"), (
                ("list", _("list the resources"), None, None),
                ("templates", _("list the resource templates"), None, None),
                ("read", _("read a resource (text shown, binary content named with its type and size)"), "URI",
                 _("the resource's URI")),
                ("subscribe", _("subscribe to a resource and print each update with its time until Ctrl-C, "
                                "--count or --for"), "URI", _("the resource's URI")))),
            ("prompts", _("list the prompts a server offers, or get one filled in"), (
                ("list", _("list the prompts"), None, None),
                ("get", _("get a prompt filled in with --args"), "NAME", _("the prompt's name"))))):
        command = commands.add_parser(name, help=help_text)
        group_db_option(command)
        subs = command.add_subparsers(dest="offering", parser_class=Parser, metavar="{" + ",".join(
            action for action, _help, _word, _word_help in actions) + "}")
        # No action: missing_words says which there are (argparse said "the following arguments are required").
        for action, action_help, word, word_help in actions:
            sub = subs.add_parser(action, help=action_help,
                                  usage=server_usage.format(extra=f" {word}" if word else ""))
            sub.intermixed = True
            _server_options(sub)
            if word:
                sub.add_argument("tool", nargs="?", metavar=word, help=word_help)
            if action == "subscribe":
                sub.add_argument("--count", type=int, metavar="N", help=_("end after N updates"))
                sub.add_argument("--for", dest="for_s", type=float, metavar=_("SECONDS"),
                                 help=_("end after this many seconds"))
            if action == "get":
                sub.add_argument("--args", metavar="JSON", help=_("the prompt's arguments as a JSON object of strings"))
    complete = commands.add_parser("complete", help=_("ask a server to complete an argument of a prompt or a "
                                                      "resource template"),
                                   usage=server_usage.format(extra=" (--prompt NAME | --resource URI_TEMPLATE) "
                                                                   "--argument NAME [--value TEXT]"))
    complete.intermixed = True
    _server_options(complete)
    ref = complete.add_mutually_exclusive_group()  # neither, or no --argument: missing_words says how to write it
    ref.add_argument("--prompt", metavar="NAME", help=_("complete an argument of this prompt"))
    ref.add_argument("--resource", metavar=_("URI_TEMPLATE"), help=_("complete a variable of this resource template"))
    complete.add_argument("--argument", metavar="NAME", help=_("the argument (or variable) to complete"))
    complete.add_argument("--value", default="", metavar="TEXT", help=_("what has been typed of it so far"))
    complete.add_argument("--context", metavar="JSON",
                          help=_("the other arguments already given, as a JSON object of strings"))


def _push_options(export: argparse.ArgumentParser) -> None:
    """``export --otlp-endpoint``: the runs go to a collector instead of a file (cli/push.py)."""
    export.add_argument("--otlp-endpoint", metavar="URL",
                        help=_("send the runs to this OpenTelemetry collector (OTLP/HTTP, e.g. http://127.0.0.1:4318) "
                               "instead of writing a file; runs it cannot take now stay queued in the database's "
                               "outbox and are sent by the next push"))
    export.add_argument("--header", action="append", default=[], metavar=_('"Name: value"'),
                        help=_("a header sent to the collector, e.g. an API key (never stored or printed; "
                               "may be repeated)"))
    export.add_argument("--wait", default="30", metavar=_("SECONDS"),
                        help=_("how long to keep retrying a collector that is unavailable (default 30); what is "
                               "not sent by then stays queued"))


def _pull_options(importing: argparse.ArgumentParser) -> None:
    """``import --from-jaeger URL --trace ID`` (cli/pull.py)."""
    backend = importing.add_mutually_exclusive_group()
    backend.add_argument("--from-jaeger", metavar="URL",
                         help=_("open a trace from this Jaeger query service (its v3 API, e.g. "
                                "http://127.0.0.1:16686)"))
    backend.add_argument("--from-tempo", metavar="URL",
                         help=_("open a trace from this Tempo query service (e.g. http://127.0.0.1:3200)"))
    importing.add_argument("--trace", metavar="ID", help=_("the trace id (32 hexadecimal digits)"))
    importing.add_argument("--header", action="append", default=[], metavar=_('"Name: value"'),
                           help=_("a header sent to the query service, e.g. an API key (never stored or printed)"))


def _receive_command(commands: argparse._SubParsersAction) -> None:
    receive = commands.add_parser("receive", help=_("receive OTLP traces over HTTP (as an OpenTelemetry collector "
                                                    "does) and store them as runs, until Ctrl-C"))
    receive.add_argument("--port", default="4318", metavar="N",
                         help=_("the port to listen on (default 4318, OTLP/HTTP's; 0: any free port)"))
    receive.add_argument("--host", default="127.0.0.1", metavar=_("ADDRESS"),
                         help=_("the address to listen on (default 127.0.0.1, this machine only); any other "
                                "address requires a token, printed once at the start"))
    receive.add_argument("--quiet-after", default="5", metavar=_("SECONDS"),
                         help=_("a trace counts as finished this long after its last span (default 5)"))
    receive.add_argument("--lock-wait", default="60", metavar=_("SECONDS"),
                         help=_("how long a write waits while another program holds the database locked, "
                                "before its request is answered 503, retry later (default 60)"))
    receive.add_argument("--json", action="store_true",
                         help=_("print one JSON object per line: the address, then one per run received"))
    _db_option(receive)


def _server_commands(actions: argparse._SubParsersAction) -> None:
    """``servers set``, ``servers remove`` and ``servers import``."""
    configure = actions.add_parser("set", help=_("configure a server: an address, or a command with --command"),
                                   usage=_('%(prog)s URL [options]\n       %(prog)s NAME --command "COMMAND LINE" '
                                           '[options]'))
    configure.add_argument("url", nargs="?", metavar=_("URL_OR_NAME"),  # missing: missing_words says it
                           help=_("the server's address; with --command, the name the command server goes by"))
    configure.add_argument("--name", help=_("a display name"))
    configure.add_argument("--command", dest="command_line", metavar=_('"COMMAND LINE"'),
                           help=_("a server started as this command and spoken to over stdin/stdout (words split "
                                  "as a shell would, no shell run); replaces the command of a server of that name"))
    configure.add_argument("--env", action="append", default=[], metavar=_("NAME=VALUE"),
                           help=_("an environment variable for the command (may be repeated); values of variables "
                                  "named like credentials go to the system keyring, never to the database"))
    configure.add_argument("--secret-env", action="append", default=[], metavar=_("NAME=VALUE"),
                           help=_("an environment variable whose value is a credential whatever its name says"))
    configure.add_argument("--cwd", metavar=_("FOLDER"), help=_("the folder the command starts in"))
    configure.add_argument("--transport", choices=("http", "sse"),
                           help=_("how the address is spoken to: http (Streamable HTTP) or sse (the older "
                                  "HTTP+SSE transport)"))
    configure.add_argument("--era", choices=ERAS,
                           help=_("the era of MCP to speak to it: auto (the default: ask with server/discover, "
                                  "else the handshake), handshake (2025-11-25 and older) or stateless (2026-07-28)"))
    configure.add_argument("--budget", metavar=_("SECONDS"), help=_("this server's operation budget"))
    configure.add_argument("--header", action="append", default=[], metavar=_('"Name: value"'),
                           help=_("a header to send to it; credential values go to the system keyring, "
                                "never to the database"))
    configure.add_argument("--secret-header", action="append", default=[], metavar=_('"Name: value"'),
                           help=_("a header whose value is a credential whatever its name says "
                                "(kept like Authorization: never in the database)"))
    roots = configure.add_mutually_exclusive_group()
    roots.add_argument("--root", action="append", default=[], metavar=_("PATH_OR_URI"),
                       help=_("a folder offered to the server when it asks for roots (replaces the stored roots; "
                              "may be repeated); `call`, `tools` and `ping` use them unless --root is given there"))
    roots.add_argument("--clear-roots", action="store_true", help=_("offer this server no roots any more"))
    signin_options.add_client_options(configure)
    _late_options(configure)
    remove = actions.add_parser("remove", help=_("forget a configured server and its health (its runs stay)"),
                                usage=_("%(prog)s NAME_OR_URL [options]"))
    remove.add_argument("server", nargs="?", metavar=_("NAME_OR_URL"), help=_("the server's name or address"))
    _late_options(remove)
    importing = actions.add_parser("import", help=_("add the servers of a Claude Desktop, Cursor, VS Code or "
                                                    "MCP Inspector configuration file, shown first"),
                                   usage=_("%(prog)s FILE [options]"))
    importing.add_argument("file", nargs="?", metavar=_("FILE"),
                           help=_("the configuration file: Claude Desktop's, Cursor's, VS Code's or MCP Inspector's"))
    importing.add_argument("--yes", action="store_true",
                           help=_("add them without asking (without a terminal and without --yes nothing is added)"))
    _late_options(importing)


def _late_options(sub: argparse.ArgumentParser) -> None:
    """--json and --db after a `servers` action, as before it: unset here, they keep what `servers` got."""
    sub.add_argument("--json", action="store_true", default=argparse.SUPPRESS, help=_("print exactly one JSON object"))
    sub.add_argument("--db", metavar=_("PATH"), default=argparse.SUPPRESS, help=_("the run database"))


def _demo_commands(commands: argparse._SubParsersAction) -> None:
    serve = commands.add_parser("serve-demo", help=_("run the demo MCP server on 127.0.0.1 until Ctrl-C"))
    serve.add_argument("--port", default="0", metavar="N", help=_("the port to listen on (default: any free port)"))
    serve.add_argument("--handshake-delay", default="0", metavar=_("SECONDS"),
                       help=_("wait this long before answering initialize, notifications/initialized "
                              "and server/discover"))
    serve.add_argument("--page-size", metavar="N",
                       help=_("offer a long catalogue of extra tools, N per tools/list page"))
    serve.add_argument("--catalogue-size", metavar="N",
                       help=_("how many extra tools the long catalogue offers (with --page-size)"))
    serve.add_argument("--json-response", action="store_true", help=_("answer with JSON instead of event streams"))
    serve.add_argument("--stateless", action="store_true", help=_("issue no session id"))
    serve.add_argument("--stop-with-stdin", action="store_true",
                       help=_("stop when standard input closes (as it does when the program that started it ends)"))
    serve.add_argument("--json", action="store_true",
                       help=_("print exactly one JSON object: the address once it listens, or the error"))

    proxy = commands.add_parser("proxy", help=_("forward an agent's MCP traffic to a server and record each "
                                                "operation as a run, until Ctrl-C"),
                                usage=_("%(prog)s --to URL [options]"))
    proxy.add_argument("--to", metavar="URL",  # missing: proxy says what it needs
                       help=_("the server's MCP address (Streamable HTTP), e.g. http://127.0.0.1:8000/mcp"))
    proxy.add_argument("--listen", default="127.0.0.1:0", metavar="HOST:PORT",
                       help=_("where the agent connects (default 127.0.0.1 on any free port; the address is printed)"))
    proxy.add_argument("--budget", metavar=_("SECONDS"),
                       help=_("end an operation that takes longer than this, on the agent's behalf (default: never)"))
    proxy.add_argument("--stop-with-stdin", action="store_true",
                       help=_("stop when standard input closes (as it does when the program that started it ends)"))
    proxy.add_argument("--json", action="store_true",
                       help=_("print exactly one JSON object: the address once it listens, or the error"))
    _db_option(proxy)

    scenario = commands.add_parser("scenario", help=_("play a scripted agent run against the demo server"))
    scenario.add_argument("scenario", nargs="?", metavar=_("NAME|FILE"),
                          help=_("a shipped scenario's name or a JSON file"))
    scenario.add_argument("--list", action="store_true", help=_("list the shipped scenarios"))
    scenario.add_argument("--server", metavar="URL",
                          help=_("play against this server instead of a demo server started for the purpose"))
    scenario.add_argument("--cancel-after", metavar=_("SECONDS"), help=_("cancel the run after this many seconds"))
    scenario.add_argument("--budget", metavar=_("SECONDS"), help=_("time budget of each tool operation"))
    _json_option(scenario)
    _db_option(scenario)

    agent = commands.add_parser("agent", help=_("run the agent loop with an OpenAI-compatible chat model"),
                                usage=_('%(prog)s "PROMPT" --model-url URL --model NAME --server URL [options]'))
    # Any of these missing: missing_words says the whole command line (argparse named only what was missing).
    agent.add_argument("prompt", nargs="?", metavar="PROMPT", help=_("what to ask the model"))
    agent.add_argument("--model-url", metavar="URL",
                       help=_("the model server's base URL, e.g. http://127.0.0.1:11434/v1"))
    agent.add_argument("--model", metavar="NAME", help=_("the model's name"))
    agent.add_argument("--server", metavar="URL",
                       help=_("the MCP server whose tools the model may call"))
    agent.add_argument("--api-key-env", metavar="VARIABLE",
                       help=_("read the model's API key from this environment variable (never stored or printed); "
                            "otherwise the system keyring, then RUN_INSPECTOR_MODEL_API_KEY"))
    agent.add_argument("--ask-api-key", action="store_true",
                       help=_("ask for the model's API key at the terminal (kept in the system keyring if usable)"))
    agent.add_argument("--max-rounds", default="8", metavar="N", help=_("stop after this many rounds (default 8)"))
    agent.add_argument("--cancel-after", metavar=_("SECONDS"), help=_("cancel the run after this many seconds"))
    agent.add_argument("--budget", metavar=_("SECONDS"), help=_("time budget of each tool operation"))
    agent.add_argument("--live", action="store_true",
                       help=_("print the model's words on standard error as they arrive"))
    _json_option(agent)
    _db_option(agent)
