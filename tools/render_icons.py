"""Render the hand-written SVG icon to the PNG sizes desktops ask for (the output is committed).

    python tools/render_icons.py          # writes inspector/resources/icons/<size>/<APP_ID>.png
    python tools/render_icons.py --check  # exit 1 if a committed PNG is missing or out of date

Qt's own SVG renderer draws them, so no image tool outside the project's dependencies is needed.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from inspector.appinfo import APP_ID, ICON_SIZES  # noqa: E402

ICONS = ROOT / "inspector" / "resources" / "icons"


def render(size: int):
    """The icon as a QImage of size × size pixels with a transparent background."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    renderer = QSvgRenderer(str(ICONS / f"{APP_ID}.svg"))
    if not renderer.isValid():
        raise SystemExit(f"cannot read {ICONS / f'{APP_ID}.svg'}")
    image = QImage(size, size, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    renderer.render(painter)
    painter.end()
    return image


def same_picture(committed, rendered, tolerance: int = 16) -> bool:
    """Equal but for antialiasing noise: another Qt release may round an edge pixel differently,
    while an edited SVG moves whole shapes."""
    if committed.size() != rendered.size():
        return False
    old, new = bytes(committed.constBits()), bytes(rendered.constBits())
    return len(old) == len(new) and all(abs(a - b) <= tolerance for a, b in zip(old, new, strict=True))


def main(argv: list[str]) -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtGui import QGuiApplication, QImage

    _app = QGuiApplication.instance() or QGuiApplication([])  # noqa: F841 - Qt wants one for images
    check = "--check" in argv
    stale = []
    for size in ICON_SIZES:
        target = ICONS / str(size) / f"{APP_ID}.png"
        image = render(size)
        if check:
            if not target.is_file() or not same_picture(QImage(str(target)).convertToFormat(image.format()), image):
                stale.append(str(target.relative_to(ROOT)))
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        if not image.save(str(target), "PNG"):
            raise SystemExit(f"cannot write {target}")
    if stale:
        print("out of date (run tools/render_icons.py):", *stale, sep="\n  ")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
