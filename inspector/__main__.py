"""``python -m inspector`` does what the ``run-inspector`` command does."""

import sys

from inspector.cli import main

sys.exit(main())
