"""``flax.linen.fp8_ops``: the fp8 layers (refused: see ``trellax._src.nn.fp8_ops``), as names of ``trellax.nn``."""

from trellax._src.nn.fp8_ops import Fp8DirectDotGeneralOp as Fp8DirectDotGeneralOp
from trellax._src.nn.fp8_ops import Fp8DotGeneral as Fp8DotGeneral
from trellax._src.nn.fp8_ops import Fp8DotGeneralOp as Fp8DotGeneralOp
from trellax._src.nn.fp8_ops import Fp8Einsum as Fp8Einsum
from trellax._src.nn.fp8_ops import NANOOFp8DotGeneralOp as NANOOFp8DotGeneralOp
from trellax._src.nn.transforms import custom_vjp as custom_vjp
