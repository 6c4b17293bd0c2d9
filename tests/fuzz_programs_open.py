"""Random programs of ``tests/test_fuzz_programs.py`` where trellax and JAX still differ.

Keyed ``(mode, seed)``, mode ``"x32"`` or ``"x64"``; each value is ``(class of difference,
cause)``. ``KNOWN``: trellax keeps its own answer on purpose (``docs/semantics.md``, "Where
trellax differs from JAX, on purpose"). ``OPEN``: found and not fixed yet. The test fails when a
listed program starts to agree (or differs in another class), so both lists stay honest.
"""

from __future__ import annotations

KNOWN: dict[tuple[str, int], tuple[str, str]] = {}

OPEN: dict[tuple[str, int], tuple[str, str]] = {}
