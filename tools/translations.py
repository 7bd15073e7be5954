"""Extract, update and compile Run Inspector's gettext catalogues with Babel.

    python tools/translations.py extract   # sources -> translations/messages.pot
    python tools/translations.py update    # messages.pot -> translations/<lang>/LC_MESSAGES/messages.po
    python tools/translations.py compile   # messages.po -> inspector/locale/<lang>/LC_MESSAGES/run-inspector.mo
    python tools/translations.py all       # the three in turn (`make translations`)
    python tools/translations.py stale     # lists compiled catalogues older than their .po (exit 1 if any)

The settings are the ``[tool.run-inspector.i18n]`` table of pyproject.toml; which files are read
with which extractor is Babel's own ``[[tool.babel.mappings]]`` there. ``setup.py`` imports this
module to compile while building, so it uses the standard library and Babel only.
"""

from __future__ import annotations

import os
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Settings:
    root: Path
    domain: str
    languages: tuple[str, ...]
    sources: tuple[str, ...]
    translations: Path
    compiled: Path
    keywords: tuple[str, ...]
    comment_tags: tuple[str, ...]
    project: str
    version: str
    copyright_holder: str

    @property
    def template(self) -> Path:
        return self.translations / "messages.pot"

    def catalogue(self, language: str) -> Path:
        return self.translations / language / "LC_MESSAGES" / "messages.po"

    def compiled_catalogue(self, language: str) -> Path:
        return self.compiled / language / "LC_MESSAGES" / f"{self.domain}.mo"


def read_settings(root: Path = ROOT) -> Settings:
    """The ``[tool.run-inspector.i18n]`` table of ``root``'s pyproject.toml."""
    with (root / "pyproject.toml").open("rb") as stream:
        pyproject = tomllib.load(stream)
    table = pyproject["tool"]["run-inspector"]["i18n"]
    return Settings(
        root=root,
        domain=table["domain"],
        languages=tuple(table["languages"]),
        sources=tuple(table["sources"]),
        translations=root / table["translations"],
        compiled=root / table["compiled"],
        keywords=tuple(table["keywords"]),
        comment_tags=tuple(table.get("comment-tags", ())),
        project=table.get("project", ""),
        version=str(pyproject.get("project", {}).get("version", "")),
        copyright_holder=table.get("copyright-holder", ""),
    )


def _pybabel(*args: str) -> None:
    from babel.messages.frontend import CommandLineInterface

    # Paths relative to the project, so the catalogues name files as "inspector/gui/app.py".
    here = os.getcwd()
    os.chdir(ROOT)
    try:
        status = CommandLineInterface().run(["pybabel", "--quiet", *args])
    finally:
        os.chdir(here)
    if status:
        raise SystemExit(status)


def extract(settings: Settings) -> None:
    """Write the template from the sources (locations by file only, so line moves do not churn it)."""
    args = ["extract", "-F", "pyproject.toml", "-o", str(settings.template),
            "--no-default-keywords", "--add-location=file", "--sort-by-file", "--width=100",
            "--project", settings.project, "--version", settings.version,
            "--copyright-holder", settings.copyright_holder]
    for keyword in settings.keywords:
        args += ["-k", keyword]
    for tag in settings.comment_tags:
        args += ["-c", tag]
    args += list(settings.sources)
    settings.template.parent.mkdir(parents=True, exist_ok=True)
    _pybabel(*args)


def update(settings: Settings) -> None:
    """Bring every language's catalogue in line with the template (a missing one is created)."""
    for language in settings.languages:
        catalogue = settings.catalogue(language)
        if catalogue.exists():
            # No fuzzy guesses: a changed message is untranslated until a person translates it.
            _pybabel("update", "-i", str(settings.template), "-o", str(catalogue), "-l", language,
                     "--no-fuzzy-matching", "--width=100", "--ignore-obsolete")
        else:
            _pybabel("init", "-i", str(settings.template), "-o", str(catalogue), "-l", language, "--width=100")


def compile_catalogues(settings: Settings, only_stale: bool = False) -> list[Path]:
    """Compile each language's catalogue (fuzzy entries left out); return the files written."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    written = []
    for language in settings.languages:
        source = settings.catalogue(language)
        target = settings.compiled_catalogue(language)
        if not source.exists() or (only_stale and not is_stale(source, target)):
            continue
        with source.open("rb") as stream:
            catalog = read_po(stream, locale=language, domain=settings.domain)
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_suffix(".mo.tmp")
        with partial.open("wb") as stream:
            write_mo(stream, catalog, use_fuzzy=False)
        partial.replace(target)
        written.append(target)
    return written


def is_stale(source: Path, target: Path) -> bool:
    return not target.exists() or target.stat().st_mtime < source.stat().st_mtime


def stale(settings: Settings) -> list[Path]:
    return [settings.compiled_catalogue(language) for language in settings.languages
            if settings.catalogue(language).exists()
            and is_stale(settings.catalogue(language), settings.compiled_catalogue(language))]


def main(argv: list[str]) -> int:
    commands = ("extract", "update", "compile", "all", "stale")
    if len(argv) != 1 or argv[0] not in commands:
        print(f"usage: python tools/translations.py {{{'|'.join(commands)}}}", file=sys.stderr)
        return 2
    settings = read_settings()
    command = argv[0]
    if command in ("extract", "all"):
        extract(settings)
    if command in ("update", "all"):
        update(settings)
    if command in ("compile", "all"):
        for path in compile_catalogues(settings):
            print(f"compiled {path.relative_to(settings.root)}")
    if command == "stale":
        old = stale(settings)
        for path in old:
            print(path.relative_to(settings.root))
        return 1 if old else 0
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
