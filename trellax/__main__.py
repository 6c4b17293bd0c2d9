"""``python -m trellax``: the same as the ``trellax`` command."""

from trellax.cli import main

raise SystemExit(main())
