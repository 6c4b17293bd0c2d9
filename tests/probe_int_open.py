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
FIX = "jnp.fix of an integer array raises AttributeError eagerly in JAX 0.10.2; trellax returns it"
FTZ = (
    "XLA on CPU flushes the subnormal float32 result of a float64 -> float32 cast (1.4e-45) to "
    "zero; trellax rounds to the nearest float32"
)

KNOWN: dict[tuple[str, str], str] = {
    ("x32", "ibin4/power/int4/eager"): INT4,
    ("x32", "ibin4/power/int4/jit"): INT4,
    ("x32", "ibin4/power/int4/vmap"): INT4,
    ("x32", "isum4/int4/eager"): INT4,
    ("x32", "isum4/int4/jit"): INT4,
    ("x32", "isum4/uint4/eager"): INT4,
    ("x32", "isum4/uint4/jit"): INT4,
    ("x32", "iun/fix/int8/eager"): FIX,
    ("x32", "iun4/abs/int4/eager"): INT4,
    ("x32", "iun4/abs/int4/jit"): INT4,
    ("x32", "iun4/abs/int4/vmap"): INT4,
    ("x32", "iun4/bitwise_count/int4/eager"): INT4,
    ("x32", "iun4/bitwise_count/int4/jit"): INT4,
    ("x32", "iun4/bitwise_count/int4/vmap"): INT4,
    ("x64", "fcast/f64/float32/eager"): FTZ,
    ("x64", "fcast/f64/float32/jit"): FTZ,
    ("x64", "fcast/f64/float32/vmap"): FTZ,
    ("x64", "ibin4/power/int4/eager"): INT4,
    ("x64", "ibin4/power/int4/jit"): INT4,
    ("x64", "ibin4/power/int4/vmap"): INT4,
    ("x64", "isum4/int4/eager"): INT4,
    ("x64", "isum4/int4/jit"): INT4,
    ("x64", "isum4/uint4/eager"): INT4,
    ("x64", "isum4/uint4/jit"): INT4,
    ("x64", "iun/fix/int8/eager"): FIX,
    ("x64", "iun4/abs/int4/eager"): INT4,
    ("x64", "iun4/abs/int4/jit"): INT4,
    ("x64", "iun4/abs/int4/vmap"): INT4,
    ("x64", "iun4/bitwise_count/int4/eager"): INT4,
    ("x64", "iun4/bitwise_count/int4/jit"): INT4,
    ("x64", "iun4/bitwise_count/int4/vmap"): INT4,
}

OPEN: dict[tuple[str, str], str] = {
    ("x32", "mask/a[False]/jit"): "crash",
    ("x32", "mask/a[jnp.array(False)]/jit"): "error_class",
    ("x32", "mask/a[jnp.array(True)]/jit"): "accepts",
    ("x32", "red_empty/jnp.median/int8/eager"): "error_class",
    ("x32", "red_empty/jnp.median/uint8/eager"): "error_class",
    ("x64", "mask/a[False]/jit"): "crash",
    ("x64", "mask/a[jnp.array(False)]/jit"): "error_class",
    ("x64", "mask/a[jnp.array(True)]/jit"): "accepts",
    ("x64", "red_empty/jnp.median/int8/eager"): "error_class",
    ("x64", "red_empty/jnp.median/uint8/eager"): "error_class",
}
