"""An option given by its beginning is kept (``call --arg`` for ``--args``: people rely on them), but a refusal that
names the option says what was typed was read so: ``ping export --all`` (meant for ``export``) was refused with
"--allow-sampling needs a model" alone, an option the user never typed."""

from __future__ import annotations

import json

import pytest

from tests.support.cli_process import cli_here


@pytest.mark.parametrize("typed", ["--all", "--allow-s"])
def test_a_refusal_says_which_beginning_was_read_as_the_option_it_names(typed: str) -> None:
    refused = cli_here("ping", "export", typed)
    assert refused.returncode == 2
    assert "--allow-sampling needs a model" in refused.stderr
    assert f"({typed} was read as --allow-sampling, the one option of this command it begins.)" in refused.stderr
    german = cli_here("--lang", "de", "ping", "export", typed)
    assert f"({typed} wurde als --allow-sampling gelesen, die einzige Option dieses Befehls" in german.stderr
    said = json.loads(cli_here("--json", "ping", "export", typed).stdout)["error"]
    assert said["kind"] == "usage" and f"{typed} was read as --allow-sampling" in said["message"]


def test_an_option_typed_whole_is_refused_as_before() -> None:
    refused = cli_here("ping", "export", "--allow-sampling")
    assert refused.returncode == 2 and "was read as" not in refused.stderr
    assert "--allow-sampling needs a model" in refused.stderr


def test_each_refusal_about_sampling_says_so() -> None:
    refused = cli_here("ping", "export", "--sampling-max", "3")
    assert refused.returncode == 2
    assert "--sampling-max-tokens takes effect only with --allow-sampling." in refused.stderr
    assert "(--sampling-max was read as --sampling-max-tokens, the one option" in refused.stderr
