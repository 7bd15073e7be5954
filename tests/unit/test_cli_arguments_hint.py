"""`call URL TOOL text=hi`: the usage error says how a tool's arguments are given (as JSON in --args),
with the user's own pairs as the example; other stray words get argparse's sentence and the help that says
what the command takes."""

from __future__ import annotations

import json
import shlex

import pytest

from inspector.cli import main


def test_key_value_pairs_after_call_get_the_args_example(capsys, tmp_path) -> None:
    status = main(["--db", str(tmp_path / "runs.db"), "call", "http://127.0.0.1:9/mcp", "echo", "text=hi", "n=2"])
    err = capsys.readouterr().err
    assert status == 2
    assert "unrecognized arguments: text=hi n=2. A tool's arguments go in --args, as JSON: --args " in err
    example = err.strip().rsplit("--args ", 1)[1]
    assert json.loads(shlex.split(example)[0]) == {"text": "hi", "n": 2}
    assert not (tmp_path / "runs.db").exists()  # refused before anything was opened or sent


def test_the_example_types_values_as_the_args_hint_does(capsys, tmp_path) -> None:
    """`call URL get-sum a=2 b=3` suggested {"a": "2", "b": "3"}: strings where the tool wants numbers (and
    `--args a=2` suggested {"a": 2}). Numbers, true, false and null are JSON; anything else stays text."""
    typed = ["a=2", "b=-1.5e3", "ok=true", "none=null", "word=hi", "zero=007", "nan=NaN", 'quoted="x"', "list=[1]"]
    assert main(["--db", str(tmp_path / "runs.db"), "call", "http://127.0.0.1:9/mcp", "get-sum", *typed]) == 2
    example = capsys.readouterr().err.strip().rsplit("--args ", 1)[1]
    assert json.loads(shlex.split(example)[0]) == {
        "a": 2, "b": -1500.0, "ok": True, "none": None, "word": "hi", "zero": "007", "nan": "NaN", "quoted": '"x"',
        "list": "[1]"}


@pytest.mark.parametrize("pairs", [["message=pipe"], ["a=1", "b=2"]])
def test_key_value_pairs_after_a_stdio_call_get_the_args_example(capsys, tmp_path, pairs) -> None:
    """With --stdio the tool's name is the one word: `call --stdio CMD echo message=pipe` was told that
    "echo" was a server word that might belong to the command (and `a=1 b=2` lost its first pair)."""
    status = main(["--db", str(tmp_path / "runs.db"), "call", "--stdio", "server-cmd --flag", "echo", *pairs])
    err = capsys.readouterr().err
    assert status == 2
    assert f"unrecognized arguments: {' '.join(pairs)}. A tool's arguments go in --args, as JSON: --args " in err
    example = err.strip().rsplit("--args ", 1)[1]
    assert json.loads(shlex.split(example)[0]) == {name: int(value) if value.isdigit() else value
                                                  for name, value in (pair.split("=") for pair in pairs)}
    assert not (tmp_path / "runs.db").exists()


def test_other_stray_words_say_argparses_sentence_and_the_help(capsys, tmp_path) -> None:
    assert main(["--db", str(tmp_path / "runs.db"), "call", "http://127.0.0.1:9/mcp", "echo", "bogus"]) == 2
    err = capsys.readouterr().err
    assert err.strip().endswith("unrecognized arguments: bogus. `run-inspector call --help` says what the command "
                                "takes.")
    assert main(["--db", str(tmp_path / "runs.db"), "tools", "http://127.0.0.1:9/mcp", "a=b"]) == 2
    assert "--args" not in capsys.readouterr().err  # only call takes a tool's arguments


def test_a_server_where_the_action_goes_gets_an_example_with_the_action(capsys, tmp_path) -> None:
    """`resources URL` (as `tools URL` is written) said argparse's "argument {list,templates,read,
    subscribe}: invalid choice: 'http://…'"."""
    db = str(tmp_path / "runs.db")
    assert main(["--db", db, "resources", "http://127.0.0.1:9/mcp"]) == 2
    assert capsys.readouterr().err.strip() == (
        "run-inspector: resources needs what to do before the server, e.g. run-inspector resources list "
        "http://127.0.0.1:9/mcp; it can do: list, templates, read, subscribe.")
    assert main(["--lang", "de", "--db", db, "prompts", "http://127.0.0.1:9/mcp"]) == 2
    assert capsys.readouterr().err.strip() == (
        "run-inspector: prompts braucht vor dem Server, was zu tun ist, z. B. run-inspector prompts list "
        "http://127.0.0.1:9/mcp; möglich: list, get.")
    # A key in the address's query or user info is not repeated (review63): the example marks the query.
    assert main(["--db", db, "resources", "http://me:pw-7f3a@127.0.0.1:9/mcp?api_key=k-51c2"]) == 2
    said = capsys.readouterr().err
    assert "e.g. run-inspector resources list http://127.0.0.1:9/mcp?…;" in said
    assert "k-51c2" not in said and "pw-7f3a" not in said
    # The query marked where it was, before a fragment (the example said "http://127.0.0.1:9/mcp#top?…"), and the
    # fragment marked as the query is: a token may be there (OAuth's implicit flow, "#access_token=…").
    assert main(["--db", db, "resources", "http://127.0.0.1:9/mcp?api_key=k-51c2#access_token=t-9a8b"]) == 2
    said = capsys.readouterr().err
    assert "e.g. run-inspector resources list http://127.0.0.1:9/mcp?…#…;" in said
    assert "t-9a8b" not in said
    assert main(["--db", db, "resources", "lis"]) == 2  # a mistyped action: the nearest one, and the choices
    assert "'lis' is not a command of run-inspector resources: did you mean list?" in capsys.readouterr().err
    assert not (tmp_path / "runs.db").exists()


