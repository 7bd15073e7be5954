"""The version, licence and home page of Run Inspector, read from the installed package's metadata.

Kept free of Qt, the network stack and our other modules: ``run-inspector --version`` imports this
and nothing heavy. Run from a checkout that was never installed, the values come from the source
tree's ``pyproject.toml``.
"""

from __future__ import annotations

from pathlib import Path

#: The distribution whose metadata names the version and the licence.
DISTRIBUTION = "run-inspector"
#: Said when neither the metadata nor a pyproject.toml knows the version.
UNKNOWN = "unknown"


def _pyproject_project() -> dict:
    """The ``[project]`` table of the source tree this package runs from (empty outside a checkout)."""
    pyproject = Path(__file__).resolve().parents[1] / "pyproject.toml"
    try:
        import tomllib

        project = tomllib.loads(pyproject.read_text(encoding="utf-8")).get("project", {})
    except (OSError, ValueError):
        return {}
    return project if isinstance(project, dict) else {}


def _pyproject_field(name: str) -> str:
    """A ``[project]`` field of the source tree this package runs from ("" outside a checkout)."""
    value = _pyproject_project().get(name, "")
    return value if isinstance(value, str) else ""


def installed_version() -> str:
    """The installed package's version; "" when this code runs from files that were never installed."""
    import importlib.metadata

    try:
        return importlib.metadata.version(DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError:
        return ""


def app_version() -> str:
    """The version to show: the installed one, else the checkout's pyproject.toml, else "unknown"."""
    return installed_version() or _pyproject_field("version") or UNKNOWN


def app_licence() -> str:
    """The licence's SPDX name (e.g. "MIT") from the metadata, else from pyproject.toml; "" if unknown."""
    import importlib.metadata

    try:
        meta = importlib.metadata.metadata(DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError:
        return _pyproject_field("license")
    return meta.get("License-Expression") or meta.get("License") or _pyproject_field("license")


def app_homepage() -> str:
    """The project's address (the Homepage of ``[project.urls]``) from the metadata, else from
    pyproject.toml; "" if unknown. An installed wheel has no README: this is where it is."""
    import importlib.metadata

    try:
        entries = importlib.metadata.metadata(DISTRIBUTION).get_all("Project-URL") or []
    except importlib.metadata.PackageNotFoundError:
        entries = []
    for entry in entries:
        label, _comma, address = entry.partition(",")  # "Homepage, https://..."
        if label.strip().lower() == "homepage" and address.strip():
            return address.strip()
    urls = _pyproject_project().get("urls", {})
    found = urls.get("Homepage", "") if isinstance(urls, dict) else ""
    return found if isinstance(found, str) else ""


def version_line() -> str:
    """What ``run-inspector --version`` prints: the program's name and its version."""
    return f"{DISTRIBUTION} {app_version()}"


def version_fields() -> dict[str, str]:
    """What ``run-inspector --version --json`` prints, as an object: ``name`` (the distribution's) and
    ``version`` (as :func:`app_version` finds it: "unknown" when nothing knows it)."""
    return {"name": DISTRIBUTION, "version": app_version()}
