"""Layer and optimizer fuzzer programs (``tests/test_fuzz_layers.py``) where trellax differs from
Flax 0.12.8 / optax 0.2.8.

Keyed by seed; each value is ``(class of difference, cause)``. ``KNOWN``: trellax keeps its own
answer on purpose (a documented departure, or the reference's is the wrong one). ``OPEN``: found
and not fixed yet. The test fails when a listed program starts to agree (or differs in another
class), so both lists stay honest.
"""

from __future__ import annotations

# fmt: off
KNOWN: dict[int, tuple[str, str]] = {}
OPEN: dict[int, tuple[str, str]] = {}
# fmt: on
