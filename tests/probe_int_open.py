"""Programs of ``tests/test_probe_int.py`` where trellax and JAX differ.

``KNOWN``: trellax keeps its own answer on purpose (``docs/semantics.md``, "Where trellax differs
from JAX, on purpose"), with the reason. ``OPEN``: differences found and not fixed yet, by class.
Both are keyed ``(mode, program)``, mode ``"x32"`` or ``"x64"``; the test fails when an OPEN entry
starts matching, so that list only shrinks.
"""

from __future__ import annotations

INT4 = (
    "JAX 0.10.2 refuses this operation on int4/uint4 (TypeError or ValueError); trellax computes "
    "it, with the narrow type's wrap-around"
)
FIX = (
    "jnp.fix of an integer array raises AttributeError in JAX 0.10.2 (eagerly, under jit and "
    "vmap); trellax returns it"
)
FTZ = (
    "XLA on CPU flushes the subnormal float32 result of a float64 -> float32 cast (1.4e-45) to "
    "zero; trellax rounds to the nearest float32"
)

ANYALL = (
    "JAX 0.10.2's any/all of complex test the real part only (any([1j]) is False); trellax tests "
    "x != 0, as astype(bool) does in both"
)
_MODES = ("eager", "jit", "vmap")
_KEPT = (
    [(f"ibin4/power/int4/{m}", INT4) for m in _MODES]
    + [(f"ibin4/power/uint4/{m}", INT4) for m in ("eager", "jit")]
    + [(f"isum4/{d}/{m}", INT4) for d in ("int4", "uint4") for m in ("eager", "jit")]
    + [(f"iun/fix/int8/{m}", FIX) for m in _MODES]
    + [(f"iun4/{f}/int4/{m}", INT4) for f in ("abs", "bitwise_count") for m in _MODES]
    + [("ccast/bool_paths/any", ANYALL), ("ccast/bool_paths/all", ANYALL)]
)
CONST_MASK = (
    "JAX 0.10.2 stages jnp.array(...) made inside jit, so a boolean mask built from constants "
    "raises NonConcreteBooleanIndexError; trellax keeps such a constant concrete and indexes "
    "with it (a superset: the eager result; a mask computed from traced values still raises)"
)
_KEPT_JIT = [(f"mask/a[jnp.array({b})]/jit", CONST_MASK) for b in ("False", "True")]
KNOWN: dict[tuple[str, str], str] = {
    **{(mode, name): why for mode in ("x32", "x64") for name, why in _KEPT + _KEPT_JIT},
    **{("x64", f"fcast/f64/float32/{m}"): FTZ for m in _MODES},
}

OPEN: dict[tuple[str, str], str] = {}
