"""``python -m inspector`` does what the ``run-inspector`` command does."""

from inspector.cli import run

run()
