"""The entries of the Runs tab's server filter: the words the Server column says, each once, and each
choosing the runs whose cell says them. An address names one server wherever it is read, but a loopback
address (127.0.0.1, localhost) in an imported run was the machine that recorded it: the column shows the
server named here at that address for this machine's runs and the address for the imported ones, and
the filter lists the two apart (choosing the name leaves the other machine's runs out)."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox

from inspector.i18n import _
from inspector.i18n.run_cells import server_shown
from inspector.i18n.scenarios import own_demo_server
from inspector.runs.loopback import recorded_elsewhere
from inspector.runs.replaying import OWN_DEMO_ORIGIN

from ..widgets.plain_text import cell_text, plain_tooltip

#: Where an entry keeps its whole words and which of the address's runs it chooses.
LABEL_ROLE = Qt.ItemDataRole.UserRole + 1
IMPORTED_ROLE = Qt.ItemDataRole.UserRole + 2


@dataclass(frozen=True)
class ServerChoice:
    """One entry: the address, which of its runs (None: all; True: the imported; False: those made
    here), and its words as the Server column says them."""

    server: str
    imported: bool | None
    label: str

    def tooltip(self) -> str:
        if self.server == OWN_DEMO_ORIGIN:
            return _("Runs played on the bundled demo server, started for each run alone (a scenario's, or the Play "
                     "tab's fresh demo server): each one's address stopped with it.")
        if self.imported:
            # Translators: the server filter's tooltip of an address an imported run names that is the
            # recording computer's own (127.0.0.1): not the server of this computer at that address.
            return _("{address} · runs imported from another computer: this address was that computer's, "
                     "not this one's").format(address=self.server)
        return self.server


def server_choices(servers: list[tuple[str, bool]], names: dict[str, str]) -> list[ServerChoice]:
    """The filter's entries for ``servers`` (address, imported: as the store lists them) and the
    registry's ``names``: one per address, or one per kind of run where their Server cells differ."""
    choices: list[ServerChoice] = []
    for server, imported in servers:
        split = server in names and recorded_elsewhere(server, True)
        if not split and choices and choices[-1].server == server:
            continue  # the same words for both kinds: one entry
        # The runs on a demo server of their own are one entry, their origin in an address's place (store.browse).
        label = own_demo_server(server) or server_shown(server, {} if recorded_elsewhere(server, imported) else names)
        choices.append(ServerChoice(server, imported if split else None, label))
    return choices


def chosen_server(combo: QComboBox) -> ServerChoice | None:
    """The entry chosen (``None``: "Every server")."""
    return _choice(combo, combo.currentIndex()) if combo.currentIndex() > 0 else None


def fill_server_filter(combo: QComboBox, shown: list[ServerChoice]) -> None:
    """``combo``'s entries after "Every server" are ``shown`` (untouched when they are already); the
    entry chosen stays chosen, found by its address and its runs (its name may have changed)."""
    if combo.count() and shown == [_choice(combo, row) for row in range(1, combo.count())]:
        return
    chosen = chosen_server(combo)
    combo.blockSignals(True)
    combo.clear()
    combo.addItem(_("Every server"), "")  # said again by RunList.retranslate()
    for row, choice in enumerate(shown, start=1):
        combo.addItem(cell_text(choice.label, 80), choice.server)
        combo.setItemData(row, choice.label, LABEL_ROLE)
        combo.setItemData(row, choice.imported, IMPORTED_ROLE)
        combo.setItemData(row, plain_tooltip(cell_text(choice.tooltip(), 1000)), Qt.ItemDataRole.ToolTipRole)
    combo.setCurrentIndex(next((row for row, choice in enumerate(shown, start=1) if chosen
                                and (choice.server, choice.imported) == (chosen.server, chosen.imported)), 0))
    combo.blockSignals(False)


def say_again(combo: QComboBox) -> None:
    """``combo``'s entries in the language now shown: "Every server", and the words of ours (the name of the
    demo servers started for their runs alone); a server's name or address is no language's."""
    for row in range(combo.count()):
        if row == 0:
            combo.setItemText(0, _("Every server"))
        elif combo.itemData(row) == OWN_DEMO_ORIGIN:
            choice = ServerChoice(OWN_DEMO_ORIGIN, None, own_demo_server(OWN_DEMO_ORIGIN) or "")
            combo.setItemText(row, choice.label)
            combo.setItemData(row, choice.label, LABEL_ROLE)
            combo.setItemData(row, plain_tooltip(choice.tooltip()), Qt.ItemDataRole.ToolTipRole)


def _choice(combo: QComboBox, row: int) -> ServerChoice:
    imported = combo.itemData(row, IMPORTED_ROLE)
    return ServerChoice(combo.itemData(row), imported if isinstance(imported, bool) else None,
                        combo.itemData(row, LABEL_ROLE))


__all__ = ["ServerChoice", "chosen_server", "fill_server_filter", "say_again", "server_choices"]
