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
CATAN2 = (
    "complex arctan2 of finite operands: JAX evaluates -i log((x + iy) / sqrt(x*x + y*y)) as "
    "written, so a signed zero inside picks the branch (arctan2(-0 + 2.25j, -0 + 2.25j) is "
    "-3pi/4 in JAX, pi/4 here), listed in docs/semantics.md"
)
CATAN = (
    "complex arctan(x + NaN j) for finite x: JAX pi/2 + NaN j, trellax NaN + NaN j (NumPy's and "
    "C99's), listed in docs/semantics.md"
)
CDIV_FTZ = (
    "XLA on CPU flushes subnormals: x / x of complex64 with a subnormal part (-1.4e-45j / itself "
    "is NaN + NaN j in JAX) or a subnormal imaginary quotient (1 + 8.4e-45j here, 1 + 0j in JAX)"
)
CABS = (
    "complex abs of NaN + inf j (a cumsum's infinite part): JAX NaN, trellax inf (C99's hypot), "
    "listed in docs/semantics.md"
)
ULP_AMPLIFIED = (
    "a last-place difference of an elementary function (trellax's expm1 or tanh, NumPy's; "
    "XLA's one ulp away) amplified by an ill-conditioned next step: sinc near 1e7, the "
    "tanh derivative 1 - tanh(x)**2 near x = 12 (1.5e6-fold)"
)
KNOWN: dict[tuple[str, int], tuple[str, str]] = {
    **{("x32", s): ("value", FTZ) for s in (1030, 1939, 2755, 3235, 3462)},
    **{("x64", s): ("value", FTZ) for s in (2404, 2528, 3132)},
    ("x64", 1036): ("value", ANYALL),
    ("x64", 1292): ("value", CATAN),
    ("x32", 1463): ("value", CATAN2),
    ("x32", 3188): ("value", CDIV_FTZ),
    **{("x32", s): ("value", FTZ) for s in (5140, 5539)},
    ("x32", 4044): ("value", CABS),
    ("x32", 7072): ("value", ANYALL),
    **{("x64", s): ("value", FTZ) for s in (5973, 6519, 7350)},
    **{("x64", s): ("value", ULP_AMPLIFIED) for s in (4779, 6158)},
    ("x64", 6314): ("value", CATAN2),
}

OPEN: dict[tuple[str, int], tuple[str, str]] = {}
