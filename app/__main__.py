"""`python -m app` runs the same entry point as the `earshot` command."""

import sys

from app.cli import main

sys.exit(main())
