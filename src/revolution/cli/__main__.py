"""``python -m revolution.cli``: the ``revolution`` command."""

import sys

from revolution.cli.app import main

if __name__ == "__main__":  # importing this module (pkgutil, a docs build) runs nothing
    sys.exit(main())
