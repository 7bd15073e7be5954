"""A Save dialog that gives a name typed without a suffix the one of the file's kind.

``QFileDialog.getSaveFileName`` keeps a name as typed (Qt's own dialog and GTK's do): "runs" typed in
Export runs… was written as the file ``runs``, which Open trace… (``*.json``) then did not list. With a
default suffix the dialog returns ``runs.json``, and asks before replacing that file, not ``runs``."""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QFileDialog, QWidget


def save_file_name(parent: QWidget | None, caption: str, directory: str, filters: str, *,
                   suffix: str) -> tuple[str, str]:
    """As ``QFileDialog.getSaveFileName`` (the path chosen and its filter, ``("", "")`` when
    cancelled), a name without a suffix given ``suffix`` (without the dot)."""
    dialog = QFileDialog(parent, caption, directory, filters)
    dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
    dialog.setDefaultSuffix(suffix)
    if dialog.exec() != QDialog.DialogCode.Accepted or not dialog.selectedFiles():
        return "", ""
    return dialog.selectedFiles()[0], dialog.selectedNameFilter()


__all__ = ["save_file_name"]
