"""The grammar of `call`, `tools` and `ping` with a server given as an address, a name or `--stdio`."""

from __future__ import annotations

import argparse

import pytest

from inspector.cli.common import UsageError
from inspector.cli.parser import build_parser
from inspector.cli.server_choice import ad_hoc_command, check_server_words, choose_server, not_a_server


def words(*argv: str) -> argparse.Namespace:
    args = build_parser().parse_args(list(argv))
    check_server_words(args)
    return args


def refused(*argv: str) -> str:
    with pytest.raises(UsageError) as caught:
        words(*argv)
    return str(caught.value)


def test_call_with_stdio_takes_the_tool_as_its_one_word_wherever_it_stands() -> None:
    for argv in (["call", "--stdio", "npx -y pkg", "echo"], ["call", "echo", "--stdio", "npx -y pkg"],
                 ["call", "--json", "--stdio", "npx -y pkg", "--no-store", "echo", "--args", "{}"]):
        args = words(*argv)
        assert (args.url, args.tool, args.stdio) == (None, "echo", "npx -y pkg")


def test_call_with_an_address_takes_server_then_tool_around_options() -> None:
    args = words("call", "http://127.0.0.1:1/mcp", "--json", "echo")
    assert (args.url, args.tool, args.json) == ("http://127.0.0.1:1/mcp", "echo", True)


def test_missing_words_say_how_to_write_the_command() -> None:
    assert refused("call", "--stdio", "npx pkg") == 'call needs the tool\'s name: call --stdio "COMMAND LINE" TOOL'
    assert "call SERVER TOOL, or call --stdio" in refused("call", "echo")
    assert 'tools SERVER (an address or a configured server\'s name), or tools --stdio' in refused("tools")


def test_an_unquoted_command_line_is_shown_quoted() -> None:
    message = refused("tools", "--stdio", "python", "server.py")
    assert message.endswith('put the whole command line in quotes: --stdio "python server.py"')
    message = refused("call", "--stdio", "python", "server.py", "echo")
    assert message.endswith('--stdio "python server.py"')


def test_options_for_addresses_are_refused_with_stdio() -> None:
    assert refused("tools", "--stdio", "x", "--sse").startswith("--sse is for a server at an address")
    assert refused("tools", "--stdio", "x", "--header", "A: b").startswith("--header is for a server at an address")


def test_env_and_cwd_go_with_the_command() -> None:
    args = words("tools", "--stdio", "run 'a b' c", "--env", "API_KEY=k=v", "--env", "MODE=x", "--cwd", "/tmp")
    command = ad_hoc_command(args)
    assert command.argv == ["run", "a b", "c"]
    assert dict(command.env) == {"API_KEY": "k=v", "MODE": "x"} and command.cwd == "/tmp"
    with pytest.raises(UsageError) as caught:
        ad_hoc_command(words("tools", "--stdio", "run", "--env", "no-equals-sign-secret"))
    assert "NAME=VALUE" in str(caught.value) and "no-equals-sign-secret" not in str(caught.value)
    with pytest.raises(UsageError) as caught:
        choose_server(None, words("tools", "http://127.0.0.1:1/mcp", "--env", "A=b"), None, {})
    assert str(caught.value).startswith("--env and --cwd are for a server started as a command")


def test_an_env_word_without_a_usable_name_is_refused_as_the_options_mistake_not_the_commands() -> None:
    # "--stdio cannot be started: '' is not an environment variable name" blamed the command line.
    with pytest.raises(UsageError) as caught:
        ad_hoc_command(words("tools", "--stdio", "run", "--env", "=secret-value"))
    assert str(caught.value) == ("--env needs the form NAME=VALUE, e.g. API_KEY=... (what was given is not repeated "
                                 "here, as it may be a credential)")
    with pytest.raises(UsageError) as caught:
        ad_hoc_command(words("tools", "--stdio", "run", "--env", "API KEY=secret-value"))
    assert str(caught.value) == ("--env needs the form NAME=VALUE: 'API KEY' is not an environment variable name: use "
                                 "letters, digits and '_', not starting with a digit")


