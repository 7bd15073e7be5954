"""The standalone build's entry point: the same as the ``run-inspector`` console script."""

from inspector.cli import run

if __name__ == "__main__":
    run()
