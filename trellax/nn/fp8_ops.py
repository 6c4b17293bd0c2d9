"""``flax.linen.fp8_ops``: the fp8 layers (refused: see ``trellax._src.nn.fp8_ops``), as names of ``trellax.nn``."""

from trellax.nn import Fp8DirectDotGeneralOp as Fp8DirectDotGeneralOp
from trellax.nn import Fp8DotGeneral as Fp8DotGeneral
from trellax.nn import Fp8DotGeneralOp as Fp8DotGeneralOp
from trellax.nn import Fp8Einsum as Fp8Einsum
from trellax.nn import NANOOFp8DotGeneralOp as NANOOFp8DotGeneralOp
from trellax.nn import custom_vjp as custom_vjp
