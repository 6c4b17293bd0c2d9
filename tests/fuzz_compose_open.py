"""Programs of ``tests/test_fuzz_compose.py`` where trellax and JAX still differ.

Keyed ``(mode, seed)``, mode ``"x32"`` or ``"x64"``; each value is ``(class of difference,
cause)``. ``KNOWN``: trellax keeps its own answer on purpose (``docs/semantics.md``, "Where
trellax differs from JAX, on purpose"). ``OPEN``: found and not fixed yet. The test fails when a
listed program starts to agree (or differs in another class), so both lists stay honest.
"""

from __future__ import annotations

FTZ = (
    "XLA on CPU flushes subnormal operands and results to zero; trellax keeps IEEE subnormals "
    "(a derivative at a subnormal input is then another value)"
)
FMA = (
    "under jit, inside scan and cond, and in jnp functions JAX compiles (jnp.sinc), XLA contracts "
    "a product and a sum into one FMA; trellax rounds each operation, so a derivative that "
    "cancels (x / x, sinc'') differs in its rounding"
)
JACFWD_BOOL = (
    "jacfwd of a bool output: JAX 0.10.2 raises TypeError from an internal conversion; trellax "
    "returns zeros of bool, as JAX does for integer outputs"
)
SINH = (
    "XLA's float32 sinh is up to 24 ulps from the correctly rounded value near overflow; trellax "
    "gives NumPy's correctly rounded sinh"
)
ARGMAX_C = (
    "argmax of a complex array inside a scan body whose result is unused: JAX's abstract "
    "evaluation accepts it and the dead call is dropped; trellax refuses the call (TypeError)"
)

KNOWN: dict[tuple[str, int], tuple[str, str]] = {
    **{("x32", s): ("value", FTZ) for s in (217, 503, 862, 2449, 2613)},
    ("x64", 155): ("value", FTZ),
    ("x32", 130): ("value", FMA),
    ("x64", 1759): ("value", FMA),
    **{("x32", s): ("accepts", JACFWD_BOOL) for s in (591, 839, 1261, 2005, 2459)},
    **{("x64", s): ("accepts", JACFWD_BOOL) for s in (122, 1200, 1308, 2556)},
    ("x32", 1603): ("value", SINH),
    ("x64", 1033): ("crash", ARGMAX_C),
    ("x64", 2511): ("crash", ARGMAX_C),
}

OPEN: dict[tuple[str, int], tuple[str, str]] = {}
