"""``flax.linen.fp8_ops``: Flax's fp8 (delayed-scaling float8) matrix products, as names of
``trellax.nn``; see ``trellax._src.nn.fp8_ops``."""

from trellax._src.custom.derivatives import custom_jvp as custom_jvp
from trellax._src.custom.derivatives import custom_vjp as custom_vjp
from trellax._src.nn.fp8_ops import CAN_USE_EARRAY as CAN_USE_EARRAY
from trellax._src.nn.fp8_ops import OVERWRITE_WITH_GRADIENT as OVERWRITE_WITH_GRADIENT
from trellax._src.nn.fp8_ops import Fp8DirectDotGeneralOp as Fp8DirectDotGeneralOp
from trellax._src.nn.fp8_ops import Fp8DotGeneral as Fp8DotGeneral
from trellax._src.nn.fp8_ops import Fp8DotGeneralBase as Fp8DotGeneralBase
from trellax._src.nn.fp8_ops import Fp8DotGeneralOp as Fp8DotGeneralOp
from trellax._src.nn.fp8_ops import Fp8Einsum as Fp8Einsum
from trellax._src.nn.fp8_ops import Fp8MetaTyRules as Fp8MetaTyRules
from trellax._src.nn.fp8_ops import NANOOFp8DotGeneralOp as NANOOFp8DotGeneralOp
from trellax._src.nn.fp8_ops import compute_amax_history as compute_amax_history
from trellax._src.nn.fp8_ops import compute_scale as compute_scale
from trellax._src.nn.fp8_ops import dequantize as dequantize
from trellax._src.nn.fp8_ops import dot_general_transpose_lhs as dot_general_transpose_lhs
from trellax._src.nn.fp8_ops import dot_general_transpose_rhs as dot_general_transpose_rhs
from trellax._src.nn.fp8_ops import dot_general_with_precision as dot_general_with_precision
from trellax._src.nn.fp8_ops import fm32 as fm32
from trellax._src.nn.fp8_ops import fp8_meta_dtype as fp8_meta_dtype
from trellax._src.nn.fp8_ops import fp8_meta_dtype_wrapper as fp8_meta_dtype_wrapper
from trellax._src.nn.fp8_ops import fp8_scaled_dot_general as fp8_scaled_dot_general
from trellax._src.nn.fp8_ops import fp32_max_grad as fp32_max_grad
from trellax._src.nn.fp8_ops import get_fp8_max as get_fp8_max
from trellax._src.nn.fp8_ops import in_q as in_q
from trellax._src.nn.fp8_ops import in_qdq as in_qdq
from trellax._src.nn.fp8_ops import out_dq as out_dq
from trellax._src.nn.fp8_ops import out_qdq as out_qdq
from trellax._src.nn.fp8_ops import qdq as qdq
from trellax._src.nn.fp8_ops import quantize as quantize
from trellax._src.nn.fp8_ops import quantize_dequantize_update as quantize_dequantize_update
from trellax._src.nn.fp8_ops import quantized_dot as quantized_dot
from trellax._src.nn.fp8_ops import update_fp8_meta as update_fp8_meta
