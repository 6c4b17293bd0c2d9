"""Programs of ``tests/test_fuzz_lax.py`` where trellax and JAX still differ.

Keyed ``(mode, seed)``, mode ``"x32"`` or ``"x64"``; each value is ``(class of difference,
cause)``. ``KNOWN``: trellax keeps its own answer on purpose (``docs/semantics.md``, "Where
trellax differs from JAX, on purpose"). ``OPEN``: found and not fixed yet. The test fails when a
listed program starts to agree (or differs in another class), so both lists stay honest.
"""

from __future__ import annotations

# -- kept on purpose (a row of docs/semantics.md each)
NEG_AXIS = (
    "lax.cumsum/cumprod/cummax/cummin/cumlogsumexp with a negative axis: JAX raises ValueError; "
    "trellax counts it from the end (and then checks what JAX never reached, e.g. the dtype)"
)
CUM_BOOL = "lax.cummax/cummin of bool: JAX TypeError; trellax a running or/and"
CUM_COMPLEX = (
    "lax.cummax/cummin of complex: JAX's running maximum is not lexicographic; trellax refuses "
    "complex (TypeError)"
)
CUMLSE_INT = (
    "lax.cumlogsumexp of integers: JAX's OverflowError is an accident of its implementation; "
    "trellax raises TypeError"
)
CLAMP_JVP = (
    "the derivative of lax.clamp with 0-d bounds around an array: JAX raises TypeError from a "
    "select of mismatched shapes inside its own rule; trellax differentiates it"
)
APPROX_NAN = (
    "approx_max_k/approx_min_k with NaN: XLA sorts with a comparator that is no order under "
    "NaN, so where JAX's NaN lands is arbitrary; trellax gives top_k's order (NaN largest)"
)
SCATTER_NO_DIMS = (
    "a scatter with no scatter dimensions and several updates: XLA on CPU applies only the "
    "last update (scatter_add of 6 with 8 updates summing to 54 is 6 + the last one); trellax "
    "combines them all"
)
CONV_VMAP = (
    "vmap of conv_general_dilated over both operands: JAX's grouped convolution puts another "
    "example's NaN into a finite example's result; trellax computes each example alone"
)
RW_EMPTY = (
    "the gradient of a max reduce_window whose windows leave an empty result after negative "
    "padding: JAX's own rule fails (TypeError from a slice with a negative start); trellax "
    "gives zeros"
)
RW_DILATED = (
    "the derivative of a max/min reduce_window with window or base dilation: JAX has no rule "
    "(NotImplementedError); trellax differentiates it (checked against float64 central "
    "differences, tests/test_lax_param_fixes.py)"
)
RW_GENERIC = (
    "the gradient of an add/max/min reduce_window whose init value is not the identity: JAX's "
    "generic reduce_window fails to linearize (ValueError); trellax differentiates it, the init "
    "a constant (checked against float64 central differences, tests/test_lax_param_fixes.py)"
)
CONV_FILL = (
    "a convolution's filled zeros times a non-finite kernel tap: XLA:CPU multiplies explicit "
    "padding zeros in float16/bfloat16/float32/complex64 convolutions without dilation "
    "(conv([1,1,1,1], [inf,1,1], pad (1,1)) is [nan,inf,inf,inf]; float64 [2,inf,inf,inf]) "
    "and skips lhs-dilation holes, and padding once either operand is dilated; trellax's GEMM "
    "multiplies every filled zero of the forward pass and none in its strided input "
    "cotangent: the float16 and float32 input gradient of x64 463 is NaN in JAX where its "
    "float64 one is trellax's value (38.40625)"
)


KNOWN: dict[tuple[str, int], tuple[str, str]] = {
    **{("x32", s): ("value", APPROX_NAN) for s in (409, 566, 1430, 1667)},
    **{("x64", s): ("value", APPROX_NAN) for s in (269, 779, 947, 1813)},
    **{("x32", s): ("accepts", CLAMP_JVP) for s in (343, 897)},
    **{("x64", s): ("accepts", CLAMP_JVP) for s in (833, 1030, 1214)},
    **{("x64", s): ("value", CONV_VMAP) for s in (646,)},
    **{("x32", s): ("error_class", CUMLSE_INT) for s in (894, 1149)},
    **{("x64", s): ("error_class", CUMLSE_INT) for s in (454, 880, 1067, 1458)},
    **{("x32", s): ("accepts", CUM_BOOL) for s in (435, 1247)},
    **{("x64", s): ("accepts", CUM_BOOL) for s in (1943,)},
    **{("x32", s): ("crash", CUM_COMPLEX) for s in (1624, 1837)},
    **{("x64", s): ("crash", CUM_COMPLEX) for s in (758, 889)},
    **{
        ("x32", s): ("accepts", NEG_AXIS)
        for s in (
            8,
            75,
            90,
            181,
            191,
            391,
            394,
            397,
            548,
            660,
            692,
            774,
            828,
            963,
            1003,
            1100,
            1119,
            1124,
            1171,
            1206,
            1217,
            1345,
            1397,
            1399,
            1440,
            1452,
            1536,
            1684,
            1717,
            1765,
            1825,
            1850,
            1857,
            1872,
            1947,
        )
    },
    **{("x32", s): ("error_class", NEG_AXIS) for s in (381, 545, 914, 989, 1002, 1222, 1245, 1647)},
    **{
        ("x64", s): ("accepts", NEG_AXIS)
        for s in (
            105,
            131,
            163,
            261,
            484,
            519,
            567,
            707,
            770,
            824,
            855,
            923,
            1072,
            1077,
            1089,
            1094,
            1196,
            1198,
            1267,
            1303,
            1337,
            1367,
            1420,
            1431,
            1503,
            1508,
            1522,
            1559,
            1631,
            1665,
            1763,
            1819,
            1931,
            1945,
            1988,
            1990,
            1997,
        )
    },
    **{("x64", s): ("error_class", NEG_AXIS) for s in (225, 524, 584, 999, 1284, 1598, 1882)},
    **{("x32", s): ("accepts", RW_EMPTY) for s in (814,)},
    **{("x64", s): ("value", SCATTER_NO_DIMS) for s in (1202,)},
    **{("x32", s): ("accepts", RW_DILATED) for s in (1103, 1253)},
    **{("x64", s): ("accepts", RW_DILATED) for s in (305, 1628)},
    **{("x32", s): ("accepts", RW_GENERIC) for s in (1548,)},
    **{("x64", s): ("accepts", RW_GENERIC) for s in (1436,)},
    **{("x64", s): ("value", CONV_FILL) for s in (463,)},
}

OPEN: dict[tuple[str, int], tuple[str, str]] = {}
