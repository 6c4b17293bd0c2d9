"""Layer and optimizer fuzzer programs (``tests/test_fuzz_layers.py``) where trellax differs from
Flax 0.12.8 / optax 0.2.8.

Keyed by seed; each value is ``(class of difference, cause)``. ``KNOWN``: trellax keeps its own
answer on purpose (a documented departure, or the reference's is the wrong one), or the
difference is the reference's compiled rounding. ``OPEN``: found and not fixed yet. The test
fails when a listed program starts to agree (or differs in another class), so both lists stay
honest.
"""

from __future__ import annotations

RPROP_LAG = "optax 0.2.8's rprop returns each step's update one step late (zeros at the first step); trellax the current step's (docs/semantics.md)"
HALF_ORTHO = "the recurrent cells' orthogonal recurrent-kernel initializer in float16/bfloat16 raises NotImplementedError in JAX (XLA's CPU QR has no half types); trellax computes the QR in float32 and rounds back (docs/semantics.md)"
MIN_POOL = (
    "flax.linen 0.12.8 has no min_pool (AttributeError); trellax.nn has it (docs/semantics.md)"
)
FTZ = "XLA's CPU kernels flush subnormal results to zero (squares of 1e-20 gradients, float16 squares of 1e-3 gradients); trellax keeps IEEE subnormals (docs/nn.md)"
COND_COMPILED = "optax runs MultiSteps' inner optimizer inside lax.cond (and apply_if_finite's inner step compiled), where XLA turns t / steps into an FMA with the reciprocal (a schedule's 1 - t/steps at t = steps is -3e-8, not 0, so a rate that reaches 0 stays ~1e-15) and keeps bfloat16 intermediates in float32; trellax runs the taken branch eagerly (docs/nn.md)"
SUM_ORDER_EXP = "inputs scaled by 30 or offset by 300 make a cell's gate pre-activations cancel to about -20 from terms near 1e3: the float32 products' summation order (XLA's against trellax's) moves them by ~1e-4, which the sigmoid's exp turns into tens of ulps of a saturated 1e-9 output"
EMPTY_FIRST_ERROR = "an empty batch and an unknown padding string ('REFLECT') in ConvTranspose: both refuse; JAX fails first on the empty batch (ZeroDivisionError), trellax on the padding (RuntimeError, JAX's class for it)"

# fmt: off
KNOWN: dict[int, tuple[str, str]] = {
    **{s: ("value", COND_COMPILED) for s in (
        237, 902, 917, 1314, 1895
    )},
    **{s: ("error_class", EMPTY_FIRST_ERROR) for s in (
        804,
    )},
    **{s: ("value", FTZ) for s in (
        310, 460, 551, 633, 941, 1166, 1187, 1367, 1433, 1490, 1600, 1609, 1652, 1662, 1801,
        1922, 1945, 1965, 1968, 1977
    )},
    **{s: ("accepts", HALF_ORTHO) for s in (
        47, 180, 193, 213, 238, 242, 293, 455, 485, 487, 488, 518, 533, 553, 556, 559, 578,
        596, 697, 715, 738, 744, 768, 774, 834, 838, 940, 960, 1020, 1036, 1081, 1146, 1160,
        1169, 1170, 1176, 1224, 1284, 1301, 1343, 1398, 1411, 1423, 1499, 1522, 1656, 1742,
        1787, 1821, 1829, 1842, 1886, 1975, 1976
    )},
    **{s: ("accepts", MIN_POOL) for s in (
        290, 341, 521, 772, 1049, 1175, 1594, 1605, 1606, 1845, 1897, 1948
    )},
    **{s: ("value", RPROP_LAG) for s in (
        13, 116, 163, 313, 522, 756, 1079, 1323, 1478, 1611, 1640, 1737, 1898, 1963
    )},
    **{s: ("value", SUM_ORDER_EXP) for s in (
        984, 1269
    )},
}
OPEN: dict[int, tuple[str, str]] = {}
# fmt: on
