"""Random programs of ``tests/test_fuzz_programs.py`` where trellax and JAX still differ.

Keyed ``(mode, seed)``, mode ``"x32"`` or ``"x64"``; each value is ``(class of difference,
cause)``. ``KNOWN``: trellax keeps its own answer on purpose (``docs/semantics.md``, "Where
trellax differs from JAX, on purpose"). ``OPEN``: found and not fixed yet. The test fails when a
listed program starts to agree (or differs in another class), so both lists stay honest.
"""

from __future__ import annotations

FTZ = (
    "XLA on CPU flushes subnormal operands and results to zero (an input or the weak literal "
    "1e-45, a float64 product of 5e-324); trellax keeps IEEE subnormals"
)
ANYALL = "JAX 0.10.2's any/all of complex test the real part only; trellax tests x != 0"
CPOW = (
    "complex power exp(y log x) near overflow and underflow: tiny parts tens of ulp apart, and "
    "an overflowing part of the other sign (+inf in JAX, -inf here)"
)
CATAN2 = (
    "jnp.arctan2 of complex operands: JAX's formula gives NaN for infinite operands and +0 "
    "imaginary parts; trellax's differs in those signs and at infinities"
)
CATAN = (
    "complex arctan(x + NaN j) for finite x: JAX pi/2 + NaN j, trellax NaN + NaN j (NumPy's and "
    "C99's), listed in docs/semantics.md"
)
CDIV_JVP = "jvp of a complex x / x at non-finite parts: the tangent's NaN/inf parts differ"
CUMPROD_GRAD = "grad of cumprod with inf and -0.0 elements: JAX -inf where trellax gives NaN"
ORDER = (
    "several errors apply and JAX raises another one first (its check order for shapes, axes, "
    "dtypes and empty operands); both refuse the program"
)

KNOWN: dict[tuple[str, int], tuple[str, str]] = {
    **{("x32", s): ("value", FTZ) for s in (1030, 1939, 2755, 3235, 3462)},
    **{("x64", s): ("value", FTZ) for s in (2404, 2528, 3132)},
    ("x64", 1036): ("value", ANYALL),
    ("x64", 1292): ("value", CATAN),
}

OPEN: dict[tuple[str, int], tuple[str, str]] = {
    ("x64", 359): ("value", CPOW),
    ("x64", 3218): ("value", CPOW),
    ("x32", 1463): ("value", CATAN2),
    ("x64", 700): ("value", CATAN2),
    ("x32", 3188): ("value", CDIV_JVP),
    ("x64", 3970): ("value", CUMPROD_GRAD),
    **{("x32", s): ("error_class", ORDER) for s in (738, 992, 1251, 3246)},
    ("x64", 1011): ("error_class", ORDER),
}
