"""The build compiles the translations into the package (everything else is in pyproject.toml).

``build_py`` runs for wheels, sdist-built wheels and editable installs alike, so each of them has
``inspector/locale/<lang>/LC_MESSAGES/run-inspector.mo`` made from ``translations/``.
"""

from __future__ import annotations

import importlib.util
import sys
import warnings
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent


def _translations_tool():
    spec = importlib.util.spec_from_file_location("run_inspector_translations", ROOT / "tools" / "translations.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


class build_py_with_translations(build_py):  # noqa: N801 - setuptools' naming
    """Compile translations/*.po into the package's locale folder before the package is copied."""

    def run(self) -> None:
        tool = _translations_tool()
        tool.compile_catalogues(tool.read_settings(ROOT))
        # The package data list was worked out before the .mo files existed; look again.
        self.__dict__.pop("data_files", None)
        super().run()


# The compiled catalogues are package data of `inspector` (pyproject's package-data), not packages;
# setuptools would otherwise print a page-long warning for each language folder on every install.
warnings.filterwarnings("ignore", message=r"Package 'inspector\.locale\.")
# An editable install (`make run`, `make test`) of this flat layout gets an import finder, and setuptools
# says so in a boxed note about folders named like the package, which pip prints on the first `make run`.
warnings.filterwarnings("ignore", message=r"Editable installation\.")
setup(cmdclass={"build_py": build_py_with_translations})
