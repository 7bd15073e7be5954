"""What a first-time user types and was refused without a way on: `runs list --status failed` (the
column says Status, the help "this status"; the option is --outcome), an option a command does not
take (argparse's sentence alone named no help), `call ADDRESS` without the tool (the sentence asked
for "a server and the tool's name" when the server was there), a mistyped command (argparse's sentence
named its internal name, "argument command: invalid choice", in German "Argument command: ungültige
Wahl", and no way on)."""

from __future__ import annotations

import pytest

from inspector.cli import main
from inspector.cli.parser import build_parser


def test_status_is_a_second_name_of_outcome(capsys, tmp_path) -> None:
    db = str(tmp_path / "runs.db")
    assert main(["--db", db, "runs", "list", "--status", "failed"]) == 0
    assert build_parser().parse_args(["runs", "list", "--status", "failed"]).outcome == "failed"
    assert build_parser().parse_args(["export", "--status", "cancelled", "-o", "x.json"]).outcome == "cancelled"
    capsys.readouterr()
    assert main(["--db", db, "runs", "list", "--status", "bogus"]) == 2  # the same choices as --outcome
    assert "invalid choice: 'bogus'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["runs", "list", "--help"])
    shown = capsys.readouterr().out
    assert "--outcome" in shown and "--status" not in shown  # the help names the option once


@pytest.mark.parametrize(("language", "said"), [
    ("en", "run-inspector: unrecognized arguments: --since 3. `run-inspector runs list --help` lists the options "
           "it takes.\n"),
    ("de", "run-inspector: unbekannte Argumente: --since 3. `run-inspector runs list --help` nennt die Optionen, "
           "die der Befehl kennt.\n")])
def test_an_unknown_option_names_the_help_of_its_command(capsys, tmp_path, language, said) -> None:
    assert main(["--lang", language, "--db", str(tmp_path / "runs.db"), "runs", "list", "--since", "3"]) == 2
    assert capsys.readouterr().err == said
    assert main(["--db", str(tmp_path / "runs.db"), "servers", "set", "--frob"]) == 2
    assert "`run-inspector servers set --help` lists" in capsys.readouterr().err
    assert not (tmp_path / "runs.db").exists()  # refused before anything was opened


def test_stray_words_and_the_window_name_the_help(capsys, tmp_path) -> None:
    assert main(["--db", str(tmp_path / "runs.db"), "call", "http://127.0.0.1:9/mcp", "echo", "bogus"]) == 2
    assert capsys.readouterr().err == ("run-inspector: unrecognized arguments: bogus. `run-inspector call --help` "
                                       "says what the command takes.\n")  # not an option: what it takes
    assert main(["--db", str(tmp_path / "runs.db"), "--frob"]) == 2  # the window's options: its own help
    assert capsys.readouterr().err == ("run-inspector: unrecognized arguments: --frob. `run-inspector --help` lists "
                                       "the options it takes.\n")


@pytest.mark.parametrize(("language", "said"), [
    ("en", "run-inspector: call needs the tool's name after the server: call http://127.0.0.1:9/mcp TOOL. "
           "`run-inspector tools http://127.0.0.1:9/mcp` lists the tools it offers.\n"),
    ("de", "run-inspector: call braucht nach dem Server den Namen des Tools: call http://127.0.0.1:9/mcp TOOL. "
           "`run-inspector tools http://127.0.0.1:9/mcp` listet die Tools, die er anbietet.\n")])
def test_call_with_an_address_alone_asks_for_the_tool_and_says_where_tools_are_listed(capsys, tmp_path, language,
                                                                                      said) -> None:
    # The address as it may be shown: its user name, password and query are not said back.
    assert main(["--lang", language, "--db", str(tmp_path / "runs.db"), "call",
                 "http://me:secret@127.0.0.1:9/mcp?token=t0k"]) == 2
    err = capsys.readouterr().err
    assert err == said
    assert "secret" not in err and "t0k" not in err
    assert not (tmp_path / "runs.db").exists()


def test_call_with_one_word_that_is_no_address_keeps_asking_for_both(capsys, tmp_path) -> None:
    assert main(["--db", str(tmp_path / "runs.db"), "call", "echo"]) == 2  # the tool, perhaps, without its server
    assert capsys.readouterr().err == ("run-inspector: call needs a server and the tool's name: call SERVER TOOL, or "
                                       "call --stdio \"COMMAND LINE\" TOOL\n")


@pytest.mark.parametrize(("language", "said"), [
    ("en", "run-inspector: 'run' is not a command of run-inspector: did you mean runs? `run-inspector --help` lists "
           "its commands: call, replay, task, tools, ping, resources, prompts, complete, skills, signin, signout, "
           "runs, compare, export, import, servers, serve-demo, proxy, scenario, agent, receive.\n"),
    ("de", "run-inspector: 'run' ist kein Befehl von run-inspector: meinten Sie runs? `run-inspector --help` nennt "
           "seine Befehle: call, replay, task, tools, ping, resources, prompts, complete, skills, signin, signout, "
           "runs, compare, export, import, servers, serve-demo, proxy, scenario, agent, receive.\n")])
