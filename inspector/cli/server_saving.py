"""``servers set`` all or nothing: a server's settings and its secrets in the keyring change together.

The settings were written, and the secrets put in the keyring, one after the other: a keyring that refused one
(locked) left the settings changed beside the secret kept before (a later call sent the old key, though the
command said it would be asked for), and a secret the change dropped was removed from the keyring all the same
(the server lost its working key, the new one not kept). Now the settings are written in one transaction, kept
only once the keyring kept every secret given; a secret the change drops is removed only then; and the entries
written before a refusal (or a Ctrl-C) get their earlier values back.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from inspector.i18n import N_
from inspector.i18n.messages import Message
from inspector.store import RunStore
from inspector.store.secrets import SecretKeeper, system_secret_keeper

from .common import CancelledCommand
from .keyring_refusals import NotingKeeper, not_saved_error
from .stopping import Terminated, sigterm_as_ctrl_c


class HeldKeeper:
    """A :class:`SecretKeeper` for one change: what it writes can be taken back (:meth:`undo`), what it removes
    waits for the change to be kept (:meth:`done`). A secret whose earlier value the keyring would not give is
    not written (it could not be put back): it counts as not kept."""

    def __init__(self, keeper: SecretKeeper | None = None) -> None:
        self._keeper = keeper if keeper is not None else system_secret_keeper()
        #: The entries written: (server, account, the value before, or None when there was none).
        self._written: list[tuple[str, str, str | None]] = []
        self._removals: list[tuple[str, str]] = []

    @property
    def available(self) -> bool:
        return self._keeper.available

    @property
    def problem(self) -> str | None:
        return self._keeper.problem

    def save(self, server_url: str, header: str, value: str) -> bool:
        before = self._keeper.load(server_url, header)
        if self._keeper.problem is not None:
            return False
        kept = self._keeper.save(server_url, header, value)
        if kept:
            self._written.append((server_url, header, before))
        return kept

    def load(self, server_url: str, header: str) -> str | None:
        return self._keeper.load(server_url, header)

    def delete(self, server_url: str, header: str) -> bool:
        self._removals.append((server_url, header))
        return True

    def done(self) -> None:
        """The change is kept: the entries it dropped are removed."""
        for server_url, header in self._removals:
            self._keeper.delete(server_url, header)

    def undo(self) -> None:
        """The change is not kept: the entries it wrote get their earlier values back (or go)."""
        for server_url, header, before in reversed(self._written):
            if before is None:
                self._keeper.delete(server_url, header)
            else:
                self._keeper.save(server_url, header, before)


@contextmanager
def saved_whole(store: RunStore, held: HeldKeeper, keeper: NotingKeeper, key: str, shown: str) -> Iterator[None]:
    """Within the block the server ``key`` (``shown`` so) is changed in one transaction, with ``keeper`` (noting
    ``held``'s refusals): kept when the keyring kept all its secrets, else (or on a Ctrl-C, a SIGTERM, an error)
    neither the settings nor the keyring change, and a refusal or a stop ends the command with a sentence saying
    so (a SIGTERM killed it half way)."""
    try:
        with sigterm_as_ctrl_c(), store.transaction():
            yield
            refused = not_saved_error(keeper, key, shown)
            if refused is not None:
                raise refused
    except KeyboardInterrupt as stop:
        held.undo()
        raise CancelledCommand(Message(
            N_("Ended by a signal (SIGTERM) before {server} was saved: its settings and its secrets were left as "
               "they were.") if isinstance(stop, Terminated) else
            N_("Cancelled (Ctrl-C) before {server} was saved: its settings and its secrets were left as they were."),
            {"server": shown})) from None
    except BaseException:
        held.undo()
        raise
    held.done()


__all__ = ["HeldKeeper", "saved_whole"]
