"""`python -m app` runs the same entry point as the `earshot` command."""

import multiprocessing
import sys

from app.cli import main

if __name__ == "__main__":
    # a frozen build (PyInstaller) starts its spawned helpers (archive workers, the typing
    # helper) through this entry point: freeze_support runs the helper's code instead of the app
    multiprocessing.freeze_support()
    sys.exit(main())