def test_a_mistyped_servers_action_names_the_actions_not_an_internal_name(tmp_path, capsys) -> None:
    """`servers frob` said "argument servers_command: invalid choice" (`runs frob` names {list,show,note})."""
    from inspector.cli import main

    assert main(["--db", str(tmp_path / "runs.db"), "servers", "frob", "--lang", "en"]) == 2
    said = capsys.readouterr().err
    assert "servers_command" not in said
    assert said == ("run-inspector: 'frob' is not a command of run-inspector servers. `run-inspector servers --help` "
                    "lists its commands: set, remove, import.\n")


def test_an_offering_without_its_server_names_the_action_as_typed(capsys, tmp_path) -> None:
    """`resources list` (no server) said "resources needs a server: resources SERVER", a line that, typed,
    is refused again: the action belongs in it, in English and in German."""
    for words in (["resources", "list"], ["resources", "templates"], ["prompts", "list"], ["skills", "list"]):
        typed = " ".join(words)
        assert main(["--db", str(tmp_path / "runs.db"), *words, "--lang", "en"]) == 2
        assert capsys.readouterr().err == (f"run-inspector: {typed} needs a server: {typed} SERVER (an address or a "
                                           f"configured server's name), or {typed} --stdio \"COMMAND LINE\"\n")
    assert main(["resources", "list", "--lang", "de", "--db", str(tmp_path / "runs.db")]) == 2
    assert capsys.readouterr().err.startswith("run-inspector: resources list braucht einen Server: resources list "
                                              "SERVER (")
    assert main(["resources", "list", "--stdio", "echo x", "extra", "--lang", "en",
                 "--db", str(tmp_path / "runs.db")]) == 2
    assert "so resources list takes no server word" in capsys.readouterr().err
    assert not (tmp_path / "runs.db").exists()


def test_an_option_before_the_action_gets_an_example_with_the_action_first(capsys, tmp_path) -> None:
    """`prompts --stdio "CMD"` (as `tools --stdio "CMD"` is written) said argparse's "argument {list,get}: invalid
    choice: 'CMD'": the option's value was taken for the action; `prompts --budget 5 list URL` said "invalid
    choice: '5'". Found by trying `prompts` and `resources` against mcp-server-fetch after `tools --stdio` worked."""
    db = str(tmp_path / "runs.db")
    assert main(["--db", db, "prompts", "--stdio", "mcp-server-fetch --ignore-robots-txt"]) == 2
    assert capsys.readouterr().err.strip() == (
        'run-inspector: prompts needs what to do before the server, e.g. run-inspector prompts list --stdio '
        '"mcp-server-fetch --ignore-robots-txt"; it can do: list, get.')
    assert main(["--db", db, "resources", "--stdio", "server-cmd", "templates"]) == 2  # the action typed, not the first
    assert "e.g. run-inspector resources templates --stdio \"server-cmd\";" in capsys.readouterr().err
    assert main(["--lang", "de", "--db", db, "skills", "--stdio", "server-cmd"]) == 2
    assert capsys.readouterr().err.strip() == (
        'run-inspector: skills braucht vor dem Server, was zu tun ist, z. B. run-inspector skills list --stdio '
        '"server-cmd"; möglich: list, get, load.')
    # Another option's value is not repeated (a --header's may be a credential).
    assert main(["--db", db, "prompts", "--header", "Authorization: Bearer t-93be", "get",
                 "http://127.0.0.1:9/mcp"]) == 2
    said = capsys.readouterr().err
    assert said.strip() == ("run-inspector: prompts needs what to do right after it, before its options, e.g. "
                            "run-inspector prompts get --header …; it can do: list, get.")
    assert "t-93be" not in said
    assert main(["--lang", "de", "--db", db, "resources", "--budget", "5", "list", "http://127.0.0.1:9/mcp"]) == 2
    assert capsys.readouterr().err.strip() == (
        "run-inspector: resources braucht direkt danach, was zu tun ist, vor seinen Optionen, z. B. run-inspector "
        "resources list --budget …; möglich: list, templates, read, subscribe.")
    assert not (tmp_path / "runs.db").exists()



def test_a_mistyped_action_after_a_groups_own_flag_names_the_nearest_action(capsys, tmp_path) -> None:
    """`runs --json shwo` said "runs needs what to do right after it, before its options, e.g. run-inspector runs
    list --json …", though `runs --json show 3` is right: --json takes no value, so 'shwo' is a mistyped action,
    said as `runs shwo` says it (the two merged sentences of cli/common.py's _check_value)."""
    db = str(tmp_path / "runs.db")
    for words, said in ((["runs", "--json", "shwo"], "'shwo' is not a command of run-inspector runs: did you mean "
                                                     "show?"),
                        (["servers", "--json", "sett", "x"], "'sett' is not a command of run-inspector servers: did "
                                                             "you mean set?"),
                        (["prompts", "--json", "lst", "http://127.0.0.1:9/mcp"], "'lst' is not a command of "
                                                                                 "run-inspector prompts: did you "
                                                                                 "mean list?")):
        assert main(["--db", db, *words]) == 2
        assert said in capsys.readouterr().err
    assert main(["--db", db, "prompts", "--json", "http://127.0.0.1:9/mcp"]) == 2  # a server there: as before
    assert "e.g. run-inspector prompts list http://127.0.0.1:9/mcp;" in capsys.readouterr().err
    assert not (tmp_path / "runs.db").exists()
