"""Programs of ``tests/test_probe_int.py`` where trellax and JAX still differ.

``KNOWN``: trellax keeps its own answer on purpose (``docs/semantics.md``), with the reason.
``OPEN``: differences found and not fixed yet, by class, keyed ``(mode, program)`` with mode
``"x32"`` or ``"x64"``; the test fails when one starts matching, so the list only shrinks.
"""

from __future__ import annotations

KNOWN: dict[tuple[str, str], str] = {}

OPEN: dict[tuple[str, str], str] = {}
