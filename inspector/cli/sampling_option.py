"""``--allow-sampling [N]`` and ``--sampling-max-tokens N``: how much of the user's model a server may use.

``--allow-sampling`` approves at most N sampling requests for the command (:data:`DEFAULT_APPROVED`
without a number); beyond that each is refused. Light on purpose: the parser imports it.
"""

from __future__ import annotations

from inspector.i18n import _

from .numbers import whole_number

OPTION = "--allow-sampling"
#: The requests ``--allow-sampling`` approves without a number.
DEFAULT_APPROVED = 3
#: The most requests one command may approve.
LARGEST_APPROVED = 1000
#: The cap on a sampled answer (tokens) and its largest value: inspector.agent.sampling's (which the
#: parser may not import: it brings the network); a test keeps them equal.
DEFAULT_MAX_TOKENS = 1024
LARGEST_MAX_TOKENS = 1_000_000

approved_count = whole_number("a number of sampling requests", 1, LARGEST_APPROVED, lambda: _(
    "--allow-sampling takes the number of sampling requests to approve, a whole number from {low} to {high}, "
    "not {text}"))
max_tokens = whole_number("a number of tokens", 1, LARGEST_MAX_TOKENS, lambda: _(
    "--sampling-max-tokens takes a whole number from {low} to {high}, not {text}"))


def with_bare_flag_counted(argv: list[str]) -> list[str]:
    """``--allow-sampling`` without a number before another word (``call --allow-sampling URL TOOL``)
    written as ``--allow-sampling=3``, so that the word stays what it was before the option took a number."""
    out: list[str] = []
    for index, word in enumerate(argv):
        if word == "--":
            return out + argv[index:]
        following = argv[index + 1] if index + 1 < len(argv) else None
        if word == OPTION and following is not None and not following.startswith("-") \
                and not following.strip().isdigit():
            word = f"{OPTION}={DEFAULT_APPROVED}"
        out.append(word)
    return out