def test_a_bad_command_line_is_one_sentence() -> None:
    with pytest.raises(UsageError) as caught:
        ad_hoc_command(words("tools", "--stdio", 'a "b'))
    assert str(caught.value) == "--stdio cannot be started: the command line has a quote that is not closed"
    with pytest.raises(UsageError) as caught:
        ad_hoc_command(words("tools", "--stdio", "  "))
    assert str(caught.value).startswith("--stdio cannot be started: the command is empty")


def test_a_word_that_is_no_address_and_no_name_suggests_stdio_with_the_words_as_typed() -> None:
    typed = "npx -y @modelcontextprotocol/server-filesystem /tmp"
    assert str(not_a_server(typed)).endswith(f'write: --stdio "{typed}"')
    assert str(not_a_server("uvx mcp-server-time --local-timezone=$TZ")).endswith(
        "--stdio 'uvx mcp-server-time --local-timezone=$TZ'")
    assert "did you mean http://127.0.0.1:8000/mcp?" in str(not_a_server("127.0.0.1:8000/mcp"))
    with pytest.raises(UsageError) as caught:
        choose_server(None, words("tools", typed), None, {})
    assert str(caught.value) == str(not_a_server(typed))


def test_usage_shows_both_forms() -> None:
    usage = build_parser()._subparsers._group_actions[0].choices["call"].format_usage()  # type: ignore[union-attr]
    assert 'run-inspector call [options] SERVER TOOL' in usage
    assert 'run-inspector call [options] --stdio "COMMAND LINE" TOOL' in usage


def test_every_command_that_takes_stdio_shows_its_stdio_form() -> None:
    """`task` takes --stdio (its SERVER "left out with --stdio") but its usage showed SERVER TASK_ID alone."""
    commands = build_parser()._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    for name, command in commands.items():
        takes_stdio = any("--stdio" in action.option_strings for action in command._actions)
        if takes_stdio and name != "replay":  # replay's server is an option: its RUN:STEP comes alone
            assert '--stdio "COMMAND LINE"' in command.format_usage(), name
    assert 'run-inspector task [options] --stdio "COMMAND LINE" TASK_ID' in commands["task"].format_usage()


def test_replays_help_says_its_run_is_named_as_runs_show_takes_it(capsys) -> None:
    from inspector.cli import main

    with pytest.raises(SystemExit):
        main(["replay", "--help"])
    assert "last~N or the beginning of its uid) and its number in the run, e.g. 17:3 or last:1" in " ".join(
        capsys.readouterr().out.split())


def test_every_positional_argument_of_a_command_says_what_it_is() -> None:
    """`import --help` listed FILE with no words beside it."""
    def parsers(parser):  # type: ignore[no-untyped-def]
        yield parser
        for action in parser._actions:
            if isinstance(action.choices, dict):
                for child in action.choices.values():
                    yield from parsers(child)

    silent = [f"{parser.prog} {action.metavar or action.dest}" for parser in parsers(build_parser())
              for action in parser._positionals._group_actions
              if not isinstance(action.choices, dict) and not action.help]
    assert silent == []


def test_signout_offers_only_what_it_uses(capsys) -> None:
    """`signout --help` listed --budget ("for the whole sign-in") and every sign-in option, none of
    which signing out (forgetting the tokens) uses; the README promises `signout SERVER [--json]`."""
    from inspector.cli import main

    with pytest.raises(SystemExit):
        main(["signout", "--help", "--lang", "en"])
    shown = capsys.readouterr().out
    assert "--json" in shown and "--db" in shown
    assert "--budget" not in shown and "--client-id" not in shown and "--grant" not in shown
    with pytest.raises(SystemExit):
        main(["signin", "--help", "--lang", "en"])
    shown = capsys.readouterr().out
    assert "--budget" in shown and "--client-id" in shown and "--grant" in shown
