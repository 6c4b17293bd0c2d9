"""The calls of ``tests/test_edge_public.py`` where trellax and JAX 0.10.2 still differ.

``KNOWN``: trellax keeps its own answer on purpose (``docs/semantics.md``, "Where trellax differs
from JAX, on purpose"), each with the reason. ``OPEN``: divergences not fixed yet, by class; the
test fails when one starts matching JAX, so the list only shrinks.
"""

from __future__ import annotations

KNOWN: dict[str, str] = {}

#: not yet fixed, by class (value: a wrong value or shape; class: a wrong error class; crash:
#: trellax raises where JAX returns; accepts: trellax returns where JAX raises)
OPEN: dict[str, str] = {}