def test_a_mistyped_command_names_the_nearest_one_and_the_help(capsys, tmp_path, language, said) -> None:
    assert main(["--lang", language, "--db", str(tmp_path / "runs.db"), "run", "list"]) == 2
    assert capsys.readouterr().err == said
    assert main(["--lang", language, "runs", "shwo"]) == 2  # a group's command: the group's help
    assert "'shwo'" in (err := capsys.readouterr().err) and "run-inspector runs: " in err and " show? " in err
    assert "`run-inspector runs --help`" in err and err.endswith(": list, show, note.\n")
    assert main(["--lang", language, "frobnicate"]) == 2  # nothing near: the commands alone
    err = capsys.readouterr().err
    assert "'frobnicate'" in err and "?" not in err and "argument" not in err.lower()
    assert "`run-inspector --help`" in err
    assert not (tmp_path / "runs.db").exists()


@pytest.mark.parametrize(("word", "instead"), [("play", "scenario"), ("list", "runs list"), ("show", "runs show"),
                                                ("note", "runs note")])
def test_a_word_of_the_window_or_the_readme_names_the_command_that_does_it(capsys, tmp_path, word, instead) -> None:
    # The window's Play is `scenario`: the nearest spelling, `replay`, calls a stored step again; `list`, `show`
    # and `note` are actions of `runs`, which no spelling nearby named.
    assert main(["--db", str(tmp_path / "runs.db"), word, "3"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"run-inspector: {word!r} is not a command of run-inspector: did you mean "
                          f"`run-inspector {instead}`? `run-inspector --help` lists its commands: call, ")
    assert "replay?" not in err
    assert main(["--lang", "de", "--db", str(tmp_path / "runs.db"), word]) == 2
    assert f"meinten Sie `run-inspector {instead}`?" in capsys.readouterr().err
    assert main(["runs", "play"]) == 2  # not a word of `runs`: its commands, as before
    assert capsys.readouterr().err.startswith("run-inspector: 'play' is not a command of run-inspector runs. ")
    assert not (tmp_path / "runs.db").exists()


@pytest.mark.parametrize(("language", "said"), [
    ("en", "run-inspector: {word!r} is not a command of run-inspector servers: `run-inspector servers` without a "
           "command lists them. `run-inspector servers --help` lists its commands: set, remove, import.\n"),
    ("de", "run-inspector: {word!r} ist kein Befehl von run-inspector servers: `run-inspector servers` ohne Befehl "
           "listet sie auf. `run-inspector servers --help` nennt seine Befehle: set, remove, import.\n")])
def test_listing_the_servers_as_runs_are_listed_says_that_servers_alone_lists_them(capsys, tmp_path, language,
                                                                                   said) -> None:
    """`servers list` (as `runs list` lists the runs) named only the group's commands, none of which lists them."""
    for word in ("list", "ls"):
        assert main(["--lang", language, "--db", str(tmp_path / "runs.db"), "servers", word]) == 2
        assert capsys.readouterr().err == said.format(word=word)
    assert main(["--lang", language, "runs", "ls"]) == 2  # a group whose listing is an action: as before
    assert "`run-inspector runs` " not in capsys.readouterr().err
    assert not (tmp_path / "runs.db").exists()


@pytest.mark.parametrize(("language", "said"), [
    ("en", "runs list or show stored runs, or write a note on one "),
    ("de", "runs gespeicherte Läufe auflisten, zeigen oder mit einer Notiz versehen ")])
def test_the_commands_help_says_that_runs_writes_notes_too(capsys, language, said) -> None:
    """Asked to attach a note with a finding, a new user read `--help`: `runs` said "list or show stored runs",
    and no other command spoke of notes (`runs note` was found only by typing `note`)."""
    with pytest.raises(SystemExit):
        main(["--lang", language, "--help"])
    assert said in " ".join(capsys.readouterr().out.split()) + " "


@pytest.mark.parametrize(("language", "said"), [
    ("en", "run-inspector: export needs the runs to write (RUN ..., --outcome STATUS or --all) and where to: "
           "-o FILE or --otlp-endpoint URL; e.g. export last -o runs.json\n"),
    ("de", "run-inspector: export braucht die zu schreibenden Läufe (LAUF ..., --outcome STATUS oder --all) und "
           "ihr Ziel: -o DATEI oder --otlp-endpoint URL; z. B. export last -o runs.json\n")])
def test_a_bare_export_says_both_what_it_needs(capsys, tmp_path, language, said) -> None:
    """`export` alone said it needed -o FILE; given that, it said it needed the runs: two refusals for one
    command. Both are said at once; either given, the other is said alone, as before."""
    db = str(tmp_path / "runs.db")
    assert main(["--lang", language, "--db", db, "export"]) == 2
    assert capsys.readouterr().err == said
    assert main(["--db", db, "export", "-o", str(tmp_path / "runs.json")]) == 2
    assert "export needs RUN ..., --outcome STATUS or --all" in capsys.readouterr().err
    assert main(["--db", db, "export", "last"]) == 2
    assert "export needs -o FILE (the file to write) or --otlp-endpoint URL" in capsys.readouterr().err
    assert not (tmp_path / "runs.db").exists() and not (tmp_path / "runs.json").exists()
