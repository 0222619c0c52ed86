"""``python -m darkempire.cli``: the ``darkempire`` command."""

import sys

from darkempire.cli.app import main

if __name__ == "__main__":  # importing this module (pkgutil, a docs build) runs nothing
    sys.exit(main())
